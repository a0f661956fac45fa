/**
 * Access tokens of the local stand-in, as Supabase Auth issues them: HS256 JWTs signed with the
 * project's JWT secret (LocalKeys.jwtSecret). auth.ts signs them; the gateway verifies them.
 */
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { LocalKeys } from './localKeys.js';

/** A token's claims (sub, role, aal, email, exp, ...). */
export type Claims = JWTPayload & Record<string, unknown>;

/** Why a token was refused: PostgREST answers "JWT expired" apart from every other failure. */
export type JwtVerdict = { ok: true; claims: Claims } | { ok: false; reason: 'expired' | 'invalid'; message: string };

const ALGORITHM = 'HS256';

function secretOf(keys: LocalKeys): Uint8Array {
  return new TextEncoder().encode(keys.jwtSecret);
}

/** Signs `claims` (iat and exp are set here) for `expiresInSeconds`. */
export async function signJwt(keys: LocalKeys, claims: Record<string, unknown>, expiresInSeconds: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(secretOf(keys));
}

/** The verdict on `token`: its claims, or whether it expired or is otherwise unusable. */
export async function checkJwt(keys: LocalKeys, token: string): Promise<JwtVerdict> {
  try {
    const { payload } = await jwtVerify(token, secretOf(keys), { algorithms: [ALGORITHM] });
    return { ok: true, claims: payload as Claims };
  } catch (err) {
    if (err instanceof errors.JWTExpired) return { ok: false, reason: 'expired', message: 'JWT expired' };
    return { ok: false, reason: 'invalid', message: err instanceof Error ? err.message : 'invalid JWT' };
  }
}

/** The claims of a valid, unexpired token signed with the project's secret; undefined otherwise. */
export async function verifyJwt(keys: LocalKeys, token: string): Promise<Claims | undefined> {
  const verdict = await checkJwt(keys, token);
  return verdict.ok ? verdict.claims : undefined;
}
