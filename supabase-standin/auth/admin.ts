/**
 * Supabase Auth's admin API, for the service role only (`npm run staff`, via supabase-js
 * auth.admin.*): list, create, read, update and delete users, list and delete their factors.
 * As on Supabase, the secret key stands for a service_role token (the gateway swaps it for one),
 * and a JWT signed with the project's secret counts only if its role is service_role.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import { allKeysAccepted } from '../../supabase/functions/notify-telegram/apiKeys.js';
import { checkJwt } from '../jwt.js';
import type { LocalKeys } from '../localKeys.js';
import { AuthFailure, failures, reply } from './errors.js';
import { hashPassword } from './passwords.js';
import { bearerToken, jsonBody, optionalObject, optionalString } from './request.js';
import { removeFactor } from './sessions.js';
import { factorJson, factorsOf, findOwnedFactor, findUserByEmail, findUserById, listUsers, loadUserJson, normalizeEmail, userJson, UUID_PATTERN, type UserRow } from './users.js';

/** GoTrue's default minimum (Auth settings: "Minimum password length"). */
export const MIN_PASSWORD_LENGTH = 6;
const MAX_PER_PAGE = 1000;
const DEFAULT_PER_PAGE = 50;

interface AdminRequest {
  db: PGlite;
  keys: LocalKeys;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The path under /auth/v1. */
  path: string;
  method: string;
}

async function requireServiceRole(req: IncomingMessage, keys: LocalKeys): Promise<void> {
  const token = bearerToken(req);
  if (token === undefined) throw failures.noAuthorization();
  if (await allKeysAccepted([token], [keys.serviceRoleKey])) return;
  const verdict = await checkJwt(keys, token);
  if (!verdict.ok) throw failures.badJwt(verdict.reason === 'expired' ? 'token has invalid claims: token is expired' : 'token is malformed or its signature is invalid');
  if (verdict.claims.role !== 'service_role' && verdict.claims.role !== 'supabase_admin') throw failures.notAdmin();
}

/** An address GoTrue would take: one @, something on both sides, a dot in the domain, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (normalized.length > 255 || !EMAIL_PATTERN.test(normalized)) throw failures.validation('Unable to validate email address: invalid format');
  return normalized;
}

async function checkPassword(password: string): Promise<string> {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw new AuthFailure(422, 'weak_password', `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, { weak_password: { reasons: ['length'] } });
  }
  return hashPassword(password);
}

/** `ban_duration` as GoTrue takes it: "none" lifts a ban, "<n>h|m|s" bans for that long. */
function bannedUntil(duration: string): Date | null {
  if (duration === 'none') return null;
  const m = /^(\d{1,7})(h|m|s)$/.exec(duration);
  if (!m) throw failures.validation(`invalid format for ban duration: ${duration}`);
  const seconds = Number(m[1]) * (m[2] === 'h' ? 3600 : m[2] === 'm' ? 60 : 1);
  return new Date(Date.now() + seconds * 1000);
}

async function loadUser(db: PGlite, id: string): Promise<UserRow> {
  if (!UUID_PATTERN.test(id)) throw new AuthFailure(404, 'validation_failed', 'user_id must be an UUID');
  const user = await findUserById(db, id);
  if (!user) throw failures.userNotFound();
  return user;
}

async function list({ db, res, url }: AdminRequest) {
  const page = Math.max(1, Number.parseInt(url.searchParams.get('page') || '1', 10) || 1);
  const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Number.parseInt(url.searchParams.get('per_page') || String(DEFAULT_PER_PAGE), 10) || DEFAULT_PER_PAGE));
  const { users, total } = await listUsers(db, perPage, (page - 1) * perPage);
  const factors = await factorsOf(db, users.map((u) => u.id));
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const link = (p: number, rel: string) => `</admin/users?page=${p}&per_page=${perPage}>; rel="${rel}"`;
  reply(res, 200, { users: users.map((u) => userJson(u, factors.get(u.id))), aud: 'authenticated' }, {
    'X-Total-Count': String(total),
    Link: [...(page < lastPage ? [link(page + 1, 'next')] : []), link(lastPage, 'last')].join(', '),
  });
}

