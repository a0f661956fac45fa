/**
 * The local stand-in answers bad input as Supabase does: a 4xx before any SQL is built, never a
 * 5xx, a crash or a silently altered row. Plain HTTP (and supabase-js where it sends the request
 * as the site would) against createLocalBackend + startServer on 127.0.0.1:
 * - concurrent wrong passwords for one email: the 5-failure lock holds (at most 5 are checked);
 * - NUL characters in REST query strings and bodies, and in Auth bodies;
 * - JSON nested deeper than 100 levels in REST, RPC and Auth bodies;
 * - bodies that are not valid UTF-8, or hold a lone surrogate escape: refused, nothing stored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../supabase-standin/backend';
import { startServer, type RunningServer } from '../../serve/server';
import { createNodeClient } from '../../staff/supabaseNode.js';

interface Stack {
  backend: LocalBackend;
  server: RunningServer;
  logs: string[];
}

/** The `npm start` backend in memory, on 127.0.0.1, with a throw-away function or two for /rpc. */
function useStack(): Stack {
  const stack = { logs: [] } as unknown as Stack;
  let dir = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bad-input-'));
    stack.backend = await createLocalBackend({ dataDir: undefined, env: {}, log: (m) => stack.logs.push(m) });
    await stack.backend.db.exec(`
      create function public.echo_json(x jsonb) returns jsonb language sql as $$ select x $$;
      create function public.echo_text(t text) returns text language sql as $$ select t $$;
      create table public.kept (id int primary key, note text);
      grant select, insert, update on public.kept to anon;`);
    stack.server = await startServer({ distDir: dir, handlers: [(req, res) => stack.backend.handle(req, res)] });
  });
  afterAll(async () => {
    await stack.server?.close();
    await stack.backend?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    // Every test is a new visitor for the leads' per-client limit.
    await stack.backend?.db.exec('DELETE FROM private.rate_events');
  });
  return stack;
}

const stack = useStack();

const anon = () => stack.backend.keys.anonKey;
const service = () => stack.backend.keys.serviceRoleKey;
const serviceClient = (): SupabaseClient => createNodeClient(stack.server.url, service());
const anonClient = (): SupabaseClient => createNodeClient(stack.server.url, anon());

/** A request to /rest/v1/<path> with the anon key (or `key`) and, for a body, JSON's content type. */
function rest(path: string, init: { method?: string; body?: BodyInit; key?: string; headers?: Record<string, string> } = {}) {
  const key = init.key ?? anon();
  return fetch(`${stack.server.url}/rest/v1/${path}`, {
    method: init.method ?? 'GET',
    headers: { apikey: key, Authorization: `Bearer ${key}`, ...(init.body !== undefined && { 'Content-Type': 'application/json' }), ...init.headers },
    ...(init.body !== undefined && { body: init.body }),
  });
}

/** The answer's status and body, which must be PostgREST's error shape. */
async function restError(res: Response): Promise<{ status: number; code: string }> {
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message']);
  return { status: res.status, code: String(body.code) };
}

/** JSON text of arrays nested `levels` deep: [[[...]]]. */
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

let counter = 0;
const uniqueEmail = () => `visitor${++counter}-${Date.now()}@example.com`;

/** A contact lead as the form sends it, as JSON text with `firstName` spliced in unescaped. */
const leadJson = (email: string, firstName = '"Ada"') =>
  `{"first_name":${firstName},"last_name":"Lovelace","email":"${email}","phone":"(408) 555-0199","message":"Deep clean, please.","page":"contact"}`;

async function storedLeads(email: string): Promise<number> {
  const { data, error } = await serviceClient().from('leads').select('id').eq('email', email);
  expect(error).toBeNull();
  return data!.length;
}

let accounts = 0;
/** A confirmed account made with the admin API, as `npm run staff -- add` makes one. */
async function newAccount(password = 'correct horse battery staple') {
  const email = `staff${++accounts}@example.com`;
  const { data, error } = await serviceClient().auth.admin.createUser({ email, password, email_confirm: true });
  expect(error).toBeNull();
  return { email, password, id: data.user!.id };
}

