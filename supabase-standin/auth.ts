/**
 * The local stand-in for Supabase Auth (GoTrue) under /auth/v1: what supabase-js calls for the
 * staff inbox and `npm run staff`, answered with Supabase's shapes, statuses and error codes.
 *   POST /token?grant_type=password|refresh_token   sign in; refresh (tokens single-use, rotated)
 *   GET /user, POST /logout?scope=global|local|others
 *   POST /factors (TOTP enrolment), POST /factors/{id}/challenge, POST /factors/{id}/verify (→ aal2),
 *   DELETE /factors/{id}
 *   POST /signup                                     refused: sign-ups are off, as in production
 *   /admin/users...                                  the service role's user management (auth/admin.ts)
 * State lives in PGlite's auth schema (authSchema.ts); limits on guessing are in auth/limits.ts.
 * Never logged: passwords, codes, tokens, emails.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import { allKeysAccepted } from '../supabase/functions/notify-telegram/apiKeys.js';
import { headerValue } from './http.js';
import { checkJwt } from './jwt.js';
import type { LocalKeys } from './localKeys.js';
import { handleAdmin } from './auth/admin.js';
import { AuthFailure, failures, reply, sendFailure } from './auth/errors.js';
import { createAuthLimits, type AuthLimits, type Clock } from './auth/limits.js';
import { verifyPassword } from './auth/passwords.js';
import { bearerToken, clientOf, jsonBody, optionalString } from './auth/request.js';
import { ACCESS_TOKEN_SECONDS, raiseSession, refreshSession, removeFactor, startSession, type SessionRow, type TokenContext } from './auth/sessions.js';
import { acceptedStep, newTotp } from './auth/totp.js';
import { findOwnedFactor, findUserById, findUserByEmail, loadUserJson, normalizeEmail, UUID_PATTERN, type FactorRow, type UserRow } from './auth/users.js';

export interface AuthServerOptions {
  /** Owner connection (the stand-in is the auth service, as GoTrue is on Supabase). */
  db: PGlite;
  keys: LocalKeys;
  log: (msg: string) => void;
  /** The clock the limits on guessing run by (tests move it by hand). Default: Date. */
  clock?: Clock | undefined;
}

export interface AuthServer {
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
}

/** GoTrue's defaults for MFA: challenges live 5 minutes, unverified factors too; 10 factors at most. */
const CHALLENGE_SECONDS = 300;
const UNVERIFIED_FACTOR_SECONDS = 300;
const MAX_FACTORS = 10;

/** A signed-in caller: the user and the session its access token belongs to. */
interface Caller {
  user: UserRow;
  session: SessionRow;
}

