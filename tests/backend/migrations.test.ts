/**
 * The lead tables on PGlite, with the roles the way Supabase has them: a visitor (role anon)
 * can submit a lead and cannot read / change / delete any. Which values are refused is
 * tests/backend/lead-rules.test.ts; the per-client limits are tests/backend/lead-limits.test.ts.
 */
import { readdirSync } from 'node:fs';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, DEFAULT_MIGRATIONS_DIR, openDatabase } from '../../supabase-standin/database.js';

let db: PGlite;

beforeAll(async () => {
  db = await openDatabase(undefined); // in-memory
  await applyMigrations(db);
});

afterAll(async () => {
  await db?.close();
});

/** Runs fn as the anonymous website visitor; always rolls back. */
async function asAnon<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
  let result: T | undefined;
  let error: unknown;
  await db
    .transaction(async (tx) => {
      await tx.exec('SET LOCAL ROLE anon');
      try {
        result = await fn(tx);
      } catch (err) {
        error = err;
      }
      await tx.rollback();
    })
    .catch(() => {});
  if (error) throw error;
  return result as T;
}

const goodLead = {
  first_name: 'Maria',
  last_name: 'Lopez',
  email: 'maria@example.com',
  phone: '(408) 555-0199',
  message: 'Deep clean for a 3 bedroom house in San Jose, please.',
  page: 'contact',
};
const goodDiscount = { email: 'sam@example.com', phone: '4085550100', page: '/' };

