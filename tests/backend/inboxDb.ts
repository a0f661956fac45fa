/**
 * The lead inbox's database with the real migrations, and the five callers of the inbox tests:
 * each statement runs the way the REST stand-in (and PostgREST) runs a request, in a transaction
 * with SET LOCAL ROLE and the JWT's claims in request.jwt.claims.
 *
 * Two backends: PGlite (the stand-in's database, the default) and a real PostgreSQL prepared as
 * Supabase prepares a project's database (tests/helpers/supabasePostgres.ts), where the migrations
 * run as the non-superuser postgres like `supabase db push`. INBOX_DB=postgres picks the latter
 * (vitest's `postgres` project runs the role matrix so).
 */
import type { PGlite } from '@electric-sql/pglite';
import { applyMigrations, openDatabase } from '../../supabase-standin/database.js';
import { startSupabasePostgres } from '../helpers/supabasePostgres.js';

export type Backend = 'pglite' | 'postgres';

/** The backend of this test run: INBOX_DB=postgres, or PGlite. */
export function inboxBackend(): Backend {
  return process.env['INBOX_DB'] === 'postgres' ? 'postgres' : 'pglite';
}

/** What the inbox tests use of a database: PGlite's interface, which the PostgreSQL session mirrors. */
export interface InboxTx {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
  rollback(): Promise<void>;
}
export interface InboxDb extends Omit<InboxTx, 'rollback'> {
  transaction<T>(fn: (tx: InboxTx) => Promise<T>): Promise<T | undefined>;
  close(): Promise<void>;
}

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
  await seed(db);
  return db;
}

/**
 * The same on either backend. On PostgreSQL: a new cluster, the migrations applied as postgres,
 * the rows seeded as postgres (who, as on Supabase, may write auth.users and owns the project's
 * tables); close() stops the cluster.
 */
export async function openInboxDbOn(backend: Backend): Promise<InboxDb> {
  if (backend === 'pglite') return openInboxDb();
  const server = await startSupabasePostgres();
  try {
    await server.applyMigrations();
    const session = await server.session('postgres');
    await seed(session);
    return {
      ...session,
      close: async () => {
        await session.close().catch(() => {});
        await server.stop();
      },
    };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

async function seed(db: InboxDb): Promise<void> {
  for (const u of [STAFF, NON_STAFF]) await db.query('INSERT INTO auth.users (id, email) VALUES ($1, $2)', [u.id, u.email]);
  for (const s of Object.values(SESSIONS)) await db.query('INSERT INTO auth.sessions (id, user_id, aal) VALUES ($1, $2, $3)', [s.id, s.user.id, s.aal]);
  await db.query('INSERT INTO private.staff (user_id, email) VALUES ($1, $2)', [STAFF.id, STAFF.email]);
}

export interface AsOptions {
  /** Keep what fn did (default: roll back, so each check starts from the same rows). */
  commit?: boolean;
  /** Request headers as PostgREST passes them (the visitor's address for the rate limits). */
  headers?: Record<string, string>;
}

/** Runs fn as `who`, the way the REST stand-in runs a request. */
export async function as<T>(db: InboxDb, who: Who, fn: (tx: InboxTx) => Promise<T>, options: AsOptions = {}): Promise<T> {
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
export async function insertAsOwner(db: InboxDb | InboxTx, table: 'leads' | 'discount_leads', row: Record<string, unknown>): Promise<string> {
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
