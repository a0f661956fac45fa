/**
 * The database's own defences, on PGlite with the real migrations: per-client limits on both lead
 * tables (the client read from the request headers the way PostgREST passes them to SQL), a
 * table-wide cap when no address is known, bookkeeping the anon key cannot see or touch, and
 * notify-telegram's claim: one message per stored lead, however often the call is replayed.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations, openDatabase } from '../../supabase-standin/database.js';

let db: PGlite;

interface Limit { bucket: string; per_client: number; client_window: string; per_minute: number }
let limits: Map<string, Limit>;

beforeAll(async () => {
  db = await openDatabase(undefined);
  await applyMigrations(db);
  const { rows } = await db.query<Limit>(
    `SELECT bucket, per_client, client_window::text AS client_window, per_minute FROM private.rate_limits`,
  );
  limits = new Map(rows.map((r) => [r.bucket, r]));
});

afterAll(async () => {
  await db?.close();
});

beforeEach(async () => {
  // What docs/security.md tells the owner to run to clear every blocked client.
  await db.exec('DELETE FROM private.rate_events; DELETE FROM public.leads; DELETE FROM public.discount_leads;');
});

const lead = { first_name: 'Maria', last_name: 'Lopez', email: 'maria@example.com', phone: '(408) 555-0199', message: 'Deep clean, please.', page: 'contact' };
const discount = (n: number) => ({ email: `sam${n}@example.com`, phone: '4085550100', page: '/' });

/** A request as PostgREST runs it: role anon, the request's headers in request.headers. */
async function asVisitor<T>(headers: Record<string, string>, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.exec('SET LOCAL ROLE anon');
    await tx.query(`SELECT set_config('request.headers', $1, true)`, [JSON.stringify(headers)]);
    return fn(tx);
  });
}

async function insert(table: 'leads' | 'discount_leads', row: Record<string, string>, headers: Record<string, string> = {}): Promise<string> {
  const cols = Object.keys(row);
  try {
    await asVisitor(headers, (tx) =>
      tx.query(`INSERT INTO public.${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row)),
    );
    return 'stored';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

const from = (address: string) => ({ 'x-forwarded-for': address });
const count = async (table: string) => Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM public.${table}`)).rows[0]?.n);

describe('per-client limits', () => {
  it('are the documented ones: 5 quotes and 3 discount sign-ups per 10 minutes', () => {
    expect(limits.get('leads')).toMatchObject({ per_client: 5, client_window: '00:10:00' });
    expect(limits.get('discount_leads')).toMatchObject({ per_client: 3, client_window: '00:10:00' });
  });

  it.each(['leads', 'discount_leads'] as const)('refuse the insert after the limit in %s, with SQLSTATE PT429 (HTTP 429)', async (table) => {
    const max = limits.get(table)!.per_client;
    const results: string[] = [];
    for (let i = 0; i <= max; i++) results.push(await insert(table, table === 'leads' ? lead : discount(i), from('203.0.113.7')));
    expect(results).toEqual([...Array(max).fill('stored'), 'PT429']);
    expect(await count(table)).toBe(max);
  });

  it('never refuse a visitor who submits twice, or fixes a typo and submits again', async () => {
    expect(await insert('leads', lead, from('203.0.113.8'))).toBe('stored');
    expect(await insert('leads', { ...lead, email: 'maria@example.org' }, from('203.0.113.8'))).toBe('stored');
    expect(await insert('discount_leads', discount(1), from('203.0.113.8'))).toBe('stored');
    expect(await insert('discount_leads', discount(1), from('203.0.113.8'))).toBe('stored');
  });

  it('keep other addresses apart: a blocked client does not block the next visitor', async () => {
    for (let i = 0; i < 3; i++) await insert('discount_leads', discount(i), from('198.51.100.1'));
    expect(await insert('discount_leads', discount(9), from('198.51.100.1'))).toBe('PT429');
    expect(await insert('discount_leads', discount(10), from('198.51.100.2'))).toBe('stored');
  });

  it('let the client in again once the window has passed', async () => {
    for (let i = 0; i < 3; i++) await insert('discount_leads', discount(i), from('198.51.100.3'));
    expect(await insert('discount_leads', discount(3), from('198.51.100.3'))).toBe('PT429');
    await db.exec(`UPDATE private.rate_events SET at = at - interval '10 minutes 1 second'`);
    expect(await insert('discount_leads', discount(4), from('198.51.100.3'))).toBe('stored');
  });

  it('name the client as Supabase passes it: cf-connecting-ip first, then x-real-ip, then the first x-forwarded-for entry', async () => {
    // Forged x-forwarded-for entries do not help when Cloudflare's header is there.
    for (let i = 0; i < 3; i++) {
      expect(await insert('discount_leads', discount(i), { 'cf-connecting-ip': '192.0.2.1', 'x-forwarded-for': `10.0.0.${i}` })).toBe('stored');
    }
    expect(await insert('discount_leads', discount(5), { 'cf-connecting-ip': '192.0.2.1', 'x-forwarded-for': '10.9.9.9' })).toBe('PT429');
    const { rows } = await db.query<{ client: string }>(`SELECT DISTINCT client FROM private.rate_events`);
    expect(rows).toEqual([{ client: '192.0.2.1' }]);
    await db.exec('DELETE FROM private.rate_events');
    await insert('discount_leads', discount(6), { 'x-forwarded-for': '192.0.2.9, 172.16.0.1' });
    expect((await db.query<{ client: string }>(`SELECT client FROM private.rate_events`)).rows).toEqual([{ client: '192.0.2.9' }]);
  });

  it('hold a table-wide cap per minute when no address is known, and against many addresses', async () => {
    const cap = limits.get('discount_leads')!.per_minute;
    const results: string[] = [];
    for (let i = 0; i <= cap; i++) results.push(await insert('discount_leads', discount(i)));
    expect(results.filter((r) => r === 'stored')).toHaveLength(cap);
    expect(results.at(-1)).toBe('PT429');
    // one more from a fresh address within the same minute: the cap still holds
    expect(await insert('discount_leads', discount(99), from('198.51.100.50'))).toBe('PT429');
  });

  it('refuse a bulk insert beyond the limit as a whole', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => discount(i));
    const values = rows.map((_, i) => `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`).join(', ');
    const outcome = await asVisitor(from('198.51.100.4'), (tx) =>
      tx.query(`INSERT INTO public.discount_leads (email, phone, page) VALUES ${values}`, rows.flatMap((r) => Object.values(r))),
    ).then(() => 'stored', (err: { code?: string }) => err.code);
    expect(outcome).toBe('PT429');
    expect(await count('discount_leads')).toBe(0);
  });

  it('are the owner\'s to change in one place', async () => {
    await db.exec(`UPDATE private.rate_limits SET per_client = 1 WHERE bucket = 'leads'`);
    try {
      expect(await insert('leads', lead, from('198.51.100.5'))).toBe('stored');
      expect(await insert('leads', lead, from('198.51.100.5'))).toBe('PT429');
      // and to clear one blocked client
      await db.query(`DELETE FROM private.rate_events WHERE client = $1`, ['198.51.100.5']);
      expect(await insert('leads', lead, from('198.51.100.5'))).toBe('stored');
    } finally {
      await db.exec(`UPDATE private.rate_limits SET per_client = 5 WHERE bucket = 'leads'`);
    }
  });
});

