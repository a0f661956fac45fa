/**
 * The local Supabase Auth stand-in (`npm start`, /auth/v1), driven only through the real
 * @supabase/supabase-js client: password sign-in, sign-ups refused, TOTP enrolment and
 * verification up to aal2, replayed and wrong codes, refresh-token rotation, sign-out, the limits
 * on guessing, and the REST gateway refusing an expired access token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Session, SupabaseClient } from '@supabase/supabase-js';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAuthServer } from '../../supabase-standin/auth';
import type { Clock } from '../../supabase-standin/auth/limits';
import { createLocalBackend, type LocalBackend } from '../../supabase-standin/backend';
import { signJwt } from '../../supabase-standin/jwt';
import { startServer, type RunningServer } from '../../serve/server';


interface Stack {
  backend: LocalBackend;
  server: RunningServer;
  logs: string[];
}

/**
 * The `npm start` backend in memory, served on 127.0.0.1. With `clock`, /auth/v1 is answered by an
 * Auth server whose limits run by that clock (still reached over HTTP, through supabase-js).
 */
function useStack(clock?: Clock): Stack {
  const stack = { logs: [] } as unknown as Stack;
  let dir = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'auth-standin-'));
    stack.backend = await createLocalBackend({ dataDir: undefined, env: {}, log: (m) => stack.logs.push(m) });
    const auth = clock && createAuthServer({ db: stack.backend.db, keys: stack.backend.keys, log: (m) => stack.logs.push(m), clock });
    stack.server = await startServer({
      distDir: dir,
      handlers: [
        async (req, res) => {
          const url = new URL(req.url ?? '/', 'http://localhost');
          if (!auth || !url.pathname.startsWith('/auth/v1/')) return stack.backend.handle(req, res);
          await auth.handle(req, res, url);
          return true;
        },
      ],
    });
  });
  afterAll(async () => {
    await stack.server?.close();
    await stack.backend?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return stack;
}

function client(stack: Stack, key = stack.backend.keys.anonKey, headers: Record<string, string> = {}): SupabaseClient {
  return createNodeClient(stack.server.url, key, { global: { headers } });
}

let counter = 0;
/** A confirmed account made through the admin API, as `npm run staff -- add` makes one. */
async function newAccount(stack: Stack, password = 'correct horse battery staple') {
  const email = `staff${++counter}@example.com`;
  const { data, error } = await client(stack, stack.backend.keys.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
  expect(error).toBeNull();
  return { email, password, id: data.user!.id };
}

function claims(session: Session): Record<string, unknown> {
  return JSON.parse(Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** The authenticator app: the code for now, or for the next 30-second step (still accepted, ±1 step). */
function code(secret: string, stepsAhead = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

/** A wrong code: a valid-looking one that is none of the three the window accepts. */
function wrongCode(secret: string): string {
  const valid = new Set([-1, 0, 1].map((k) => code(secret, k)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

/** Signs in and enrols a TOTP factor, verified with the current code: a client at aal2 and the secret. */
async function enrolled(stack: Stack) {
  const account = await newAccount(stack);
  const supabase = client(stack);
  expect((await supabase.auth.signInWithPassword(account)).error).toBeNull();
  const { data: factor, error } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
  expect(error).toBeNull();
  const secret = factor!.totp.secret;
  const usedCode = code(secret);
  const verified = await supabase.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: usedCode });
  expect(verified.error).toBeNull();
  return { account, supabase, factorId: factor!.id, secret, usedCode };
}

describe('the Auth stand-in as createLocalBackend (npm start) serves it', () => {
  const stack = useStack();

  it('answers /auth/v1 on the backend: sign-in and the user behind the token', async () => {
    const account = await newAccount(stack);
    const supabase = client(stack);
    expect((await supabase.auth.signInWithPassword(account)).error).toBeNull();
    expect((await supabase.auth.getUser()).data.user?.email).toBe(account.email);
  });
});

describe('local Auth stand-in through supabase-js', () => {
  // Each test is a new visitor: its limits start full (the clock jumps an hour); a test's own
  // requests see the clock stand still, so no refill ever depends on how fast the machine is.
  let now = Date.now();
  const stack = useStack({ now: () => now });
  beforeEach(() => {
    now += 60 * 60_000;
  });

  it('signs in with the right password and refuses a wrong one or an unknown email, as Supabase does', async () => {
    const account = await newAccount(stack);
    const supabase = client(stack);

    const wrong = await supabase.auth.signInWithPassword({ email: account.email, password: 'not the password' });
    expect(wrong.data.session).toBeNull();
    expect(wrong.error).toMatchObject({ name: 'AuthApiError', status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
    const unknown = await supabase.auth.signInWithPassword({ email: 'nobody@example.com', password: account.password });
    expect(unknown.error).toMatchObject({ status: 400, code: 'invalid_credentials' });

    const { data, error } = await supabase.auth.signInWithPassword({ email: account.email.toUpperCase(), password: account.password });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(account.email);
    expect(data.session?.expires_in).toBe(3600);
    const c = claims(data.session!);
    expect(c).toMatchObject({ sub: account.id, role: 'authenticated', aud: 'authenticated', aal: 'aal1', email: account.email, is_anonymous: false });
    expect(c.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
    expect(c.app_metadata).toMatchObject({ provider: 'email', providers: ['email'] });
    expect(typeof c.session_id).toBe('string');
    expect((c.exp as number) - (c.iat as number)).toBe(3600);

    const user = await supabase.auth.getUser();
    expect(user.error).toBeNull();
    expect(user.data.user?.id).toBe(account.id);
    expect(user.data.user?.last_sign_in_at).toBeTruthy();
  });

  it('refuses sign-ups (they are off, as docs/inbox.md tells the owner to set them in production)', async () => {
    const supabase = client(stack);
    const { data, error } = await supabase.auth.signUp({ email: 'visitor@example.com', password: 'a long enough password' });
    expect(data.user).toBeNull();
    expect(error).toMatchObject({ status: 422, code: 'signup_disabled' });
    const admin = client(stack, stack.backend.keys.serviceRoleKey);
    const { data: list } = await admin.auth.admin.listUsers();
    expect(list.users.map((u) => u.email)).not.toContain('visitor@example.com');
  });

  it('enrols a TOTP factor and raises the session to aal2 with a code from the secret', async () => {
    const account = await newAccount(stack);
    const supabase = client(stack);
    await supabase.auth.signInWithPassword(account);
    expect((await supabase.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });

    const { data: factor, error } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(error).toBeNull();
    expect(factor!.type).toBe('totp');
    expect(factor!.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg /);
    expect(factor!.totp.qr_code).not.toContain('#'); // would cut the data URL short in an <img>
    expect(factor!.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(factor!.totp.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(factor!.totp.secret);
    expect(decodeURIComponent(uri.pathname)).toContain(account.email);

    const { data: challenge, error: challengeError } = await supabase.auth.mfa.challenge({ factorId: factor!.id });
    expect(challengeError).toBeNull();
    const wrong = await supabase.auth.mfa.verify({ factorId: factor!.id, challengeId: challenge!.id, code: wrongCode(factor!.totp.secret) });
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    expect((await supabase.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');

    const { data: session, error: verifyError } = await supabase.auth.mfa.verify({ factorId: factor!.id, challengeId: challenge!.id, code: code(factor!.totp.secret) });
    expect(verifyError).toBeNull();
    const c = claims(session as unknown as Session);
    expect(c.aal).toBe('aal2');
    expect((c.amr as { method: string }[]).map((m) => m.method)).toEqual(['totp', 'password']);
    expect((await supabase.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    const factors = await supabase.auth.mfa.listFactors();
    expect(factors.data?.totp.map((f) => f.id)).toEqual([factor!.id]);

    // The next sign-in starts at aal1 and is told a second factor is due.
    const again = client(stack);
    await again.auth.signInWithPassword(account);
    expect((await again.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
  });

  it('never accepts the same code twice, and a challenge only once', async () => {
    const { supabase, factorId, secret, account, usedCode } = await enrolled(stack);
    // Signed in elsewhere (aal1), the code just used is refused; the next step's code is taken.
    const other = client(stack);
    await other.auth.signInWithPassword(account);
    const replay = await other.auth.mfa.challengeAndVerify({ factorId, code: usedCode });
    expect(replay.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    const { data: challenge } = await other.auth.mfa.challenge({ factorId });
    const next = await other.auth.mfa.verify({ factorId, challengeId: challenge!.id, code: code(secret, 1) });
    expect(next.error).toBeNull();
    expect((await other.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');
    const spent = await other.auth.mfa.verify({ factorId, challengeId: challenge!.id, code: code(secret, 1) });
    expect(spent.error).toMatchObject({ status: 422, code: 'mfa_factor_not_found' });
    // Adding a second factor needs aal2, which `supabase` has.
    expect((await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Backup' })).error).toBeNull();
  });

  it('refuses a code against an expired challenge (5 minutes, as Supabase)', async () => {
    const { account, factorId, secret } = await enrolled(stack);
    const supabase = client(stack);
    await supabase.auth.signInWithPassword(account);
    const { data: challenge } = await supabase.auth.mfa.challenge({ factorId });
    expect(challenge!.expires_at - Date.now() / 1000).toBeGreaterThan(290);
    await stack.backend.db.query("UPDATE auth.mfa_challenges SET created_at = now() - interval '301 seconds' WHERE id = $1", [challenge!.id]);
    const late = await supabase.auth.mfa.verify({ factorId, challengeId: challenge!.id, code: code(secret, 1) });
    expect(late.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });
  });

  it('removes a verified factor only at aal2, and the session drops back to aal1', async () => {
    const { account, supabase, factorId } = await enrolled(stack);
    const weak = client(stack);
    await weak.auth.signInWithPassword(account);
    expect((await weak.auth.mfa.unenroll({ factorId })).error).toMatchObject({ status: 422, code: 'insufficient_aal' });

    expect((await supabase.auth.mfa.unenroll({ factorId })).error).toBeNull();
    const { data } = await supabase.auth.refreshSession();
    expect(claims(data.session!).aal).toBe('aal1');
    expect((await supabase.auth.mfa.listFactors()).data?.all).toEqual([]);
  });

  it('refreshes with a refresh token once; a reused refresh token is refused and ends the session', async () => {
    const account = await newAccount(stack);
    const supabase = client(stack);
    const { data } = await supabase.auth.signInWithPassword(account);
    const first = data.session!;

    const refreshed = await supabase.auth.refreshSession({ refresh_token: first.refresh_token });
    expect(refreshed.error).toBeNull();
    const second = refreshed.data.session!;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(claims(second).session_id).toBe(claims(first).session_id);
    expect((await supabase.auth.getUser(second.access_token)).data.user?.id).toBe(account.id);

    const reused = await client(stack).auth.refreshSession({ refresh_token: first.refresh_token });
    expect(reused.data.session).toBeNull();
    expect(reused.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
    // Taken as a stolen token: the whole session is over, for its holder too.
    const after = await client(stack).auth.getUser(second.access_token);
    expect(after.data.user).toBeNull();
    expect(after.error?.name).toBe('AuthSessionMissingError');
    expect((await client(stack).auth.refreshSession({ refresh_token: second.refresh_token })).error).toMatchObject({ code: 'refresh_token_not_found' });
  });

  it('signs out: the access token and the refresh token stop working', async () => {
    const account = await newAccount(stack);
    const supabase = client(stack);
    const { data } = await supabase.auth.signInWithPassword(account);
    const session = data.session!;
    expect((await supabase.auth.signOut()).error).toBeNull();
    expect((await supabase.auth.getSession()).data.session).toBeNull();

    const user = await client(stack).auth.getUser(session.access_token);
    expect(user.error?.name).toBe('AuthSessionMissingError');
    expect((await client(stack).auth.refreshSession({ refresh_token: session.refresh_token })).error).toMatchObject({ status: 400 });
  });

  it('refuses an expired or forged access token, at Auth and at the REST gateway', async () => {
    const account = await newAccount(stack);
    const { data } = await client(stack).auth.signInWithPassword(account);
    const live = claims(data.session!);
    const { iat: _iat, exp: _exp, ...rest } = live;
    const expired = await signJwt(stack.backend.keys, rest, -60);

    const atAuth = await client(stack).auth.getUser(expired);
    expect(atAuth.error).toMatchObject({ status: 403, code: 'bad_jwt' });
    const forged = `${expired.split('.').slice(0, 2).join('.')}.${'A'.repeat(43)}`;
    expect((await client(stack).auth.getUser(forged)).error).toMatchObject({ status: 403, code: 'bad_jwt' });

    const rest401 = await client(stack, stack.backend.keys.anonKey, { Authorization: `Bearer ${expired}` }).from('leads').select('id');
    expect(rest401.status).toBe(401);
    expect(rest401.error).toMatchObject({ code: 'PGRST303', message: 'JWT expired' });
  });

  it('keeps the admin API to the service role and refuses requests without a project key', async () => {
    const anon = await client(stack).auth.admin.listUsers();
    expect(anon.error?.status).toBe(403);
    const account = await newAccount(stack);
    const { data } = await client(stack).auth.signInWithPassword(account);
    const asUser = await client(stack, stack.backend.keys.anonKey, { Authorization: `Bearer ${data.session!.access_token}` }).auth.admin.listUsers();
    expect(asUser.error).toMatchObject({ status: 403, code: 'not_admin' });

    const res = await fetch(`${stack.server.url}/auth/v1/token?grant_type=password`, { method: 'POST', body: JSON.stringify({ email: account.email, password: account.password }) });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'No API key found in request' });
    // The inbox may be served from another origin than the project (production): CORS as Supabase's.
    const preflight = await fetch(`${stack.server.url}/auth/v1/token?grant_type=password`, { method: 'OPTIONS', headers: { Origin: 'https://example.com', 'Access-Control-Request-Method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/apikey/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('slows down guessing: five wrong passwords lock that account for a while, not the others', async () => {
    const target = await newAccount(stack);
    const bystander = await newAccount(stack);
    for (let i = 0; i < 5; i++) {
      expect((await client(stack).auth.signInWithPassword({ email: target.email, password: `guess ${i}` })).error?.code).toBe('invalid_credentials');
    }
    const locked = await client(stack).auth.signInWithPassword(target);
    expect(locked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    expect((await client(stack).auth.signInWithPassword(bystander)).error).toBeNull();
  });

  it('slows down code guessing: five wrong codes lock the factor for a while', async () => {
    const { account, factorId, secret } = await enrolled(stack);
    const supabase = client(stack);
    await supabase.auth.signInWithPassword(account);
    for (let i = 0; i < 5; i++) {
      expect((await supabase.auth.mfa.challengeAndVerify({ factorId, code: wrongCode(secret) })).error?.code).toBe('mfa_verification_failed');
    }
    const locked = await supabase.auth.mfa.challengeAndVerify({ factorId, code: code(secret, 1) });
    expect(locked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });

  it('never logs a password, a code, a token or an email', () => {
    const text = stack.logs.join('\n');
    expect(text).not.toMatch(/@example\.com|correct horse|eyJ/);
  });
});

describe('limits on guessing, by a clock the test moves', () => {
  let now = Date.parse('2026-11-24T00:00:00Z');
  const stack = useStack({ now: () => now });

  it('refuses sign-ins from one address past a burst of 30 (Supabase: 150 per 5 minutes), until tokens refill', async () => {
    const account = await newAccount(stack);
    for (let i = 0; i < 30; i++) {
      const { error } = await client(stack).auth.signInWithPassword({ email: `guess${i}@example.com`, password: 'whatever it is' });
      expect(error?.code).toBe('invalid_credentials');
    }
    const refused = await client(stack).auth.signInWithPassword(account);
    expect(refused.error).toMatchObject({ status: 429, code: 'over_request_rate_limit', message: 'Request rate limit reached' });
    now += 2_000; // one token back (0.5 per second)
    expect((await client(stack).auth.signInWithPassword(account)).error).toBeNull();
    expect((await client(stack).auth.signInWithPassword(account)).error?.status).toBe(429);
  });

  it('lets a locked account try again once its oldest failure is 15 minutes old', async () => {
    now += 10 * 60_000; // a full bucket again
    const account = await newAccount(stack);
    for (let i = 0; i < 5; i++) await client(stack).auth.signInWithPassword({ email: account.email, password: `guess ${i}` });
    expect((await client(stack).auth.signInWithPassword(account)).error?.status).toBe(429);
    now += 14 * 60_000;
    expect((await client(stack).auth.signInWithPassword(account)).error?.status).toBe(429);
    now += 60_000 + 1;
    expect((await client(stack).auth.signInWithPassword(account)).error).toBeNull();
  });
});