function signIn(email: string, password: string) {
  return fetch(`${stack.server.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: anon(), 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
    body: JSON.stringify({ email, password }),
  });
}

/** A request to /auth/v1/admin/... with the service role key, answered in the 2024 error shape. */
function admin(path: string, method: string, body: BodyInit) {
  return fetch(`${stack.server.url}/auth/v1/admin/${path}`, {
    method,
    headers: { apikey: service(), Authorization: `Bearer ${service()}`, 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
    body,
  });
}

async function usersNamed(email: string): Promise<number> {
  return (await stack.backend.db.query<{ n: number }>('SELECT count(*)::int AS n FROM auth.users WHERE email = $1', [email])).rows[0]!.n;
}

describe('password sign-in under concurrent guessing', () => {
  it('of 20 concurrent wrong passwords for one email at most 5 are checked, the others get 429, then the right one is locked out', async () => {
    const account = await newAccount();
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(account.email, `guess ${i}`).then((r) => r.status)));
    expect([statuses.filter((s) => s === 400).length, statuses.filter((s) => s === 429).length]).toEqual([5, 15]);
    const locked = await signIn(account.email, account.password);
    expect(locked.status).toBe(429);
    expect(await locked.json()).toMatchObject({ code: 'over_request_rate_limit' });
  });
});

describe('NUL characters', () => {
  it('a NUL in a name or a value of a REST query string is a 400 before any SQL', async () => {
    const cases: Array<[string, Parameters<typeof rest>[1]]> = [
      ['leads?select=a%00b:email', {}], // the alias: SQL text, not a parameter
      ['leads?select=email&order=email%00.desc', { key: service() }],
      ['leads?select=email&email=eq.a%00b', { key: service() }],
      ['leads?select=email&or=(email.eq.a%00b,email.is.null)', { key: service() }],
      ['leads?select=email&email=in.(a,b%00)', { key: service() }],
      ['kept?columns=id,note%00', { method: 'POST', body: '{"id":1,"note":"x"}' }],
      ['kept?on_conflict=id%00', { method: 'POST', body: '{"id":1,"note":"x"}', headers: { Prefer: 'resolution=merge-duplicates' } }],
      ['kept?id=eq.1%00', { method: 'PATCH', body: '{"note":"y"}' }],
      ['rpc/echo_text?t=a%00b', {}],
      ['rpc/echo_text?t%00=a', {}],
    ];
    for (const [path, init] of cases) {
      expect(await restError(await rest(path, init)), path).toEqual({ status: 400, code: '22021' });
    }
    expect(stack.logs.filter((l) => l.includes('error'))).toEqual([]);
  });

  it('a NUL in a REST or RPC body, in a value or a name, is a 400 and nothing is stored', async () => {
    const email = uniqueEmail();
    expect(await restError(await rest('leads', { method: 'POST', body: leadJson(email, '"A\\u0000da"') }))).toEqual({ status: 400, code: '22P05' });
    expect(await restError(await rest('kept', { method: 'POST', body: '{"id":7,"note\\u0000":"x"}' }))).toEqual({ status: 400, code: '22P05' });
    expect(await restError(await rest('rpc/echo_text', { method: 'POST', body: '{"t\\u0000":"x"}' }))).toEqual({ status: 400, code: '22P05' });
    expect(await restError(await rest('rpc/echo_json', { method: 'POST', body: '{"x":{"a":"\\u0000"}}' }))).toEqual({ status: 400, code: '22P05' });
    expect(await storedLeads(email)).toBe(0);
    expect((await stack.backend.db.query('SELECT 1 FROM public.kept WHERE id = 7')).rows).toEqual([]);
  });

  it('a NUL in an Auth request body is a 400 validation_failed, never a 500', async () => {
    const account = await newAccount();
    const signInNul = await anonClient().auth.signInWithPassword({ email: `${account.email}\u0000`, password: account.password });
    expect(signInNul.error).toMatchObject({ status: 400, code: 'validation_failed' });
    const passwordNul = await anonClient().auth.signInWithPassword({ email: account.email, password: `${account.password}\u0000` });
    expect(passwordNul.error).toMatchObject({ status: 400, code: 'validation_failed' });

    const users = serviceClient().auth.admin;
    const nulEmail = `new\u0000${uniqueEmail()}`;
    expect((await users.createUser({ email: nulEmail, password: 'long enough password', email_confirm: true })).error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((await users.createUser({ email: uniqueEmail(), password: 'long enough\u0000password' })).error).toMatchObject({ status: 400, code: 'validation_failed' });
    const metaEmail = uniqueEmail();
    expect((await users.createUser({ email: metaEmail, user_metadata: { name: 'A\u0000' } })).error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(await usersNamed(metaEmail)).toBe(0);
    expect((await users.updateUserById(account.id, { email: `x\u0000${account.email}` })).error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((await users.updateUserById(account.id, { app_metadata: { team: '\u0000' } })).error).toMatchObject({ status: 400, code: 'validation_failed' });

    // A signed-in user naming a factor.
    const { data } = await anonClient().auth.signInWithPassword(account);
    const asUser = createNodeClient(stack.server.url, anon(), { global: { headers: { Authorization: `Bearer ${data.session!.access_token}` } } });
    await asUser.auth.setSession({ access_token: data.session!.access_token, refresh_token: data.session!.refresh_token });
    const enrol = await asUser.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'phone\u0000' });
    expect(enrol.error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(stack.logs.filter((l) => l.includes('error'))).toEqual([]);
  });
});

describe('JSON nested without end', () => {
  it('REST and RPC bodies nested deeper than 100 levels are a 400; 100 levels are read', async () => {
    const email = uniqueEmail();
    expect(await restError(await rest('leads', { method: 'POST', body: leadJson(email).replace('"Deep clean, please."', nested(4500)) }))).toEqual({ status: 400, code: 'PGRST102' });
    expect(await restError(await rest('kept?id=eq.1', { method: 'PATCH', body: `{"note":${nested(4500)}}` }))).toEqual({ status: 400, code: 'PGRST102' });
    expect(await restError(await rest('rpc/echo_json', { method: 'POST', body: `{"x":${nested(4500)}}` }))).toEqual({ status: 400, code: 'PGRST102' });
    expect(await restError(await rest('rpc/echo_text', { method: 'POST', body: `{"t":${nested(4500)}}` }))).toEqual({ status: 400, code: 'PGRST102' });
    // The bound: the body's own object is level 1.
    expect(await restError(await rest('rpc/echo_json', { method: 'POST', body: `{"x":${nested(100)}}` }))).toEqual({ status: 400, code: 'PGRST102' });
    const deepest = await rest('rpc/echo_json', { method: 'POST', body: `{"x":${nested(99)}}` });
    expect(deepest.status).toBe(200);
    expect(await deepest.text()).toBe(nested(99));
    // Brackets inside strings do not count.
    const quoted = await rest('rpc/echo_text', { method: 'POST', body: JSON.stringify({ t: '['.repeat(500) }) });
    expect([quoted.status, await quoted.json()]).toEqual([200, '['.repeat(500)]);
    expect(await storedLeads(email)).toBe(0);
    expect(stack.logs.filter((l) => l.includes('error'))).toEqual([]);
  });

  it('Auth bodies nested deeper than 100 levels are a 400 bad_json', async () => {
    const email = uniqueEmail();
    const res = await admin('users', 'POST', `{"email":"${email}","user_metadata":{"a":${nested(4500)}}}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'bad_json' });
    const signInDeep = await fetch(`${stack.server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: anon(), 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
      body: `{"email":"${email}","password":"x","gotrue_meta_security":${nested(4500)}}`,
    });
    expect([signInDeep.status, ((await signInDeep.json()) as { code: string }).code]).toEqual([400, 'bad_json']);
    expect(await usersNamed(email)).toBe(0);
    expect(stack.logs.filter((l) => l.includes('error'))).toEqual([]);
  });
});

describe('bodies that are not UTF-8 text', () => {
  /** `json` with the bytes of `bad` in place of the first `@@`. */
  const withBytes = (json: string, bad: number[]) => {
    const [before, after] = json.split('@@') as [string, string];
    return new Uint8Array(Buffer.concat([Buffer.from(before), Buffer.from(bad), Buffer.from(after)]));
  };

  it('a REST body with invalid UTF-8 or a lone surrogate escape is a 400, and nothing is stored', async () => {
    const bodies: Array<[string, (email: string) => BodyInit]> = [
      ['a byte that is no UTF-8', (email) => withBytes(leadJson(email, '"A@@da"'), [0xff])],
      ['a truncated sequence', (email) => withBytes(leadJson(email, '"A@@"'), [0xe2, 0x82])],
      ['a surrogate encoded as UTF-8 (CESU-8)', (email) => withBytes(leadJson(email, '"A@@"'), [0xed, 0xa0, 0x80])],
      ['a lone high surrogate escape', (email) => leadJson(email, '"A\\ud800da"')],
      ['a lone low surrogate escape', (email) => leadJson(email, '"A\\udc00"')],
      ['a reversed pair', (email) => leadJson(email, '"A\\ude00\\ud83d"')],
    ];
    for (const [what, body] of bodies) {
      const email = uniqueEmail();
      expect(await restError(await rest('leads', { method: 'POST', body: body(email) })), what).toEqual({ status: 400, code: 'PGRST102' });
      expect(await storedLeads(email), what).toBe(0);
    }
    expect(await restError(await rest('rpc/echo_text', { method: 'POST', body: '{"t":"\\udfff"}' }))).toEqual({ status: 400, code: 'PGRST102' });
    // A valid pair, escaped or not, is a character like any other.
    const email = uniqueEmail();
    const pair = await rest('leads', { method: 'POST', body: leadJson(email, '"Ad\\ud83d\\ude00a 😀"') });
    expect(pair.status).toBe(201);
    const { data } = await serviceClient().from('leads').select('first_name').eq('email', email);
    expect(data).toEqual([{ first_name: 'Ad😀a 😀' }]);
  });

  it('an Auth body with invalid UTF-8 or a lone surrogate escape is a 400 bad_json, and no user is made', async () => {
    const email = uniqueEmail();
    const invalid = await admin('users', 'POST', withBytes(`{"email":"${email}","user_metadata":{"name":"A@@"}}`, [0xc3]));
    expect([invalid.status, ((await invalid.json()) as { code: string }).code]).toEqual([400, 'bad_json']);
    const lone = await admin('users', 'POST', `{"email":"${email}","user_metadata":{"name":"A\\ud800"}}`);
    expect([lone.status, ((await lone.json()) as { code: string }).code]).toEqual([400, 'bad_json']);
    expect(await usersNamed(email)).toBe(0);
  });
});
