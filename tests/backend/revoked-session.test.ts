/**
 * Signed out means out (issue 26): a staff session that ended (sign-out of any scope, the owner's
 * `npm run staff -- reset` for a lost phone, a reused refresh token) reads and changes nothing
 * from that moment, although its access token stays valid for the rest of its hour. Through
 * supabase-js against the `npm start` stack, with the token kept as a thief would keep it.
 */
import { PassThrough, Readable } from 'node:stream';
import type { SupabaseClient } from '@supabase/supabase-js';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { staffCommand } from '../../staff/command.js';
import { QUOTE } from './inboxDb.js';
import { useLocalStack } from './stack.js';

const stack = useLocalStack({ telegramToken: '', telegramChatId: '' });
const PASSWORD = 'purple-otter-42-lamp';
let counter = 0;

const service = () => createNodeClient(stack.server.url, stack.backend.keys.serviceRoleKey);
/** A client that sends one access token, as a copied token would be used. */
const withToken = (token: string) => createNodeClient(stack.server.url, stack.backend.keys.anonKey, { global: { headers: { Authorization: `Bearer ${token}` } } });
const code = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

/** A staff member on the staff list with a factor, and one lead in the inbox. */
async function staffMember() {
  const email = `revoked${++counter}@example.com`;
  const { data, error } = await service().auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
  expect(error).toBeNull();
  expect((await service().rpc('staff_add', { p_user_id: data.user!.id, p_email: email })).error).toBeNull();
  expect((await service().from('leads').insert({ ...QUOTE, email: `lead${counter}@example.com` })).error).toBeNull();
  const first = createNodeClient(stack.server.url, stack.backend.keys.anonKey);
  expect((await first.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  const { data: factor } = await first.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
  expect((await first.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: code(factor!.totp.secret) })).error).toBeNull();
  return { email, secret: factor!.totp.secret, factorId: factor!.id, first };
}

/** Another device of the same member, signed in up to aal2 (the TOTP step may be reused: a new challenge). */
async function anotherSession(member: { email: string; secret: string; factorId: string }) {
  const client = createNodeClient(stack.server.url, stack.backend.keys.anonKey);
  expect((await client.auth.signInWithPassword({ email: member.email, password: PASSWORD })).error).toBeNull();
  const { data: challenge } = await client.auth.mfa.challenge({ factorId: member.factorId });
  // Each TOTP step is accepted once: the next step's code, which the window still takes.
  const next = new TOTP({ secret: Secret.fromBase32(member.secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + 30_000 });
  expect((await client.auth.mfa.verify({ factorId: member.factorId, challengeId: challenge!.id, code: next })).error).toBeNull();
  return client;
}

const tokenOf = async (client: SupabaseClient) => (await client.auth.getSession()).data.session!.access_token;

/** What a token can still do with the leads: read them, count them, change one. */
async function reach(token: string) {
  const supabase = withToken(token);
  const read = await supabase.from('leads').select('id, email');
  const count = await supabase.rpc('count_leads', {});
  const lead = (await service().from('leads').select('id').limit(1)).data![0]!.id as string;
  const change = await supabase.from('leads').update({ status: 'contacted' }).eq('id', lead).select('id');
  return { leads: read.data?.length ?? 0, counted: count.error ? null : count.data, changed: change.data?.length ?? 0, countError: count.error?.code };
}

describe('a staff session that ended', () => {
  it('reads leads while it is open (the baseline the other tests take away)', async () => {
    const member = await staffMember();
    const open = await reach(await tokenOf(member.first));
    expect(open.leads).toBeGreaterThan(0);
    expect(open.counted).toBeGreaterThan(0);
  });

  it('after a global sign-out, reads, counts and changes nothing with the token it had', async () => {
    const member = await staffMember();
    const token = await tokenOf(member.first);
    expect((await member.first.auth.signOut({ scope: 'global' })).error).toBeNull();
    expect(await reach(token)).toEqual({ leads: 0, counted: null, changed: 0, countError: '42501' });
  });

  it('after a local sign-out, that session is out while the member\'s other session still works', async () => {
    const member = await staffMember();
    const other = await anotherSession(member);
    const token = await tokenOf(member.first);
    expect((await member.first.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect(await reach(token)).toEqual({ leads: 0, counted: null, changed: 0, countError: '42501' });
    expect((await reach(await tokenOf(other))).leads).toBeGreaterThan(0);
  });

  it('after the owner runs npm run staff -- reset (a lost phone), every session of that member is out at once', async () => {
    const member = await staffMember();
    const other = await anotherSession(member);
    const tokens = [await tokenOf(member.first), await tokenOf(other)];
    const out = new PassThrough();
    const env = { SUPABASE_URL: stack.server.url, SUPABASE_SERVICE_ROLE_KEY: stack.backend.keys.serviceRoleKey };
    const code = await staffCommand(['reset', member.email], { stdin: Readable.from([`new-${PASSWORD}\nnew-${PASSWORD}\n`]), stdout: out, stderr: out, env, root: stack.dir });
    expect(code).toBe(0);
    for (const token of tokens) expect(await reach(token)).toEqual({ leads: 0, counted: null, changed: 0, countError: '42501' });
  });

  it('after its refresh token is used twice (a copy in other hands), the session is revoked and its token reads nothing', async () => {
    const member = await staffMember();
    const { session } = (await member.first.auth.getSession()).data;
    const token = session!.access_token;
    const refresher = createNodeClient(stack.server.url, stack.backend.keys.anonKey);
    expect((await refresher.auth.refreshSession({ refresh_token: session!.refresh_token })).error).toBeNull();
    const reused = await createNodeClient(stack.server.url, stack.backend.keys.anonKey).auth.refreshSession({ refresh_token: session!.refresh_token });
    expect(reused.error).not.toBeNull();
    expect(await reach(token)).toEqual({ leads: 0, counted: null, changed: 0, countError: '42501' });
  });
});
