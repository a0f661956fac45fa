/** The office hours the tests reason about: content/site.yaml's (Mon-Sat 9 AM-6 PM, Los Angeles, 15 minutes). */
import type { OfficeHours } from '../../supabase/functions/_shared/chat/officeHours';

export const HOURS: OfficeHours = {
  timeZone: 'America/Los_Angeles',
  days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  opens: '09:00',
  closes: '18:00',
  reminderAfterMinutes: 15,
};
