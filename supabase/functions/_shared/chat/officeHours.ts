/**
 * The office's hours as the chat's reminders count them (issue 30): the shape of /office-hours.json
 * (the build writes it from content/site.yaml, the scheduled run reads it), and the business-hours
 * math on it. Runtime-neutral (Deno in production, Node in the stand-in and the tests): only Intl
 * with time zones and zod/mini, and every function takes the instant it reasons about, never the
 * machine's clock or time zone.
 */
import * as z from 'zod/mini';

/** Where the built site publishes the hours (not in the sitemap; a short cache, generator/write). */
export const OFFICE_HOURS_PATH = '/office-hours.json';

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A reminder comes this many minutes of opening hours after a lead arrived (site.yaml: 15 when not given), at most a working day. */
export const REMINDER_MINUTES = { min: 1, max: 600 } as const;

/** Whether Intl knows `zone` as an IANA time zone (what Deno and Node both accept); the build checks site.yaml with it too. */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const clock = z.string().check(z.regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'must be a time of day as HH:MM, 00:00 to 23:59'));

/** /office-hours.json: checked field by field, since whoever serves the site's address could answer anything. */
export const officeHoursSchema = z.strictObject({
  timeZone: z.string().check(z.maxLength(64), z.refine(isTimeZone, 'is not a time zone')),
  days: z.array(z.enum(WEEKDAYS)).check(z.minLength(1), z.maxLength(7)),
  opens: clock,
  closes: clock,
  reminderAfterMinutes: z.int().check(z.gte(REMINDER_MINUTES.min, `must be at least ${REMINDER_MINUTES.min}`), z.lte(REMINDER_MINUTES.max, `must be at most ${REMINDER_MINUTES.max} (a working day)`)),
}).check(z.refine((h) => minutesOf(h.opens) < minutesOf(h.closes), { message: 'closes must be later than opens', path: ['closes'] }));

export type OfficeHours = z.infer<typeof officeHoursSchema>;

/** Minutes since midnight of an HH:MM. */
function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** A calendar date in the office's time zone. */
interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock reading in `zone` at `instant` (to the second). */
function wallClock(instant: number, zone: string): LocalDate & { hour: number; minute: number; second: number } {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(zone, format);
  }
  const parts = format.formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** How far `zone`'s wall clock is ahead of UTC at `instant`, in ms. */
function offsetAt(instant: number, zone: string): number {
  const w = wallClock(instant, zone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant `zone`'s clocks read `minutes` past midnight on `date`. On the night the clocks go
 * forward a reading that never happens is taken after the jump (02:30 → 03:30); on the night they
 * go back a reading that happens twice is the first one.
 */
function instantOf(date: LocalDate, minutes: number, zone: string): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day) + minutes * 60_000;
  const candidates = [offsetAt(wall - 86_400_000 / 2, zone), offsetAt(wall + 86_400_000 / 2, zone)]
    .map((offset) => wall - offset)
    .filter((instant) => offsetAt(instant, zone) === wall - instant);
  if (candidates.length) return Math.min(...candidates);
  // In the gap: the offset before the jump puts the reading after it.
  return wall - offsetAt(wall - 86_400_000 / 2, zone);
}

const addDays = (date: LocalDate, days: number): LocalDate => {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};

const weekdayOf = (date: LocalDate): Weekday => WEEKDAYS[new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay()]!;

const isoDate = (date: LocalDate) =>
  `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;

/** A business day's opening hours as instants, or undefined when the office is closed that day. */
function openingOn(date: LocalDate, hours: OfficeHours): { opens: number; closes: number } | undefined {
  if (!hours.days.includes(weekdayOf(date))) return undefined;
  return { opens: instantOf(date, minutesOf(hours.opens), hours.timeZone), closes: instantOf(date, minutesOf(hours.closes), hours.timeZone) };
}

/**
 * When a lead that arrived at `arrivedAt` is due for its reminder: `reminderAfterMinutes` minutes
 * counted only while the office is open, in its own time zone. A lead at 8 PM on a Friday, with
 * Saturday a business day from 9 AM and 15 minutes, is due at 9:15 AM on Saturday; one at 5:50 PM
 * with the office closing at 6 PM is due 5 minutes after the next opening. Opening hours are real
 * elapsed time, so a clock change inside them is counted as it happens.
 */
export function reminderDueAt(arrivedAt: Date, hours: OfficeHours): Date {
  let remaining = hours.reminderAfterMinutes * 60_000;
  const start = arrivedAt.getTime();
  const first = wallClock(start, hours.timeZone);
  // Seven days hold every business day of a week; a reminder needs at most one working day.
  for (let i = 0; i <= 14; i++) {
    const opening = openingOn(addDays(first, i), hours);
    if (!opening) continue;
    const from = Math.max(start, opening.opens);
    if (from >= opening.closes) continue;
    if (from + remaining <= opening.closes) return new Date(from + remaining);
    remaining -= opening.closes - from;
  }
  throw new Error('office hours leave no time for a reminder within two weeks');
}

/**
 * The business day whose opening `now` falls in (from opening time, for `windowMinutes`, and before
 * closing): its date in the office's time zone and when it closes; else undefined. The scheduled
 * run sends the day's summary then; the window lets a run that was late still send it.
 */
export function openingOfBusinessDay(now: Date, hours: OfficeHours, windowMinutes = 60): { day: string; closesAt: Date } | undefined {
  const date = wallClock(now.getTime(), hours.timeZone);
  const opening = openingOn(date, hours);
  if (!opening) return undefined;
  const t = now.getTime();
  if (t < opening.opens || t >= opening.closes || t >= opening.opens + windowMinutes * 60_000) return undefined;
  return { day: isoDate(date), closesAt: new Date(opening.closes) };
}
