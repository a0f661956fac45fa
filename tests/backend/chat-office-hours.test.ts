/**
 * The business-hours math of the chat's reminders and morning summary (supabase/functions/_shared/
 * chat/officeHours.ts): Mon-Sat 9 AM-6 PM in Los Angeles, as content/site.yaml states it. Instants
 * are written in UTC with the Pacific reading beside them; 2026's clock changes fall on Sunday
 * March 8 (02:00 PST → 03:00 PDT) and Sunday November 1 (02:00 PDT → 01:00 PST).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isTimeZone, officeHoursSchema, openingOfBusinessDay, reminderDueAt, type OfficeHours,
} from '../../supabase/functions/_shared/chat/officeHours';
import { officeHoursUrl, readOfficeHours } from '../../supabase/functions/_shared/chat/officeHoursSource';
import { HOURS } from './officeHoursFixture';

const EVERY_DAY: OfficeHours = { ...HOURS, days: ['Sunday', ...HOURS.days] };

const due = (arrived: string, hours = HOURS) => reminderDueAt(new Date(arrived), hours).toISOString();

describe('when a lead is due for its reminder', () => {
  it('a lead during opening hours: 15 minutes later', () => {
    // Tuesday 10:00 PST
    expect(due('2026-11-24T18:00:00Z')).toBe('2026-11-24T18:15:00.000Z');
  });

  it('a lead at 8 PM on a Friday: Saturday 9:15', () => {
    // Friday Nov 20, 20:00 PST → Saturday Nov 21, 09:15 PST
    expect(due('2026-11-21T04:00:00Z')).toBe('2026-11-21T17:15:00.000Z');
  });

  it('a lead on Saturday evening or Sunday: Monday 9:15 (Sunday is closed)', () => {
    expect(due('2026-11-22T04:00:00Z')).toBe('2026-11-23T17:15:00.000Z'); // Sat 20:00 PST
    expect(due('2026-11-22T20:00:00Z')).toBe('2026-11-23T17:15:00.000Z'); // Sun 12:00 PST
  });

  it('exactly at opening: 15 minutes after it; a minute before: the same', () => {
    expect(due('2026-11-24T17:00:00Z')).toBe('2026-11-24T17:15:00.000Z'); // Tue 09:00 PST
    expect(due('2026-11-24T16:59:00Z')).toBe('2026-11-24T17:15:00.000Z'); // Tue 08:59 PST
  });

  it('exactly at closing counts nothing that day; 10 minutes before closing leaves 5 for the next morning', () => {
    expect(due('2026-11-25T02:00:00Z')).toBe('2026-11-25T17:15:00.000Z'); // Tue 18:00 PST → Wed 09:15
    expect(due('2026-11-25T01:50:00Z')).toBe('2026-11-25T17:05:00.000Z'); // Tue 17:50 PST → Wed 09:05
    expect(due('2026-11-25T01:45:00Z')).toBe('2026-11-25T02:00:00.000Z'); // Tue 17:45 PST → 18:00 sharp
  });

  it('across the spring clock change: opening is 9 AM by the new clock', () => {
    // Saturday March 7, 17:55 PST → Monday March 9, 09:10 PDT (UTC-7)
    expect(due('2026-03-08T01:55:00Z')).toBe('2026-03-09T16:10:00.000Z');
    // Open on Sundays: Saturday 18:30 PST → Sunday March 8, 09:15 PDT, the day of the change
    expect(due('2026-03-08T02:30:00Z', EVERY_DAY)).toBe('2026-03-08T16:15:00.000Z');
  });

  it('across the autumn clock change: opening is 9 AM by the new clock', () => {
    // Saturday October 31, 19:00 PDT → Monday November 2, 09:15 PST (UTC-8)
    expect(due('2026-11-01T02:00:00Z')).toBe('2026-11-02T17:15:00.000Z');
    // Open on Sundays: → Sunday November 1, 09:15 PST
    expect(due('2026-11-01T02:00:00Z', EVERY_DAY)).toBe('2026-11-01T17:15:00.000Z');
  });

  it('a clock change inside opening hours counts the minutes that really pass', () => {
    const allDay: OfficeHours = { ...EVERY_DAY, opens: '00:00', closes: '23:59' };
    // Sunday March 8, 01:50 PST: 15 minutes later the clocks read 03:05 PDT
    expect(due('2026-03-08T09:50:00Z', allDay)).toBe('2026-03-08T10:05:00.000Z');
    // Sunday November 1, 01:50 PDT: 15 minutes later they read 01:05 PST
    expect(due('2026-11-01T08:50:00Z', allDay)).toBe('2026-11-01T09:05:00.000Z');
  });

  it('a longer delay runs over into the next business day', () => {
    // Saturday 17:00 PST with 90 minutes: 60 on Saturday, 30 on Monday
    expect(due('2026-11-22T01:00:00Z', { ...HOURS, reminderAfterMinutes: 90 })).toBe('2026-11-23T17:30:00.000Z');
  });

  it('counts in the office\'s own time zone, whatever the machine\'s', () => {
    const london: OfficeHours = { ...HOURS, timeZone: 'Europe/London' };
    // Friday Nov 20, 20:00 PST is Saturday 04:00 in London: due Saturday 09:15 GMT
    expect(due('2026-11-21T04:00:00Z', london)).toBe('2026-11-21T09:15:00.000Z');
  });
});

describe('the opening of a business day (the morning summary)', () => {
  const at = (instant: string, hours = HOURS) => {
    const found = openingOfBusinessDay(new Date(instant), hours);
    return found && { day: found.day, closesAt: found.closesAt.toISOString() };
  };

  it('from opening time, for an hour, on a business day', () => {
    const monday = { day: '2026-11-23', closesAt: '2026-11-24T02:00:00.000Z' };
    expect(at('2026-11-23T17:00:00Z')).toEqual(monday); // 09:00 PST
    expect(at('2026-11-23T17:59:00Z')).toEqual(monday); // 09:59 PST
    expect(at('2026-11-23T16:59:00Z')).toBeUndefined(); // 08:59 PST
    expect(at('2026-11-23T18:00:00Z')).toBeUndefined(); // 10:00 PST
  });

  it('never on a day the office is closed', () => {
    expect(at('2026-11-22T17:00:00Z')).toBeUndefined(); // Sunday 09:00 PST
  });

  it('the local date, not UTC\'s, and 9 AM by the clock of the day', () => {
    // Monday March 9 (first weekday of summer time): 09:00 PDT = 16:00Z; 09:00 PST would be 17:00Z
    expect(at('2026-03-09T16:00:00Z')).toEqual({ day: '2026-03-09', closesAt: '2026-03-10T01:00:00.000Z' });
    // A day that closes after midnight UTC: the summary's day is still Monday's
    expect(at('2026-11-23T17:30:00Z')?.day).toBe('2026-11-23');
  });
});

describe('the settings the run reads', () => {
  it('accepts the site\'s hours', () => {
    expect(officeHoursSchema.safeParse(HOURS).success).toBe(true);
  });

  it('refuses a time zone Intl does not know, with the reason', () => {
    for (const timeZone of ['America/Los_Angles', 'Mars/Olympus', 'PST8PDT; rm -rf', '', '../../etc/passwd']) {
      const parsed = officeHoursSchema.safeParse({ ...HOURS, timeZone });
      expect(parsed.success, timeZone).toBe(false);
    }
    expect(isTimeZone('America/Los_Angeles')).toBe(true);
    expect(isTimeZone('America/Los_Angles')).toBe(false);
  });

  it('knows the IANA names and nothing else', () => {
    const zones: Array<[string, boolean]> = [
      ['America/Los_Angeles', true], ['America/New_York', true], ['Europe/London', true], ['UTC', true], ['Etc/GMT+8', true],
      ['US/Pacific', true], ['America/Los_Angles', false], ['Pacific', false], ['', false], ['America/', false],
      ['../etc/localtime', false], ['America/Los Angeles', false], ['<script>', false],
    ];
    for (const [zone, valid] of zones) {
      expect([zone, isTimeZone(zone)]).toEqual([zone, valid]);
    }
  });

  it('refuses hours that close before they open, unknown days, impossible times and delays', () => {
    for (const bad of [
      { closes: '08:00' }, { closes: '09:00' }, { opens: '25:00' }, { days: ['Funday'] }, { days: [] },
      { reminderAfterMinutes: 0 }, { reminderAfterMinutes: 1.5 }, { reminderAfterMinutes: 100_000 }, { extra: true },
    ]) {
      expect(officeHoursSchema.safeParse({ ...HOURS, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('reading the published hours (the run and npm run doctor)', () => {
  /** A site on 127.0.0.1 whose /office-hours.json answers `answer`; `hold` never answers. */
  let site: { url: string; close(): Promise<void> };
  let answer: (res: ServerResponse) => void;
  beforeAll(async () => {
    const server = createServer((req, res) => {
      if (req.url !== '/office-hours.json') return void res.writeHead(404).end();
      answer(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
    };
  });
  afterAll(() => site.close());
  const serve = (status: number, body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }) => {
    answer = (res) => res.writeHead(status, headers).end(body);
  };

  it('the site\'s hours, from the origin of SITE_URL', async () => {
    serve(200, JSON.stringify(HOURS));
    expect(officeHoursUrl(`${site.url}/some/page?x=1`)).toBe(`${site.url}/office-hours.json`);
    expect(await readOfficeHours(`${site.url}/`, fetch)).toEqual({ hours: HOURS });
  });

  it('anything else is a reason, never an exception', async () => {
    const reason = async () => (await readOfficeHours(site.url, fetch, 2000)).error;
    serve(404, 'Not found');
    expect(await reason()).toBe(`${site.url}/office-hours.json answered 404`);
    serve(200, '<!doctype html><title>Home</title>', { 'Content-Type': 'text/html' });
    expect(await reason()).toBe(`${site.url}/office-hours.json is not JSON`);
    serve(200, JSON.stringify({ ...HOURS, timeZone: 'America/Los_Angles' }));
    expect(await reason()).toBe(`${site.url}/office-hours.json is not valid office hours (timeZone: is not a time zone)`);
    serve(200, JSON.stringify({ ...HOURS, padding: 'x'.repeat(10_000) }), {});
    expect(await reason()).toBe(`${site.url}/office-hours.json is larger than 4096 bytes`);
    answer = (res) => { res.writeHead(200, { 'Content-Type': 'application/json' }); res.write('{"timeZone": "Amer'); };
    expect(await readOfficeHours(site.url, fetch, 200)).toEqual({ error: expect.stringMatching(/could not be read \((TimeoutError|AbortError)\)$/) });
    expect(await readOfficeHours('http://127.0.0.1:1', fetch)).toEqual({ error: 'http://127.0.0.1:1/office-hours.json could not be reached (TypeError)' });
    for (const siteUrl of [undefined, '', 'ftp://example.com', 'not a url']) {
      expect((await readOfficeHours(siteUrl, fetch)).error).toBe('SITE_URL is not set to the site\'s http(s) address, so the office hours cannot be read');
    }
  });
});
