/** Dates as content writes them, read on the business's wall clock (contracts/zonedTime.ts). */
import { describe, expect, it } from 'vitest';
import { offsetAt, parseZoned, zonedIso } from '../../contracts/zonedTime.js';

const LA = 'America/Los_Angeles';

/** The offset as Intl gives it, without the module's memory of days. */
function intlOffset(time: number, timeZone: string): number {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
    .formatToParts(new Date(time)).map((x) => [x.type, x.value]));
  return Math.round((Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!) - Math.floor(time / 1000) * 1000) / 60000);
}

describe('the business\'s time zone', () => {
  it('gives every quarter hour of a year the offset Intl gives it, across both changes of the clocks, in zones with odd offsets too', () => {
    for (const zone of [LA, 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC']) {
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 15 * 60_000) {
        if (offsetAt(t, zone) !== intlOffset(t, zone)) throw new Error(`${zone} at ${new Date(t).toISOString()}: ${offsetAt(t, zone)} ≠ ${intlOffset(t, zone)}`);
      }
    }
  });

  it('reads a wall time as California\'s, in winter and in summer, and a written offset as written', () => {
    expect(parseZoned('2026-01-15T18:30', LA)!.iso).toBe('2026-01-15T18:30:00-08:00');
    expect(parseZoned('2026-07-15T18:30', LA)!.iso).toBe('2026-07-15T18:30:00-07:00');
    expect(parseZoned('2026-03-08T03:30', LA)!.iso).toBe('2026-03-08T03:30:00-07:00');
    expect(parseZoned('2026-11-20T18:30:00.000Z', LA)!.iso).toBe('2026-11-20T10:30:00-08:00');
    expect(parseZoned('2026-11-20T18:30+05:30', LA)!.time).toBe(Date.parse('2026-11-20T13:00:00Z'));
    expect(parseZoned('2026-11-20', LA)!.time).toBe(Date.parse('2026-11-20T08:00:00Z'));
  });

  it('refuses what is no date, and writes any moment back with its offset', () => {
    for (const bad of ['2026-02-30', '2026-13-01', '2026-11-20T24:00', '20-11-2026', '2026-11-20T18:30:00+5']) expect(parseZoned(bad, LA), bad).toBeUndefined();
    expect(zonedIso(Date.parse('2026-11-21T02:30:00Z'), LA)).toBe('2026-11-20T18:30:00-08:00');
  });
});