export function createAuthServer({ db, keys, log, clock }: AuthServerOptions): AuthServer {
  const limits: AuthLimits = createAuthLimits(clock);

  const tokenContext = (req: IncomingMessage): TokenContext => ({
    keys,
    issuer: `http://${headerValue(req, 'host') ?? 'localhost'}/auth/v1`,
    accessTokenSeconds: ACCESS_TOKEN_SECONDS,
  });

  /** GoTrue's requireAuthentication: a valid, unexpired user JWT whose user and session still exist. */
  async function authenticate(req: IncomingMessage): Promise<Caller> {
    const token = bearerToken(req);
    if (token === undefined) throw failures.noAuthorization();
    const verdict = await checkJwt(keys, token);
    if (!verdict.ok) throw failures.badJwt(verdict.reason === 'expired' ? 'token has invalid claims: token is expired' : 'token is malformed or its signature is invalid');
    const { sub, session_id: sessionId } = verdict.claims;
    if (typeof sub !== 'string' || sub === '') throw new AuthFailure(403, 'bad_jwt', 'invalid claim: missing sub claim');
    if (!UUID_PATTERN.test(sub)) throw new AuthFailure(400, 'bad_jwt', 'invalid claim: sub claim must be a UUID');
    const user = await findUserById(db, sub);
    if (!user) throw failures.userNotFoundFromJwt();
    if (typeof sessionId !== 'string' || !UUID_PATTERN.test(sessionId)) throw new AuthFailure(403, 'bad_jwt', 'invalid claim: session_id claim must be a UUID');
    const session = (await db.query<SessionRow>('SELECT id, user_id, aal, factor_id FROM auth.sessions WHERE id = $1 AND user_id = $2', [sessionId, user.id])).rows[0];
    if (!session) throw failures.sessionNotFound();
    if (user.banned_until && user.banned_until.getTime() > Date.now()) throw new AuthFailure(403, 'user_banned', 'User is banned');
    return { user, session };
  }

  /** Keys in the limit maps: digests, so the process memory holds no email address. */
  const accountKey = (email: string) => createHash('sha256').update(normalizeEmail(email)).digest('hex');

  async function passwordGrant(req: IncomingMessage, res: ServerResponse) {
    const body = await jsonBody(req);
    const email = optionalString(body, 'email') ?? '';
    const phone = optionalString(body, 'phone') ?? '';
    const password = optionalString(body, 'password') ?? '';
    if (email !== '' && phone !== '') throw failures.validation('Only an email address or phone number should be provided on login.');
    if (phone !== '') throw new AuthFailure(422, 'phone_provider_disabled', 'Phone logins are disabled');
    if (email === '') throw failures.validation('missing email or phone');
    const account = accountKey(email);
    // Counted as a failure before the slow hash, so concurrent guesses cannot all pass the lock.
    const attempt = limits.passwordFailures.reserve(account);
    if (!attempt) throw failures.rateLimited();
    const user = await findUserByEmail(db, email);
    const valid = await verifyPassword(password, user?.encrypted_password);
    if (!user || !valid) throw failures.invalidCredentials();
    attempt.cancel();
    if (user.banned_until && user.banned_until.getTime() > Date.now()) throw new AuthFailure(400, 'user_banned', 'User is banned');
    if (!user.email_confirmed_at) throw new AuthFailure(400, 'email_not_confirmed', 'Email not confirmed');
    limits.passwordFailures.clear(account);
    reply(res, 200, await startSession(db, tokenContext(req), user, clientOf(req)));
  }

  async function token(req: IncomingMessage, res: ServerResponse, url: URL) {
    const grant = url.searchParams.get('grant_type');
    if (grant !== 'password' && grant !== 'refresh_token') throw new AuthFailure(400, 'invalid_credentials', 'unsupported_grant_type');
    if (!limits.token.take(clientOf(req).ip)) throw failures.rateLimited();
    if (grant === 'password') return passwordGrant(req, res);
    const refreshToken = optionalString(await jsonBody(req), 'refresh_token') ?? '';
    if (refreshToken === '') throw new AuthFailure(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    reply(res, 200, await refreshSession(db, tokenContext(req), refreshToken));
  }

  async function logout(req: IncomingMessage, res: ServerResponse, url: URL) {
    const scope = url.searchParams.get('scope') ?? 'global';
    if (!['', 'global', 'local', 'others'].includes(scope)) throw failures.validation(`Unsupported logout scope "${scope}"`);
    const { user, session } = await authenticate(req);
    if (scope === 'local') await db.query('DELETE FROM auth.sessions WHERE id = $1', [session.id]);
    else if (scope === 'others') await db.query('DELETE FROM auth.sessions WHERE user_id = $1 AND id <> $2', [user.id, session.id]);
    else await db.query('DELETE FROM auth.sessions WHERE user_id = $1', [user.id]);
    reply(res, 204, undefined);
  }

  async function enrol(req: IncomingMessage, res: ServerResponse) {
    const { user, session } = await authenticate(req);
    const body = await jsonBody(req);
    const factorType = optionalString(body, 'factor_type');
    const friendlyName = (optionalString(body, 'friendly_name') ?? '').trim();
    const issuer = optionalString(body, 'issuer') || (headerValue(req, 'host') ?? 'localhost');
    if (factorType === 'phone') throw new AuthFailure(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
    if (factorType === 'webauthn') throw new AuthFailure(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
    if (factorType !== 'totp') throw failures.validation('factor_type needs to be totp, phone, or webauthn');
    if (friendlyName.length > 200 || issuer.length > 200) throw failures.validation('friendly_name and issuer must be at most 200 characters');
    // As GoTrue: unverified factors expire, names are unique per user, a verified factor needs aal2 to add another.
    await db.query(`DELETE FROM auth.mfa_factors WHERE user_id = $1 AND status = 'unverified' AND created_at < now() - make_interval(secs => $2)`, [user.id, UNVERIFIED_FACTOR_SECONDS]);
    const factors = (await db.query<FactorRow>('SELECT * FROM auth.mfa_factors WHERE user_id = $1', [user.id])).rows;
    if (friendlyName !== '' && factors.some((f) => f.friendly_name === friendlyName)) {
      throw new AuthFailure(422, 'mfa_factor_name_conflict', `A factor with the friendly name "${friendlyName}" for this user already exists`);
    }
    if (factors.length >= MAX_FACTORS) throw new AuthFailure(422, 'too_many_enrolled_mfa_factors', 'Maximum number of verified factors reached, unenroll to continue');
    if (factors.some((f) => f.status === 'verified') && session.aal !== 'aal2') throw new AuthFailure(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
    const totp = await newTotp(issuer, user.email ?? '');
    const id = randomUUID();
    await db.query("INSERT INTO auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret) VALUES ($1, $2, $3, 'totp', 'unverified', $4)", [
      id,
      user.id,
      friendlyName === '' ? null : friendlyName,
      totp.secret,
    ]);
    reply(res, 200, { id, type: 'totp', friendly_name: friendlyName, totp: { qr_code: totp.qrCode, secret: totp.secret, uri: totp.uri } });
  }

  async function ownedFactor(caller: Caller, factorId: string): Promise<FactorRow> {
    if (!UUID_PATTERN.test(factorId)) throw new AuthFailure(404, 'validation_failed', 'factor_id must be an UUID');
    const factor = await findOwnedFactor(db, caller.user.id, factorId);
    if (!factor) throw failures.factorNotFound();
    return factor;
  }

  async function challenge(req: IncomingMessage, res: ServerResponse, factorId: string) {
    if (!limits.challenge.take(clientOf(req).ip)) throw failures.rateLimited();
    const factor = await ownedFactor(await authenticate(req), factorId);
    if (factor.factor_type !== 'totp') throw failures.validation('factor_type needs to be totp, phone, or webauthn');
    const id = randomUUID();
    // Challenges never verified are dropped once expired, so abandoned sign-ins leave nothing behind.
    await db.query('DELETE FROM auth.mfa_challenges WHERE factor_id = $1 AND created_at < now() - make_interval(secs => $2)', [factor.id, CHALLENGE_SECONDS]);
    const { rows } = await db.query<{ created_at: Date }>('INSERT INTO auth.mfa_challenges (id, factor_id, ip_address) VALUES ($1, $2, $3) RETURNING created_at', [
      id,
      factor.id,
      clientOf(req).ip,
    ]);
    await db.query('UPDATE auth.mfa_factors SET last_challenged_at = now() WHERE id = $1', [factor.id]);
    reply(res, 200, { id, type: 'totp', expires_at: Math.floor(rows[0]!.created_at.getTime() / 1000) + CHALLENGE_SECONDS });
  }

  async function verify(req: IncomingMessage, res: ServerResponse, factorId: string) {
    if (!limits.verify.take(clientOf(req).ip)) throw failures.rateLimited();
    const caller = await authenticate(req);
    const factor = await ownedFactor(caller, factorId);
    const body = await jsonBody(req);
    const challengeId = optionalString(body, 'challenge_id') ?? '';
    const code = (optionalString(body, 'code') ?? '').trim();
    if (code === '') throw failures.validation('Code needs to be non-empty');
    const found = UUID_PATTERN.test(challengeId)
      ? (
          await db.query<{ id: string; created_at: Date; same_ip: boolean }>(
            'SELECT id, created_at, ip_address = $3::inet AS same_ip FROM auth.mfa_challenges WHERE id = $1 AND factor_id = $2',
            [challengeId, factor.id, clientOf(req).ip],
          )
        ).rows[0]
      : undefined;
    if (!found) throw new AuthFailure(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
    if (!found.same_ip) throw new AuthFailure(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
    if (found.created_at.getTime() + CHALLENGE_SECONDS * 1000 < Date.now()) {
      await db.query('DELETE FROM auth.mfa_challenges WHERE id = $1', [found.id]);
      throw new AuthFailure(422, 'mfa_challenge_expired', `MFA challenge ${found.id} has expired, verify against another challenge or create a new challenge.`);
    }
    // Counted before it is judged, as passwords are (the claim below awaits the database).
    if (!limits.codeFailures.reserve(factor.id)) throw failures.rateLimited();
    const wrongCode = () => new AuthFailure(422, 'mfa_verification_failed', 'Invalid TOTP code entered');
    const step = acceptedStep(factor.secret ?? '', code, factor.last_totp_step === null ? null : BigInt(factor.last_totp_step));
    if (step === undefined) throw wrongCode();
    const outcome = await db.transaction(async (tx) => {
      // The step is claimed in the row itself, so two requests racing with one code cannot both pass.
      const claimed = await tx.query(
        `UPDATE auth.mfa_factors SET last_totp_step = $2, status = 'verified', updated_at = now()
         WHERE id = $1 AND (last_totp_step IS NULL OR last_totp_step < $2) RETURNING id`,
        [factor.id, step.toString()],
      );
      if (claimed.rows.length === 0) return undefined;
      await tx.query('DELETE FROM auth.mfa_challenges WHERE id = $1', [found.id]);
      // As GoTrue: the user's other, weaker sessions end, and abandoned enrolments go.
      await tx.query("DELETE FROM auth.sessions WHERE user_id = $1 AND id <> $2 AND aal = 'aal1'", [caller.user.id, caller.session.id]);
      await tx.query("DELETE FROM auth.mfa_factors WHERE user_id = $1 AND status = 'unverified' AND factor_type = 'totp' AND id <> $2", [caller.user.id, factor.id]);
      return raiseSession(tx, tokenContext(req), caller.user, caller.session, factor.id);
    });
    if (!outcome) throw wrongCode();
    limits.codeFailures.clear(factor.id);
    reply(res, 200, outcome);
  }

  async function unenrol(req: IncomingMessage, res: ServerResponse, factorId: string) {
    const caller = await authenticate(req);
    const factor = await ownedFactor(caller, factorId);
    if (factor.status === 'verified' && caller.session.aal !== 'aal2') throw new AuthFailure(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
    await removeFactor(db, factor.id);
    reply(res, 200, { id: factor.id });
  }

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.slice('/auth/v1'.length).replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      reply(res, 204, undefined, { 'Access-Control-Max-Age': '86400' });
      return;
    }
    // As Supabase's gateway: one of the project's keys before anything else.
    // (Only the apikey: the bearer token is Auth's to judge, with GoTrue's answers.)
    const apikey = headerValue(req, 'apikey')?.trim() ?? url.searchParams.get('apikey') ?? undefined;
    if (apikey === undefined) {
      req.resume();
      reply(res, 401, { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' });
      return;
    }
    if (!(await allKeysAccepted([apikey], [keys.anonKey, keys.serviceRoleKey]))) {
      req.resume();
      reply(res, 401, { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' });
      return;
    }
    const factorRoute = /^\/factors\/([^/]+)(\/challenge|\/verify)?$/.exec(path);
    if (method === 'POST' && path === '/token') return token(req, res, url);
    if (method === 'POST' && path === '/signup') throw new AuthFailure(422, 'signup_disabled', 'Signups not allowed for this instance');
    if (method === 'GET' && path === '/user') {
      const { user } = await authenticate(req);
      reply(res, 200, await loadUserJson(db, user));
      return;
    }
    if (method === 'POST' && path === '/logout') return logout(req, res, url);
    if (method === 'POST' && path === '/factors') return enrol(req, res);
    if (factorRoute && method === 'POST' && factorRoute[2] === '/challenge') return challenge(req, res, factorRoute[1]!);
    if (factorRoute && method === 'POST' && factorRoute[2] === '/verify') return verify(req, res, factorRoute[1]!);
    if (factorRoute && method === 'DELETE' && factorRoute[2] === undefined) return unenrol(req, res, factorRoute[1]!);
    if (method === 'GET' && path === '/health') {
      reply(res, 200, { version: 'local', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' });
      return;
    }
    if (method === 'GET' && path === '/settings') {
      reply(res, 200, { external: { email: true, phone: false }, disable_signup: true, mailer_autoconfirm: false, phone_autoconfirm: false, sms_provider: '', saml_enabled: false });
      return;
    }
    if (path === '/admin' || path.startsWith('/admin/')) return handleAdmin({ db, keys, req, res, url, path, method });
    throw failures.notFound();
  }

  return {
    async handle(req, res, url) {
      try {
        await route(req, res, url);
      } catch (err) {
        req.resume();
        if (res.headersSent) {
          res.end();
          return;
        }
        if (err instanceof AuthFailure) {
          sendFailure(req, res, err);
          return;
        }
        // Only the stack: messages from here never carry a request's secrets, and no body is logged.
        log(`Local Auth error on ${req.method ?? ''} ${url.pathname}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
        sendFailure(req, res, new AuthFailure(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information'));
      }
    },
  };
}

