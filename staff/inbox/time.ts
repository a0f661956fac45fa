/** The inbox's clock words: how long ago, how long a first response took, the 24-hour promise. */

/** Past this many hours a new lead is highlighted; past OVERDUE_HOURS it has broken the promise. */
export const DUE_SOON_HOURS = 20;
export const OVERDUE_HOURS = 24;

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A length of time in the two largest units: "45 min", "3 h 20 min", "2 days 4 h". */
/** A moment as staff read it: "Nov 26, 2026, 7:28 PM" in the browser's language and zone. */
export const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < MINUTE) return 'under a minute';
  if (s < HOUR) return `${Math.floor(s / MINUTE)} min`;
  if (s < DAY) {
    const h = Math.floor(s / HOUR);
    const m = Math.floor((s % HOUR) / MINUTE);
    return m ? `${h} h ${m} min` : `${h} h`;
  }
  const d = Math.floor(s / DAY);
  const h = Math.floor((s % DAY) / HOUR);
  return h ? `${plural(d, 'day')} ${h} h` : plural(d, 'day');
}

/** "just now", "5 min ago", "3 h ago", "2 days ago". */
export function timeAgo(then: Date, now: Date): string {
  const seconds = (now.getTime() - then.getTime()) / 1000;
  if (seconds < MINUTE) return 'just now';
  if (seconds < HOUR) return `${Math.floor(seconds / MINUTE)} min ago`;
  if (seconds < DAY) return `${Math.floor(seconds / HOUR)} h ago`;
  return `${plural(Math.floor(seconds / DAY), 'day')} ago`;
}

export type PromiseState = 'overdue' | 'dueSoon' | undefined;

/** Where a lead stands against the 24-hour promise: only leads still new can be late. */
export function promiseState(lead: { status: string; created_at: string }, now: Date): PromiseState {
  if (lead.status !== 'new') return undefined;
  const hours = (now.getTime() - Date.parse(lead.created_at)) / 1000 / HOUR;
  if (hours >= OVERDUE_HOURS) return 'overdue';
  if (hours >= DUE_SOON_HOURS) return 'dueSoon';
  return undefined;
}

/** Seconds from the lead to its first response, or undefined while it has none. */
export function responseSeconds(lead: { created_at: string; first_response_at: string | null }): number | undefined {
  return lead.first_response_at ? (Date.parse(lead.first_response_at) - Date.parse(lead.created_at)) / 1000 : undefined;
}

/** A calendar day of the staff member's own time zone (YYYY-MM-DD) → its first instant, as ISO. */
export function dayStart(day: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The last instant of that day (the RPCs' p_to is inclusive), so "to 2026-11-20" takes all of the 20th. */
export function dayEnd(day: string): string | undefined {
  const start = dayStart(day);
  if (!start) return undefined;
  const date = new Date(start);
  date.setDate(date.getDate() + 1);
  return new Date(date.getTime() - 1).toISOString();
}