async function create({ db, req, res }: AdminRequest) {
  const body = await jsonBody(req);
  const emailInput = optionalString(body, 'email') ?? '';
  if (emailInput === '') throw failures.validation('Cannot create a user without either an email or phone');
  const email = checkEmail(emailInput);
  const password = optionalString(body, 'password');
  const hash = password === undefined ? null : await checkPassword(password);
  const appMetadata = { ...(optionalObject(body, 'app_metadata') ?? {}), provider: 'email', providers: ['email'] };
  const userMetadata = optionalObject(body, 'user_metadata') ?? {};
  const banDuration = optionalString(body, 'ban_duration');
  const confirmed = body.email_confirm === true;
  if (await findUserByEmail(db, email)) throw new AuthFailure(422, 'email_exists', 'A user with this email address has already been registered');
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO auth.users (email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, banned_until)
     VALUES ($1, $2, CASE WHEN $3 THEN now() END, $4, $5, $6) RETURNING id`,
    [email, hash, confirmed, appMetadata, userMetadata, banDuration === undefined ? null : bannedUntil(banDuration)],
  );
  reply(res, 200, await loadUserJson(db, await loadUser(db, rows[0]!.id)));
}

async function update({ db, req, res }: AdminRequest, user: UserRow) {
  const body = await jsonBody(req);
  const emailInput = optionalString(body, 'email');
  const password = optionalString(body, 'password');
  const appMetadata = optionalObject(body, 'app_metadata');
  const userMetadata = optionalObject(body, 'user_metadata');
  const banDuration = optionalString(body, 'ban_duration');
  const email = emailInput === undefined ? undefined : checkEmail(emailInput);
  if (email !== undefined && email !== normalizeEmail(user.email ?? '')) {
    if (await findUserByEmail(db, email)) throw new AuthFailure(422, 'email_exists', 'A user with this email address has already been registered');
  }
  const hash = password === undefined ? undefined : await checkPassword(password);
  await db.transaction(async (tx) => {
    if (email !== undefined) await tx.query('UPDATE auth.users SET email = $2 WHERE id = $1', [user.id, email]);
    if (body.email_confirm === true) await tx.query('UPDATE auth.users SET email_confirmed_at = coalesce(email_confirmed_at, now()) WHERE id = $1', [user.id]);
    if (hash !== undefined) {
      await tx.query('UPDATE auth.users SET encrypted_password = $2 WHERE id = $1', [user.id, hash]);
      // As GoTrue's password update: every session of the user ends.
      await tx.query('DELETE FROM auth.sessions WHERE user_id = $1', [user.id]);
    }
    // Metadata is merged key by key, as GoTrue does (a null value removes the key).
    if (appMetadata !== undefined) await tx.query('UPDATE auth.users SET raw_app_meta_data = jsonb_strip_nulls(raw_app_meta_data || $2::jsonb) WHERE id = $1', [user.id, appMetadata]);
    if (userMetadata !== undefined) await tx.query('UPDATE auth.users SET raw_user_meta_data = jsonb_strip_nulls(raw_user_meta_data || $2::jsonb) WHERE id = $1', [user.id, userMetadata]);
    if (banDuration !== undefined) {
      await tx.query('UPDATE auth.users SET banned_until = $2 WHERE id = $1', [user.id, bannedUntil(banDuration)]);
      if (banDuration !== 'none') await tx.query('DELETE FROM auth.sessions WHERE user_id = $1', [user.id]);
    }
    await tx.query('UPDATE auth.users SET updated_at = now() WHERE id = $1', [user.id]);
  });
  reply(res, 200, await loadUserJson(db, await loadUser(db, user.id)));
}

/** Routes /auth/v1/admin/...; refusals are thrown as AuthFailure. */
export async function handleAdmin(r: AdminRequest): Promise<void> {
  await requireServiceRole(r.req, r.keys);
  const { db, path, method, res } = r;
  if (path === '/admin/users') {
    if (method === 'GET') return list(r);
    if (method === 'POST') return create(r);
    throw failures.notFound();
  }
  const m = /^\/admin\/users\/([^/]+)(?:\/factors(?:\/([^/]+))?)?$/.exec(path);
  if (!m) throw failures.notFound();
  const user = await loadUser(db, m[1]!);
  const factorsPath = path.includes('/factors');
  if (factorsPath && m[2] === undefined && method === 'GET') {
    reply(res, 200, ((await factorsOf(db, [user.id])).get(user.id) ?? []).map(factorJson));
    return;
  }
  if (factorsPath && m[2] !== undefined && method === 'DELETE') {
    if (!UUID_PATTERN.test(m[2])) throw new AuthFailure(404, 'validation_failed', 'factor_id must be an UUID');
    const factor = await findOwnedFactor(db, user.id, m[2]);
    if (!factor) throw failures.factorNotFound();
    await removeFactor(db, factor.id);
    reply(res, 200, factorJson(factor));
    return;
  }
  if (factorsPath) throw failures.notFound();
  if (method === 'GET') {
    reply(res, 200, await loadUserJson(db, user));
    return;
  }
  if (method === 'PUT') return update(r, user);
  if (method === 'DELETE') {
    await r.req.resume();
    // Sessions, refresh tokens, factors and challenges go with the user (ON DELETE CASCADE).
    await db.query('DELETE FROM auth.users WHERE id = $1', [user.id]);
    reply(res, 200, {});
    return;
  }
  throw failures.notFound();
}
