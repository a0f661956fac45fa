/**
 * A bounded flood against the `npm start` stack in-process (the static server with the local
 * stand-in, on 127.0.0.1): one client submitting far more than a visitor would, fast. The
 * database's per-client limits must hold: at most the configured number stored, every other
 * request a 429, never a 5xx. Bounded in count (a few hundred requests) and in time.
 */
import { describe, expect, it } from 'vitest';
import { LOCAL_ANON_KEY } from '../../src/lib/supabase';
import { useLocalStack } from './stack';

const stack = useLocalStack({ telegramToken: '42:flood', telegramChatId: '-1' });

/** Requests in flight at once: enough to interleave, few enough for a shared 2-core machine. */
const PARALLEL = 10;
const FLOOD_TIME_LIMIT_MS = 30_000;

async function limitOf(bucket: string): Promise<number> {
  return (await stack.backend.db.query<{ n: number }>('SELECT per_client AS n FROM private.rate_limits WHERE bucket = $1', [bucket])).rows[0]!.n;
}

async function count(table: string): Promise<number> {
  return (await stack.backend.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM public.${table}`)).rows[0]!.n;
}

/** Sends `total` POSTs to `path`, PARALLEL at a time; returns how often each status came back. */
async function flood(path: string, total: number, body: (i: number) => unknown): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const started = Date.now();
  for (let next = 0; next < total; ) {
    const batch = Array.from({ length: Math.min(PARALLEL, total - next) }, () => next++);
    await Promise.all(batch.map(async (i) => {
      const res = await fetch(stack.server.url + path, {
        method: 'POST',
        headers: {
          apikey: LOCAL_ANON_KEY,
          Authorization: `Bearer ${LOCAL_ANON_KEY}`,
          'Content-Type': 'application/json',
          // A script posing as many visitors: the stand-in, like Supabase's front, ignores it.
          'x-forwarded-for': `203.0.113.${i % 250}`,
          'cf-connecting-ip': `198.51.100.${i % 250}`,
        },
        body: JSON.stringify(body(i)),
      });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }));
  }
  expect(Date.now() - started).toBeLessThan(FLOOD_TIME_LIMIT_MS);
  return statuses;
}

describe('a flood from one client', () => {
  it('200 discount sign-ups with made-up emails: the configured few stored, every other one 429', async () => {
    const limit = await limitOf('discount_leads');
    const statuses = await flood('/rest/v1/discount_leads', 200, (i) => ({ email: `flood${i}@example.com`, phone: `40855${String(i).padStart(5, '0')}`, page: '/' }));
    expect(Object.fromEntries(statuses)).toEqual({ 201: limit, 429: 200 - limit });
    expect(await count('discount_leads')).toBe(limit);
  });

  it('100 quote requests: the configured few stored, every other one 429', async () => {
    const limit = await limitOf('leads');
    const statuses = await flood('/rest/v1/leads', 100, (i) => ({
      first_name: 'Flood', last_name: `No ${i}`, email: `quote${i}@example.com`, phone: '4085550100', message: 'Buy now', page: 'contact',
    }));
    expect(Object.fromEntries(statuses)).toEqual({ 201: limit, 429: 100 - limit });
    expect(await count('leads')).toBe(limit);
  });

  it('100 notify-telegram calls for leads never stored: no message, 404 up to the limit, then 429', async () => {
    const limit = await limitOf('notify');
    const statuses = await flood('/functions/v1/notify-telegram', 100, (i) => ({
      firstName: 'Spam', lastName: `No ${i}`, email: `spam${i}@example.com`, phone: '4085550100', message: 'Visit my site', page: 'contact',
    }));
    expect(Object.fromEntries(statuses)).toEqual({ 404: limit, 429: 100 - limit });
    expect(stack.telegram.calls).toHaveLength(0);
  });
});
