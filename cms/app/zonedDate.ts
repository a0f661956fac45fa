/**
 * The date fields of the content manager in the business's time zone (site.yaml's hours.timeZone),
 * whatever the zone of the computer the editor works on. Decap's own datetime widget shows the
 * browser's local time and saves UTC (`…Z`, decap-cms #7319); the build reads `Z` right, but the
 * office must see and type the business's wall clock. So the date widget (zonedDateTime.tsx)
 * shows a stored value as the business's wall time and saves what is typed as that wall time
 * without an offset, which the build reads in the business's zone (contracts/zonedTime.ts):
 * "2026-11-20T09:00" is 9 in the morning in California, typed in California or in Paris.
 */
import { parseZoned, zonedIso } from '../../contracts/zonedTime.js';

/** The widget's name in the configuration (cms/config.ts) and in the admin script (main.tsx). */
export const ZONED_DATE_TIME_WIDGET = 'zoned-datetime';

/** What `<input type="datetime-local">` holds, and what the widget saves: a wall time to the minute, no offset. */
export const WALL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/**
 * The wall time a stored value names in `timeZone`, as the date input shows it (2026-11-20T09:00);
 * '' for no value or one that is no date. A `…Z` or offset value (an older entry, Decap's own
 * widget) shows as the business's wall time of that moment; a value without offset is already
 * one; a date alone is the start of that day. A Date (what Decap's YAML parser makes of a `…Z`
 * value) is read as the moment it is.
 */
export function wallTimeOf(value: unknown, timeZone: string): string {
  const text = value instanceof Date ? (Number.isNaN(value.getTime()) ? '' : value.toISOString()) : typeof value === 'string' ? value : '';
  if (!text.trim()) return '';
  const parsed = parseZoned(text, timeZone);
  return parsed ? parsed.iso.slice(0, 16) : '';
}

/** What is saved for a wall time typed into the date input: that wall time as typed (no offset), '' when cleared or incomplete. */
export function storedValueOf(wallTime: string): string {
  return WALL_TIME.test(wallTime) ? wallTime : '';
}

/** Now, on the business's wall clock, to the minute: what the widget's "Now" button sets. */
export function wallTimeNow(timeZone: string, now = Date.now()): string {
  return zonedIso(now, timeZone).slice(0, 16);
}

/** "Pacific Time": the zone's everyday name, else its IANA name. */
export function zoneName(timeZone: string, at = Date.now()): string {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longGeneric' }).formatToParts(new Date(at)).find((p) => p.type === 'timeZoneName');
    return part?.value && !/^GMT[+-]/.test(part.value) ? part.value : timeZone;
  } catch {
    return timeZone;
  }
}

/** A moment as the editor reads it, on the business's clock: "November 20, 2026 at 9:00 AM". */
export function momentText(time: number, timeZone: string): string {
  const d = new Date(time);
  const day = new Intl.DateTimeFormat('en-US', { timeZone, month: 'long', day: 'numeric', year: 'numeric' }).format(d);
  const clock = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' }).format(d);
  return `${day} at ${clock}`;
}

/** The zone of the browser the editor works in (the fallback when the page was not told the business's). */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;
