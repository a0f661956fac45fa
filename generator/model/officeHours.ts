/**
 * site.yaml's office hours checked with the very rules the scheduled run of the office chat reads
 * them with (supabase/functions/_shared/chat/officeHours.ts: a time zone Intl knows, hours that
 * close after they open, the reminder delay's range), so one source says what valid hours are, and
 * a problem is a content error at its line rather than a run that quietly sends no reminders.
 */
import type { ValidDocOf } from '../../contracts/documents.js';
import type { ContentError } from '../../contracts/errors.js';
import { formatPath } from '../../contracts/validate/errors.js';
import { locator } from '../../contracts/validate/locate.js';
import { officeHoursSchema } from '../../supabase/functions/_shared/chat/officeHours.js';

const HINTS: Record<string, string> = {
  timeZone: 'use a name from the IANA time zone database, e.g. America/Los_Angeles',
  closes: 'times are HH:MM on a 24-hour clock, e.g. opens: "09:00" and closes: "18:00"',
  opens: 'times are HH:MM on a 24-hour clock, e.g. opens: "09:00" and closes: "18:00"',
  reminderAfterMinutes: 'a whole number of minutes of opening hours, e.g. 15',
};

export function officeHoursRule(doc: ValidDocOf<'site'>): ContentError[] {
  const { timeZone, days, opens, closes, reminderAfterMinutes } = doc.data.hours;
  const parsed = officeHoursSchema.safeParse({ timeZone, days, opens, closes, reminderAfterMinutes });
  if (parsed.success) return [];
  const where = locator(doc.yaml, doc.lineOffset);
  return parsed.error.issues.map((issue) => {
    const fieldPath = ['hours', ...issue.path.filter((seg): seg is string | number => typeof seg !== 'symbol')];
    const hint = HINTS[String(issue.path[0])];
    return { file: doc.file, ...where.value(fieldPath), path: formatPath(fieldPath), message: issue.message, ...(hint && { hint }) };
  });
}