async function insertLead(row: Record<string, unknown>, table = 'leads'): Promise<void> {
  const cols = Object.keys(row);
  await asAnon((tx) =>
    tx.query(
      `INSERT INTO public.${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
      Object.values(row),
    ),
  );
}

async function errorOf(p: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { code?: string; message: string };
  }
  throw new Error('expected the statement to be refused');
}

describe('migrations on PGlite', () => {
  it('records the migrations once and does nothing on a second run', async () => {
    const { rows } = await db.query<{ name: string }>('SELECT name FROM public._local_migrations');
    expect(rows.map((r) => r.name)).toContain('20251101000000_leads.sql');
    expect(await applyMigrations(db)).toEqual([]);
  });

  it('applies every migration of supabase/migrations, in name order (the lead inbox after the lead rules)', async () => {
    const { rows } = await db.query<{ name: string }>('SELECT name FROM public._local_migrations ORDER BY applied_at, name');
    const names = rows.map((r) => r.name);
    expect(names).toEqual(readdirSync(DEFAULT_MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort());
    expect(names.indexOf('20261124000000_lead_inbox.sql')).toBeGreaterThan(names.indexOf('20261123000000_lead_rules_and_limits.sql'));
  });

  // Guards for every migration to come: Postgres grants EXECUTE to PUBLIC and the bootstrap (as
  // Supabase) grants new public objects to anon, so a function or table that forgets its revoke shows here.
  it('lets a visitor call no function at all, and a signed-in user only the inbox\'s and its staff check', async () => {
    const { rows } = await db.query<{ fn: string; anon: boolean; authenticated: boolean }>(`
      SELECT n.nspname || '.' || p.proname AS fn, has_function_privilege('anon', p.oid, 'EXECUTE') AS anon,
             has_function_privilege('authenticated', p.oid, 'EXECUTE') AS authenticated
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname IN ('public', 'private')`);
    expect(rows.filter((r) => r.anon)).toEqual([]);
    // A new entry here is a deliberate grant: say in its migration why a signed-in user needs it.
    expect(rows.filter((r) => r.authenticated).map((r) => r.fn).sort()).toEqual([
      'private.is_staff', 'private.lead_filter', 'private.require_staff',
      'private.touch_channel', // the view public.inbox_leads (security invoker) computes each lead's channel with it
      'public.ad_conversions', 'public.attribution_report', // issue 31: the report and the conversion exports
      'public.count_leads', 'public.inbox_stats', 'public.lead_delivery', 'public.log_export', 'public.search_leads', 'public.set_lead_status',
      'public.telegram_link_code', 'public.telegram_link_status', 'public.telegram_unlink',
    ]);
  });

  it('pins search_path to nothing in every function of public and private', async () => {
    const { rows } = await db.query<{ fn: string }>(`
      SELECT p.oid::regprocedure::text AS fn FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname IN ('public', 'private') AND NOT coalesce(p.proconfig @> ARRAY['search_path=""'], false)`);
    expect(rows).toEqual([]);
  });

  it('has row-level security on every table of public and private', async () => {
    const { rows } = await db.query<{ t: string }>(`
      SELECT c.oid::regclass::text AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname IN ('public', 'private') AND c.relkind = 'r' AND NOT c.relrowsecurity
         AND c.oid <> 'public._local_migrations'::regclass`);
    // the rate limits' bookkeeping has no grant for anyone but the owner, so it needs no policy
    expect(rows.map((r) => r.t).sort()).toEqual(['private.rate_events', 'private.rate_limits']);
  });

  it('lets a visitor submit a contact lead and a discount lead', async () => {
    await db.transaction(async (tx) => {
      await tx.exec('SET LOCAL ROLE anon');
      await tx.query(
        'INSERT INTO public.leads (first_name, last_name, email, phone, message, page) VALUES ($1, $2, $3, $4, $5, $6)',
        Object.values(goodLead),
      );
      await tx.query('INSERT INTO public.discount_leads (email, phone, page) VALUES ($1, $2, $3)', Object.values(goodDiscount));
    });
    const leads = await db.query<{ email: string; id: string; created_at: Date }>('SELECT * FROM public.leads');
    expect(leads.rows).toHaveLength(1);
    expect(leads.rows[0]?.email).toBe('maria@example.com');
    expect(leads.rows[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(leads.rows[0]?.created_at).toBeInstanceOf(Date);
    const discount = await db.query<{ page: string }>('SELECT * FROM public.discount_leads');
    expect(discount.rows.map((r) => r.page)).toEqual(['/']);
  });

  it.each(['leads', 'discount_leads'])('refuses a visitor reading, changing or deleting %s', async (table) => {
    for (const sql of [
      `SELECT * FROM public.${table}`,
      `UPDATE public.${table} SET phone = '0000000000'`,
      `DELETE FROM public.${table}`,
      `TRUNCATE public.${table}`,
    ]) {
      const err = await errorOf(asAnon((tx) => tx.query(sql)));
      expect(err.code, sql).toBe('42501');
      expect(err.message).toMatch(/permission denied/);
    }
    // nothing was changed
    expect((await db.query(`SELECT * FROM public.${table}`)).rows).toHaveLength(1);
  });

  it('refuses a visitor choosing the id or created_at, or reading back what was inserted', async () => {
    expect((await errorOf(insertLead({ ...goodLead, created_at: '2000-01-01' }))).code).toBe('42501');
    expect((await errorOf(insertLead({ ...goodDiscount, id: '00000000-0000-0000-0000-000000000000' }, 'discount_leads'))).code).toBe('42501');
    const returning = asAnon((tx) =>
      tx.query('INSERT INTO public.discount_leads (email, phone, page) VALUES ($1, $2, $3) RETURNING *', Object.values(goodDiscount)),
    );
    expect((await errorOf(returning)).code).toBe('42501');
  });

  it('does not let the authenticated role insert either', async () => {
    const err = await errorOf(
      db.transaction(async (tx) => {
        await tx.exec('SET LOCAL ROLE authenticated');
        await tx.query('INSERT INTO public.discount_leads (email, phone, page) VALUES ($1, $2, $3)', Object.values(goodDiscount));
      }),
    );
    expect(err.code).toBe('42501');
  });

  it('refuses a contact lead with a missing field', async () => {
    const { message: _omit, ...noMessage } = goodLead;
    expect((await errorOf(insertLead(noMessage))).code).toBe('23502');
  });
});
