/**
 * The business-hours math under Deno, the runtime of the scheduled run on Supabase: its Intl and
 * time-zone data give the same instants as Node's for the cases of chat-office-hours.test.ts that
 * depend on them (clock changes, another zone, the opening of a day).
 */
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openingOfBusinessDay, reminderDueAt, type OfficeHours } from '../../supabase/functions/_shared/chat/officeHours';
import { denoEval } from '../helpers/deno';
import { HOURS } from './officeHoursFixture';

const EVERY_DAY: OfficeHours = { ...HOURS, days: ['Sunday', ...HOURS.days] };
const ALL_DAY: OfficeHours = { ...EVERY_DAY, opens: '00:00', closes: '23:59' };
const LONDON: OfficeHours = { ...HOURS, timeZone: 'Europe/London' };

/** [hours, instant]: arrivals for the reminder, and instants for the opening of a day. */
const CASES: Array<[OfficeHours, string]> = [
  [HOURS, '2026-11-21T04:00:00Z'], [HOURS, '2026-03-08T01:55:00Z'], [EVERY_DAY, '2026-03-08T02:30:00Z'],
  [HOURS, '2026-11-01T02:00:00Z'], [EVERY_DAY, '2026-11-01T02:00:00Z'], [ALL_DAY, '2026-03-08T09:50:00Z'],
  [ALL_DAY, '2026-11-01T08:50:00Z'], [LONDON, '2026-11-21T04:00:00Z'], [HOURS, '2026-03-09T16:00:00Z'], [HOURS, '2026-11-23T17:30:00Z'],
];

/** Each case's reminder time and opening of a day, as Node computes them (the Deno script below does the same). */
const inNode = () => CASES.map(([hours, at]) => [reminderDueAt(new Date(at), hours).toISOString(), openingOfBusinessDay(new Date(at), hours) ?? null]);

describe('office hours under Deno', () => {
  it('the same reminder times and openings as in Node', async () => {
    const url = pathToFileURL(new URL('../../supabase/functions/_shared/chat/officeHours.ts', import.meta.url).pathname).href;
    const run = await denoEval(`
      import { reminderDueAt, openingOfBusinessDay } from ${JSON.stringify(url)};
      const cases = ${JSON.stringify(CASES)};
      console.log(JSON.stringify(cases.map(([hours, at]) =>
        [reminderDueAt(new Date(at), hours).toISOString(), openingOfBusinessDay(new Date(at), hours) ?? null])));`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(JSON.stringify(inNode())));
  });
});
