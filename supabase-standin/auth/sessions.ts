/**
 * Sessions of the local Auth stand-in, kept as Supabase Auth keeps them: a row in auth.sessions
 * (its assurance level), the methods that raised it (auth.mfa_amr_claims) and a chain of refresh
 * tokens (auth.refresh_tokens). A refresh token works once: using it revokes it and issues its
 * successor; presenting a revoked one again is taken as theft and ends the whole session.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { signJwt } from '../jwt.js';
import type { LocalKeys } from '../localKeys.js';
import { AuthFailure } from './errors.js';
import { loadUserJson, type Db, type UserRow } from './users.js';

/** Supabase's default JWT expiry (Auth settings: "JWT expiry limit"). */
export const ACCESS_TOKEN_SECONDS = 3600;

export interface SessionRow {
  id: string;
  user_id: string;
  aal: 'aal1' | 'aal2' | 'aal3';
  factor_id: string | null;
}

export interface TokenContext {
  keys: LocalKeys;
  /** The issuer, `<origin>/auth/v1` as Supabase's. */
  issuer: string;
  accessTokenSeconds: number;
}

/** What the database stores of a refresh token: its digest, never the token. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

async function newRefreshToken(db: Db, session: SessionRow, parent: string | null): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await db.query('INSERT INTO auth.refresh_tokens (token, user_id, session_id, parent) VALUES ($1, $2, $3, $4)', [
    tokenDigest(token),
    session.user_id,
    session.id,
    parent,
  ]);
  return token;
}

/** The access token and the session response supabase-js saves (GoTrue's AccessTokenResponse). */
async function tokenResponse(db: Db, ctx: TokenContext, user: UserRow, session: SessionRow, refreshToken: string) {
  const amr = (
    await db.query<{ method: string; at: number }>(
      'SELECT authentication_method AS method, extract(epoch FROM updated_at)::bigint::int AS at FROM auth.mfa_amr_claims WHERE session_id = $1 ORDER BY updated_at DESC',
      [session.id],
    )
  ).rows.map((r) => ({ method: r.method, timestamp: r.at }));
  const accessToken = await signJwt(
    ctx.keys,
    {
      iss: ctx.issuer,
      sub: user.id,
      aud: 'authenticated',
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.raw_app_meta_data,
      user_metadata: user.raw_user_meta_data,
      role: 'authenticated',
      aal: session.aal,
      amr,
      session_id: session.id,
      is_anonymous: user.is_anonymous,
    },
    ctx.accessTokenSeconds,
  );
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: ctx.accessTokenSeconds,
    expires_at: Math.floor(Date.now() / 1000) + ctx.accessTokenSeconds,
    refresh_token: refreshToken,
    user: await loadUserJson(db, user),
  };
}

/** Records `method` (password, totp) as raising `sessionId` now. */
async function recordMethod(db: Db, sessionId: string, method: string): Promise<void> {
  await db.query(
    `INSERT INTO auth.mfa_amr_claims (session_id, authentication_method) VALUES ($1, $2)
     ON CONFLICT (session_id, authentication_method) DO UPDATE SET updated_at = now()`,
    [sessionId, method],
  );
}

/** A new aal1 session after a password sign-in. */
export async function startSession(db: PGlite, ctx: TokenContext, user: UserRow, client: { ip: string; userAgent: string | undefined }) {
  return db.transaction(async (tx) => {
    const session: SessionRow = { id: randomUUID(), user_id: user.id, aal: 'aal1', factor_id: null };
    await tx.query('INSERT INTO auth.sessions (id, user_id, aal, ip, user_agent) VALUES ($1, $2, $3, $4, $5)', [
      session.id,
      user.id,
      session.aal,
      client.ip,
      client.userAgent?.slice(0, 500) ?? null,
    ]);
    await recordMethod(tx, session.id, 'password');
    await tx.query('UPDATE auth.users SET last_sign_in_at = now(), updated_at = now() WHERE id = $1', [user.id]);
    const signedIn = { ...user, last_sign_in_at: new Date() };
    return tokenResponse(tx, ctx, signedIn, session, await newRefreshToken(tx, session, null));
  });
}

/** Raises `session` to aal2 after a verified code: its earlier refresh tokens are revoked, a new one issued. */
export async function raiseSession(tx: Db, ctx: TokenContext, user: UserRow, session: SessionRow, factorId: string) {
  const raised: SessionRow = { ...session, aal: 'aal2', factor_id: factorId };
  await tx.query("UPDATE auth.sessions SET aal = 'aal2', factor_id = $2, updated_at = now() WHERE id = $1", [session.id, factorId]);
  await recordMethod(tx, session.id, 'totp');
  await tx.query('UPDATE auth.refresh_tokens SET revoked = true, updated_at = now() WHERE session_id = $1', [session.id]);
  return tokenResponse(tx, ctx, user, raised, await newRefreshToken(tx, raised, null));
}

const refreshFailure = (code: string, message: string) => new AuthFailure(400, code, `Invalid Refresh Token: ${message}`);

/** The refresh_token grant: the presented token is spent and its successor returned with a new access token. */
export async function refreshSession(db: PGlite, ctx: TokenContext, refreshToken: string) {
  const outcome = await db.transaction(async (tx) => {
    const row = (
      await tx.query<{ id: string; revoked: boolean; token: string; session_id: string }>(
        'SELECT id, revoked, token, session_id FROM auth.refresh_tokens WHERE token = $1 FOR UPDATE',
        [tokenDigest(refreshToken)],
      )
    ).rows[0];
    if (!row) return refreshFailure('refresh_token_not_found', 'Refresh Token Not Found');
    const session = (await tx.query<SessionRow>('SELECT id, user_id, aal, factor_id FROM auth.sessions WHERE id = $1', [row.session_id])).rows[0];
    if (!session) return refreshFailure('session_not_found', 'No Valid Session Found');
    if (row.revoked) {
      // A spent token presented again: someone else may hold the chain. End the session (committed).
      await tx.query('DELETE FROM auth.sessions WHERE id = $1', [session.id]);
      return refreshFailure('refresh_token_already_used', 'Already Used');
    }
    const user = (await tx.query<UserRow>('SELECT * FROM auth.users WHERE id = $1 AND deleted_at IS NULL', [session.user_id])).rows[0];
    if (!user) return refreshFailure('session_not_found', 'No Valid Session Found');
    if (user.banned_until && user.banned_until.getTime() > Date.now()) return refreshFailure('user_banned', 'User Banned');
    await tx.query('UPDATE auth.refresh_tokens SET revoked = true, updated_at = now() WHERE id = $1', [row.id]);
    await tx.query('UPDATE auth.sessions SET refreshed_at = now(), updated_at = now() WHERE id = $1', [session.id]);
    return tokenResponse(tx, ctx, user, session, await newRefreshToken(tx, session, row.token));
  });
  if (outcome instanceof AuthFailure) throw outcome;
  return outcome;
}

/** Deletes a factor; the sessions it had raised drop back to aal1, as GoTrue downgrades them. */
export async function removeFactor(db: PGlite, factorId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const raised = (
      await tx.query<{ id: string }>("UPDATE auth.sessions SET aal = 'aal1', factor_id = NULL, updated_at = now() WHERE factor_id = $1 RETURNING id", [factorId])
    ).rows.map((r) => r.id);
    if (raised.length) await tx.query("DELETE FROM auth.mfa_amr_claims WHERE session_id = ANY($1::uuid[]) AND authentication_method = 'totp'", [raised]);
    await tx.query('DELETE FROM auth.mfa_factors WHERE id = $1', [factorId]);
  });
}