describe('what the anon key can reach', () => {
  it.each([
    'SELECT * FROM private.rate_events',
    'SELECT * FROM private.rate_limits',
    `INSERT INTO private.rate_events (bucket, client) VALUES ('leads', 'x')`,
    `UPDATE private.rate_limits SET per_client = 1000`,
    'DELETE FROM private.rate_events',
    `SELECT private.take_rate_limit('leads', 'x')`,
    'SELECT private.request_client()',
    `SELECT public.claim_lead_notification('', 'contact', 'maria@example.com', '1')`,
    `INSERT INTO public.leads (first_name, last_name, email, phone, message, page, notified_at) VALUES ('a', 'b', 'a@b.co', '1', 'm', 'contact', now())`,
  ])('refuses %s', async (sql) => {
    const outcome = await asVisitor({}, (tx) => tx.query(sql)).then(() => 'ok', (err: { code?: string }) => err.code);
    expect(outcome).toBe('42501');
  });
});

describe('claim_lead_notification (notify-telegram, service role)', () => {
  async function claim(args: { client?: string; page: string; email: string; phone: string; first?: string; last?: string; message?: string }): Promise<boolean | string> {
    try {
      return await db.transaction(async (tx) => {
        await tx.exec('SET LOCAL ROLE service_role');
        const { rows } = await tx.query<{ claimed: boolean }>(
          'SELECT public.claim_lead_notification($1, $2, $3, $4, $5, $6, $7) AS claimed',
          [args.client ?? '203.0.113.20', args.page, args.email, args.phone, args.first ?? null, args.last ?? null, args.message ?? null],
        );
        return rows[0]!.claimed;
      });
    } catch (err) {
      return (err as { code?: string }).code ?? String(err);
    }
  }
  const contactClaim = { page: 'contact', email: lead.email, phone: lead.phone, first: lead.first_name, last: lead.last_name, message: lead.message };

  it('claims a stored lead once; a replay finds nothing', async () => {
    await insert('leads', lead, from('203.0.113.20'));
    expect(await claim(contactClaim)).toBe(true);
    expect(await claim(contactClaim)).toBe(false);
    const { rows } = await db.query<{ notified_at: Date | null }>('SELECT notified_at FROM public.leads');
    expect(rows[0]?.notified_at).toBeInstanceOf(Date);
  });

  it('gives one claim per stored lead when a visitor submits twice', async () => {
    await insert('leads', lead, from('203.0.113.21'));
    await insert('leads', lead, from('203.0.113.21'));
    expect([await claim(contactClaim), await claim(contactClaim), await claim(contactClaim)]).toEqual([true, true, false]);
  });

  it('finds nothing for a lead that was never stored, differs in any field, or is older than ten minutes', async () => {
    expect(await claim(contactClaim)).toBe(false);
    await insert('leads', lead, from('203.0.113.22'));
    expect(await claim({ ...contactClaim, message: 'Something else entirely' })).toBe(false);
    expect(await claim({ ...contactClaim, phone: '000' })).toBe(false);
    await db.exec(`UPDATE public.leads SET created_at = created_at - interval '11 minutes'`);
    expect(await claim(contactClaim)).toBe(false);
  });

  it('claims discount sign-ups by page, email and phone', async () => {
    await insert('discount_leads', discount(1), from('203.0.113.23'));
    expect(await claim({ page: '/', email: 'sam1@example.com', phone: '4085550100' })).toBe(true);
    expect(await claim({ page: '/', email: 'sam1@example.com', phone: '4085550100' })).toBe(false);
    expect(await claim({ page: '/contact', email: 'sam1@example.com', phone: '4085550100' })).toBe(false);
  });

  it('refuses a flood of calls from one client with PT429', async () => {
    const max = limits.get('notify')!.per_client;
    const results: Array<boolean | string> = [];
    for (let i = 0; i <= max; i++) results.push(await claim({ ...contactClaim, client: '203.0.113.24' }));
    expect(results).toEqual([...Array(max).fill(false), 'PT429']);
    expect(await claim({ ...contactClaim, client: '203.0.113.25' })).toBe(false);
  });
});
