/**
 * /office-hours.json: the office's hours, time zone and reminder delay from content/site.yaml, for
 * the scheduled run of the office chat (issue 30), which reads it from the site's address before
 * it plans reminders (supabase/functions/_shared/chat/officeHoursSource.ts). Public on purpose:
 * the site states its hours on every page already. Not a page, so not in the sitemap; a short
 * cache, so changed hours reach the run within minutes of a deploy.
 */
import type { SiteModel } from '../../contracts/content.js';
import { OFFICE_HOURS_PATH, officeHoursSchema } from '../../supabase/functions/_shared/chat/officeHours.js';

/** The file's name in dist/. */
export const OFFICE_HOURS_FILE = OFFICE_HOURS_PATH.slice(1);

/** The file, checked with the very schema the run reads it with. */
export function officeHoursJson(site: Pick<SiteModel['site'], 'hours'>): string {
  const { timeZone, days, opens, closes, reminderAfterMinutes } = site.hours;
  return `${JSON.stringify(officeHoursSchema.parse({ timeZone, days, opens, closes, reminderAfterMinutes }), null, 2)}\n`;
}

/** Its _headers rule. */
export const OFFICE_HOURS_HEADERS: [string, Record<string, string>] = [OFFICE_HOURS_PATH, { 'Cache-Control': 'public, max-age=300' }];
