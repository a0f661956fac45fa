/**
 * The lead inbox's database on PGlite with the real migrations, and the five callers of the
 * inbox tests: each statement runs the way the REST stand-in (and PostgREST) runs a request, in a
 * transaction with SET LOCAL ROLE and the JWT's claims in request.jwt.claims.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { applyMigrations, openDatabase } from '../../supabase-standin/database.js';

export type Who = 'anon' | 'non-staff' | 'staff@aal1' | 'staff@aal2' | 'service_role';
export const CALLERS: readonly Who[] = ['anon', 'non-staff', 'staff@aal1', 'staff@aal2', 'service_role'];

export const STAFF = { id: '5a1f0000-0000-4000-8000-000000000001', email: 'owner@example.com' } as const;
export const NON_STAFF = { id: '5a1f0000-0000-4000-8000-000000000002', email: 'visitor@example.com' } as const;

/** Each signed-in caller's open session (a row of auth.sessions, which the staff check requires). */
export const SESSIONS = {
  'non-staff': { id: '5e550000-0000-4000-8000-000000000001', user: NON_STAFF, aal: 'aal2' },
  'staff@aal1': { id: '5e550000-0000-4000-8000-000000000002', user: STAFF, aal: 'aal1' },
  'staff@aal2': { id: '5e550000-0000-4000-8000-000000000003', user: STAFF, aal: 'aal2' },
} as const;

/** The claims Supabase Auth puts in a JWT (the fields the database reads). */
function claimsOf(who: Who): { role: string; claims: Record<string, unknown> } {
  const user = (session: (typeof SESSIONS)[keyof typeof SESSIONS]) => ({
    role: 'authenticated',
    claims: { sub: session.user.id, email: session.user.email, role: 'authenticated', aud: 'authenticated', aal: session.aal, session_id: session.id, is_anonymous: false },
  });
  switch (who) {
    case 'anon':
      return { role: 'anon', claims: { role: 'anon' } };
    case 'non-staff':
    case 'staff@aal1':
    case 'staff@aal2':
      return user(SESSIONS[who]);
    case 'service_role':
      return { role: 'service_role', claims: { role: 'service_role' } };
  }
}

/** A new in-memory database with every migration, the two users and their sessions, and STAFF on the staff list. */
export async function openInboxDb(): Promise<PGlite> {
  const db = await openDatabase(undefined);
  await applyMigrations(db);
  for (const u of [STAFF, NON_STAFF]) await db.query('INSERT INTO auth.users (id, email) VALUES ($1, $2)', [u.id, u.email]);
  for (const s of Object.values(SESSIONS)) await db.query('INSERT INTO auth.sessions (id, user_id, aal) VALUES ($1, $2, $3)', [s.id, s.user.id, s.aal]);
  await db.query('INSERT INTO private.staff (user_id, email) VALUES ($1, $2)', [STAFF.id, STAFF.email]);
  return db;
}

export interface AsOptions {
  /** Keep what fn did (default: roll back, so each check starts from the same rows). */
  commit?: boolean;
  /** Request headers as PostgREST passes them (the visitor's address for the rate limits). */
  headers?: Record<string, string>;
}

/** Runs fn as `who`, the way the REST stand-in runs a request. */
export async function as<T>(db: PGlite, who: Who, fn: (tx: Transaction) => Promise<T>, options: AsOptions = {}): Promise<T> {
  const { role, claims } = claimsOf(who);
  let result: T | undefined;
  let error: unknown;
  await db
    .transaction(async (tx) => {
      await tx.exec(`SET LOCAL ROLE ${role}`);
      await tx.query(`SELECT set_config('request.jwt.claims', $1, true), set_config('request.headers', $2, true)`, [
        JSON.stringify(claims),
        JSON.stringify(options.headers ?? {}),
      ]);
      try {
        result = await fn(tx);
      } catch (err) {
        error = err;
      }
      if (error !== undefined || !options.commit) await tx.rollback();
    })
    .catch((err: unknown) => {
      error ??= err;
    });
  if (error !== undefined) throw error;
  return result as T;
}

/** The error a statement was refused with; fails the test if it was not refused. */
export async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error('expected the statement to be refused');
}

export const QUOTE = {
  first_name: 'Maria',
  last_name: 'Lopez',
  email: 'maria.lopez@example.com',
  phone: '(408) 555-0199',
  message: 'Deep clean for a 3 bedroom house in San Jose, please.',
  page: 'contact',
} as const;

export const DISCOUNT = { email: 'sam.chen@example.com', phone: '4085550100', page: '/deep-cleaning' } as const;

/** Inserts a row as the database owner (who may set created_at etc.); returns its id. */
export async function insertAsOwner(db: PGlite | Transaction, table: 'leads' | 'discount_leads', row: Record<string, unknown>): Promise<string> {
  const cols = Object.keys(row);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO public.${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    Object.values(row),
  );
  return rows[0]!.id;
}

/** INSERT ... VALUES for `row`, as SQL text and parameters. */
export function insertSql(table: string, row: Record<string, unknown>): [string, unknown[]] {
  const cols = Object.keys(row);
  return [`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row)];
}
