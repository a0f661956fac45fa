/**
 * Users and factors of the local Auth stand-in, read from PGlite and shaped as Supabase Auth's
 * JSON (GoTrue's models.User and models.Factor), which supabase-js hands to the application.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';

export type Db = Pick<PGlite | Transaction, 'query'>;

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  phone: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  banned_until: Date | null;
  is_anonymous: boolean;
}

export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: 'unverified' | 'verified';
  created_at: Date;
  updated_at: Date;
  secret: string | null;
  last_challenged_at: Date | null;
  last_totp_step: string | null;
}

const USER_COLUMNS = `id, aud, role, email, phone, encrypted_password, email_confirmed_at, last_sign_in_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at, banned_until, is_anonymous`;

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Emails are compared as Supabase Auth compares them: trimmed, case-insensitive. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  if (!UUID_PATTERN.test(id)) return undefined;
  return (await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM auth.users WHERE id = $1 AND deleted_at IS NULL`, [id])).rows[0];
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return (await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM auth.users WHERE lower(email) = $1 AND deleted_at IS NULL`, [normalizeEmail(email)])).rows[0];
}

export async function listUsers(db: Db, limit: number, offset: number): Promise<{ users: UserRow[]; total: number }> {
  const users = (await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM auth.users WHERE deleted_at IS NULL ORDER BY created_at, id LIMIT $1 OFFSET $2`, [limit, offset])).rows;
  const total = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM auth.users WHERE deleted_at IS NULL')).rows[0]!.n;
  return { users, total };
}

export async function factorsOf(db: Db, userIds: readonly string[]): Promise<Map<string, FactorRow[]>> {
  const byUser = new Map<string, FactorRow[]>();
  if (userIds.length === 0) return byUser;
  const { rows } = await db.query<FactorRow>('SELECT * FROM auth.mfa_factors WHERE user_id = ANY($1::uuid[]) ORDER BY created_at, id', [userIds]);
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
  return byUser;
}

export async function findOwnedFactor(db: Db, userId: string, factorId: string): Promise<FactorRow | undefined> {
  if (!UUID_PATTERN.test(factorId)) return undefined;
  return (await db.query<FactorRow>('SELECT * FROM auth.mfa_factors WHERE id = $1 AND user_id = $2', [factorId, userId])).rows[0];
}

/** A factor as Supabase Auth shows it (never its secret). */
export function factorJson(f: FactorRow) {
  return {
    id: f.id,
    ...(f.friendly_name ? { friendly_name: f.friendly_name } : {}),
    factor_type: f.factor_type,
    status: f.status,
    created_at: f.created_at,
    updated_at: f.updated_at,
    last_challenged_at: f.last_challenged_at,
  };
}

/** A user as Supabase Auth shows it (never the password hash); `factors` only when there are some. */
export function userJson(u: UserRow, factors: readonly FactorRow[] = []) {
  return {
    id: u.id,
    aud: u.aud ?? 'authenticated',
    role: u.role ?? 'authenticated',
    email: u.email ?? '',
    ...(u.email_confirmed_at ? { email_confirmed_at: u.email_confirmed_at } : {}),
    phone: u.phone ?? '',
    ...(u.email_confirmed_at ? { confirmed_at: u.email_confirmed_at } : {}),
    ...(u.last_sign_in_at ? { last_sign_in_at: u.last_sign_in_at } : {}),
    app_metadata: u.raw_app_meta_data,
    user_metadata: u.raw_user_meta_data,
    identities: [],
    ...(factors.length ? { factors: factors.map(factorJson) } : {}),
    created_at: u.created_at,
    updated_at: u.updated_at,
    ...(u.banned_until ? { banned_until: u.banned_until } : {}),
    is_anonymous: u.is_anonymous,
  };
}

/** The user with its factors, as JSON. */
export async function loadUserJson(db: Db, user: UserRow) {
  return userJson(user, (await factorsOf(db, [user.id])).get(user.id));
}
