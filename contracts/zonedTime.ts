/**
 * Moments in the business's time zone (site.yaml's hours.timeZone). A date the content writes
 * without an offset means the business's wall clock, never UTC: "2026-11-20T18:30" written in
 * California is 02:30 UTC the next day, and read as UTC it would be "in the future" for eight
 * hours (Hugo #12940, Eleventy's documented pitfall). The build, the content manager and the
 * authoring commands read and write dates through this one module.
 */

/**
 * A moment as content writes it: a day (2026-11-20), or a day and time with or without an offset
 * (2026-11-20T18:30, 2026-11-20T18:30:00.000Z, 2026-11-20T18:30-08:00).
 */
export const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether the runtime knows this IANA time zone. */
export function isTimeZone(timeZone: string): boolean {
  try {
    wallClock(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * Offsets found, by zone and span of days: formatToParts costs microseconds, and a build reads
 * thousands of dates. A span whose start and end have one offset has it throughout (zones change
 * theirs at most twice a year); a span with a change is looked up by day, and a day with a change
 * exactly.
 */
const offsets = new Map<string, number>();
const DAY = 86_400_000;
const SPAN = 32 * DAY;

/** The offset of the span of `length` ms holding `time` when it has one throughout, else NaN. */
function steadyOffset(time: number, timeZone: string, length: number): number {
  const start = Math.floor(time / length) * length;
  const key = `${timeZone} ${length} ${start}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const first = zoneOffset(start, timeZone);
    offset = first === zoneOffset(start + length - 1000, timeZone) ? first : Number.NaN;
    if (offsets.size > 100_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

/** The zone's offset from UTC at `time`, in minutes (-480 for California in winter). */
export function offsetAt(time: number, timeZone: string): number {
  const span = steadyOffset(time, timeZone, SPAN);
  if (!Number.isNaN(span)) return span;
  const day = steadyOffset(time, timeZone, DAY);
  return Number.isNaN(day) ? zoneOffset(time, timeZone) : day;
}

function zoneOffset(time: number, timeZone: string): number {
  const parts = Object.fromEntries(wallClock(timeZone).formatToParts(new Date(time)).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return Math.round((asUtc - Math.floor(time / 1000) * 1000) / 60000);
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** `time` as ISO 8601 on the zone's wall clock with its offset: 2026-11-20T18:30:00-08:00. */
export function zonedIso(time: number, timeZone: string): string {
  const offset = offsetAt(time, timeZone);
  const d = new Date(time + offset * 60000);
  const sign = offset < 0 ? '-' : '+';
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
    + `${sign}${pad(Math.trunc(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/**
 * The moment a content date names, or undefined for one that is no date (2026-02-30). A date
 * alone is the start of that day in the zone; a time without an offset is the zone's wall clock;
 * an offset or Z (what Decap's date widget saves) is taken as written.
 */
export function parseZoned(value: string, timeZone: string): { time: number; iso: string } | undefined {
  const m = LOCAL_DATE_TIME.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const fields = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)] as const;
  const wall = Date.UTC(...fields) + Number(`0.${frac || '0'}`) * 1000;
  const check = new Date(Date.UTC(...fields));
  if (check.getUTCFullYear() !== fields[0] || check.getUTCMonth() !== fields[1] || check.getUTCDate() !== fields[2] || fields[3] > 23 || fields[4] > 59 || fields[5] > 59) return undefined;
  let time: number;
  if (zone) {
    const z = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
    time = wall - z * 60000;
  } else {
    // The offset at the wall time read as UTC is right but near a change of offset; a second look settles it.
    const first = wall - offsetAt(wall, timeZone) * 60000;
    time = wall - offsetAt(first, timeZone) * 60000;
  }
  return { time, iso: zonedIso(time, timeZone) };
}
