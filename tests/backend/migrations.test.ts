/**
 * The lead tables on PGlite, with the roles the way Supabase has them: a visitor (role anon)
 * can submit a lead, cannot read / change / delete any, and junk rows are refused by the database.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, openDatabase } from '../../generator/serve/backend';

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

  it.each<[string, Record<string, unknown>, string]>([
    ['empty first name', { first_name: '' }, 'leads_first_name_length'],
    ['blank first name', { first_name: '   ' }, 'leads_first_name_length'],
    ['first name over 100 chars', { first_name: 'a'.repeat(101) }, 'leads_first_name_length'],
    ['blank last name', { last_name: ' ' }, 'leads_last_name_length'],
    ['email without @', { email: 'maria.example.com' }, 'leads_email_format'],
    ['email without domain dot', { email: 'maria@example' }, 'leads_email_format'],
    ['email with a space', { email: 'ma ria@example.com' }, 'leads_email_format'],
    ['email over 254 chars', { email: `${'a'.repeat(250)}@example.com` }, 'leads_email_format'],
    ['empty phone', { phone: '' }, 'leads_phone_length'],
    ['phone over 40 chars', { phone: '1'.repeat(41) }, 'leads_phone_length'],
    ['empty message', { message: '' }, 'leads_message_length'],
    ['message over 5000 chars', { message: 'x'.repeat(5001) }, 'leads_message_length'],
    ['page not a path', { page: 'home' }, 'leads_page_format'],
    ['empty page', { page: '' }, 'leads_page_format'],
    ['page over 200 chars', { page: `/${'p'.repeat(200)}` }, 'leads_page_format'],
  ])('refuses a contact lead with %s', async (_label, change, constraint) => {
    const err = await errorOf(insertLead({ ...goodLead, ...change }));
    expect(err.code).toBe('23514');
    expect(err.message).toContain(constraint);
  });

  it('refuses a contact lead with a missing field', async () => {
    const { message: _omit, ...noMessage } = goodLead;
    expect((await errorOf(insertLead(noMessage))).code).toBe('23502');
  });

  it('accepts the longest allowed values and any phone format on the contact form', async () => {
    await insertLead({
      ...goodLead,
      first_name: 'a'.repeat(100),
      email: `${'a'.repeat(242)}@example.com`,
      phone: 'call me after 5pm',
      message: 'x'.repeat(5000),
      page: `/${'p'.repeat(199)}`,
    });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['phone under 10 chars', { phone: '408555010' }, 'discount_leads_phone_length'],
    ['phone over 40 chars', { phone: '1'.repeat(41) }, 'discount_leads_phone_length'],
    ['blank phone', { phone: ' '.repeat(12) }, 'discount_leads_phone_length'],
    ['bad email', { email: 'sam@' }, 'discount_leads_email_format'],
    ['page not a path', { page: 'https://evil.example/' }, 'discount_leads_page_format'],
  ])('refuses a discount sign-up with %s', async (_label, change, constraint) => {
    const err = await errorOf(insertLead({ ...goodDiscount, ...change }, 'discount_leads'));
    expect(err.code).toBe('23514');
    expect(err.message).toContain(constraint);
  });

  it('accepts a discount sign-up from any page path, and page "contact"', async () => {
    await insertLead({ ...goodDiscount, page: '/deep-cleaning/san-jose' }, 'discount_leads');
    await insertLead({ ...goodDiscount, page: 'contact' }, 'discount_leads');
  });
});
