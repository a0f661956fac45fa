/**
 * The embedded local backend (`npm start` without SUPABASE_URL), driven by the real
 * @supabase/supabase-js client the site uses, on the `npm start` server at 127.0.0.1, with
 * notify-telegram pointed at a fake Telegram.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { printLeads } from '../../supabase-standin/leads';
import { createLocalBackend } from '../../supabase-standin/backend';
import { signJwt } from '../../supabase-standin/jwt';
import { loadLocalKeys } from '../../supabase-standin/localKeys';
import { LOCAL_ANON_KEY } from '../../src/lib/supabase';
import { useLocalStack } from '../backend/stack';

const logs: string[] = [];
// The preflights below stand for a page served from another origin than the stand-in's.
const stack = useLocalStack({ telegramToken: '42:local-test', telegramChatId: '-100', persistent: true, log: (m) => logs.push(m), allowedOrigins: ['http://example.com'] });
let supabase: SupabaseClient;


/** A supabase-js client as the site creates it, with another key or extra headers if given. */
function client(key = LOCAL_ANON_KEY, headers: Record<string, string> = {}): SupabaseClient {
  return createNodeClient(stack.server.url, key, { global: { headers } });
}

beforeAll(() => {
  // What the static server answers for a path the backend leaves alone.
  writeFileSync(join(stack.dir, 'dist', 'contact.html'), 'static file server');
  supabase = client();
});

const contactLead = {
  first_name: 'Maria',
  last_name: 'Lopez',
  email: 'maria@example.com',
  phone: '(408) 555-0199',
  message: 'Move-out clean, 2 bedrooms.',
  page: 'contact' as const,
};

/** What the contact form sends to notify-telegram for `lead` (src/lib/leads.ts). */
const notifyBody = (lead: typeof contactLead) => ({
  firstName: lead.first_name,
  lastName: lead.last_name,
  email: lead.email,
  phone: lead.phone,
  message: lead.message,
  page: lead.page,
});

async function count(table: 'leads' | 'discount_leads'): Promise<number> {
  return (await stack.backend.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM public.${table}`)).rows[0]!.n;
}

const withKey = (headers: Record<string, string> = {}) => ({ apikey: LOCAL_ANON_KEY, Authorization: `Bearer ${LOCAL_ANON_KEY}`, ...headers });

describe('local backend through supabase-js', () => {
  it('stores a contact form lead', async () => {
    const { error, status } = await supabase.from('leads').insert(contactLead);
    expect(error).toBeNull();
    expect(status).toBe(201);
    const { rows } = await stack.backend.db.query<{ email: string; page: string }>('SELECT email, page FROM public.leads');
    expect(rows).toEqual([{ email: 'maria@example.com', page: 'contact' }]);
    expect(logs.some((l) => l.includes('20251101000000_leads.sql'))).toBe(true);
  });

  it('stores a discount popup sign-up, and several rows in one call', async () => {
    const one = await supabase.from('discount_leads').insert({ email: 'sam@example.com', phone: '4085550100', page: '/' });
    expect(one.error).toBeNull();
    const many = await supabase.from('discount_leads').insert([
      { email: 'a@example.com', phone: '4085550101', page: '/deep-cleaning' },
      { email: 'b@example.com', phone: '4085550102', page: '/move-out-cleaning' },
    ]);
    expect(many.error).toBeNull();
    expect(await count('discount_leads')).toBe(3);
  });

  it('refuses an invalid lead with a PostgREST-style error and stores nothing', async () => {
    const { error, status } = await supabase.from('leads').insert({ ...contactLead, email: 'not-an-email' });
    expect(status).toBe(400);
    expect(error?.code).toBe('23514');
    expect(error?.message).toContain('leads_email_format');
    const short = await supabase.from('discount_leads').insert({ email: 'x@example.com', phone: '123', page: '/' });
    expect(short.error?.message).toContain('discount_leads_phone_length');
    expect(await count('leads')).toBe(1);
  });

  it('rejects unknown columns and a missing field', async () => {
    const unknown = await supabase.from('leads').insert({ ...contactLead, is_admin: true });
    expect(unknown.status).toBe(400);
    expect(unknown.error?.code).toBe('PGRST204');
    expect(unknown.error?.message).toContain("'is_admin'");
    const { message: _m, ...noMessage } = contactLead;
    const missing = await supabase.from('leads').insert(noMessage);
    expect(missing.error?.code).toBe('23502');
  });

  it('never gives the leads back to a visitor', async () => {
    // anon has no SELECT, UPDATE or DELETE grant: PostgREST's 401 for the anonymous role.
    const read = await supabase.from('leads').select('*');
    expect(read.error?.code).toBe('42501');
    expect(read.data).toBeNull();
    expect(read.status).toBe(401);

    const readBack = await supabase.from('discount_leads').insert({ email: 'c@example.com', phone: '4085550103', page: '/' }).select();
    expect(readBack.error?.code).toBe('42501');
    expect(readBack.status).toBe(401);

    const update = await supabase.from('leads').update({ phone: '0' }).eq('email', 'maria@example.com');
    expect([update.status, update.error?.code]).toEqual([401, '42501']);
    const del = await supabase.from('leads').delete().eq('email', 'maria@example.com');
    expect([del.status, del.error?.code]).toEqual([401, '42501']);

    const forged = await supabase.from('leads').insert({ ...contactLead, created_at: '2000-01-01T00:00:00Z' });
    expect(forged.error?.code).toBe('42501');
    const notified = await supabase.from('leads').insert({ ...contactLead, notified_at: '2000-01-01T00:00:00Z' });
    expect(notified.error?.code).toBe('42501');

    expect(await count('leads')).toBe(1);
  });
});

describe('the stand-in refuses what Supabase refuses', () => {
  it('a wrong key gets 401 and stores nothing', async () => {
    const before = await count('leads');
    const wrong = await client('totally-wrong-key').from('leads').insert(contactLead);
    expect(wrong.status).toBe(401);
    expect(wrong.error?.message).toBe('Invalid API key');
    const wrongBearer = await client(LOCAL_ANON_KEY, { Authorization: 'Bearer totally-wrong-key' }).from('leads').insert(contactLead);
    expect(wrongBearer.status).toBe(401);
    const wrongInUrl = await fetch(`${stack.server.url}/rest/v1/leads?apikey=totally-wrong-key`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(contactLead),
    });
    expect(wrongInUrl.status).toBe(401);
    expect(await count('leads')).toBe(before);
  });

  it('without a key: 401 for every method and path, before anything else', async () => {
    for (const [method, path] of [['GET', '/rest/v1/leads'], ['POST', '/rest/v1/leads'], ['DELETE', '/rest/v1/leads'], ['GET', '/rest/v1/_local_migrations']]) {
      const res = await fetch(stack.server.url + path, { method, ...(method === 'POST' && { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(contactLead) }) });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(((await res.json()) as { message: string }).message).toBe('No API key found in request');
    }
  });

  it.each<[string, string | undefined]>([
    ['text/plain; x=json', 'text/plain; x=json'],
    ['multipart/form-data; boundary=json', 'multipart/form-data; boundary=json'],
    ['no content type', undefined],
  ])('a body sent as %s gets 415 and stores nothing', async (_label, type) => {
    const before = await count('leads');
    const res = await fetch(`${stack.server.url}/rest/v1/leads`, {
      method: 'POST',
      headers: withKey(type === undefined ? {} : { 'Content-Type': type }),
      body: new TextEncoder().encode(JSON.stringify(contactLead)), // bytes: fetch adds no type of its own
    });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { code: string }).code).toBe('PGRST107');
    expect(await count('leads')).toBe(before);
  });

  it('takes application/json with a charset', async () => {
    const res = await fetch(`${stack.server.url}/rest/v1/discount_leads`, {
      method: 'POST',
      headers: withKey({ 'Content-Type': 'application/json; charset=utf-8' }),
      body: JSON.stringify({ email: 'charset@example.com', phone: '4085550109', page: '/' }),
    });
    expect(res.status).toBe(201);
  });

  it('a 1 MB array of leads is refused: 413, no row stored', async () => {
    const before = await count('discount_leads');
    // Just under the 1 MB the stand-in used to take (and store as 9,990 rows).
    const rows = Array.from({ length: 15_000 }, (_, i) => ({ email: `bulk${i}@example.com`, phone: '4085550100', page: '/' }));
    const body = JSON.stringify(rows);
    expect(body.length).toBeGreaterThan(900 * 1024);
    expect(body.length).toBeLessThan(1024 * 1024);
    const res = await fetch(`${stack.server.url}/rest/v1/discount_leads`, { method: 'POST', headers: withKey({ 'Content-Type': 'application/json' }), body });
    expect(res.status).toBe(413);
    expect(await count('discount_leads')).toBe(before);
  });

  it('an array within the size limit is refused whole by the per-client limit: 429, no row stored', async () => {
    const before = await count('discount_leads');
    const rows = Array.from({ length: 500 }, (_, i) => ({ email: `bulk${i}@example.com`, phone: '4085550100', page: '/' }));
    const { status, error } = await supabase.from('discount_leads').insert(rows);
    expect(status).toBe(429);
    expect(error?.code).toBe('PT429');
    expect(await count('discount_leads')).toBe(before);
  });

  it('a forged x-forwarded-for, x-real-ip or cf-connecting-ip does not escape the per-client limit', async () => {
    const forgeries: Array<Record<string, string>> = [
      { 'x-forwarded-for': '203.0.113.1' },
      { 'cf-connecting-ip': '203.0.113.2' },
      { 'x-real-ip': '203.0.113.3', 'x-forwarded-for': '203.0.113.4, 10.0.0.1' },
      { 'cf-connecting-ip': '203.0.113.5' },
    ];
    const statuses: number[] = [];
    for (const [i, headers] of forgeries.entries()) {
      const { status } = await client(LOCAL_ANON_KEY, headers).from('discount_leads').insert({ email: `forged${i}@example.com`, phone: '4085550100', page: '/' });
      statuses.push(status);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    const { rows } = await stack.backend.db.query<{ client: string }>('SELECT DISTINCT client FROM private.rate_events');
    expect(rows.map((r) => r.client)).toEqual([expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/)]);
  });

  it('a refused submission says so clearly: 429 with PostgREST\'s error body', async () => {
    for (let i = 0; i < 5; i++) expect((await supabase.from('leads').insert({ ...contactLead, email: `l${i}@example.com` })).status).toBe(201);
    const { status, error } = await supabase.from('leads').insert(contactLead);
    expect(status).toBe(429);
    expect(error?.message).toMatch(/too many/i);
  });
});

describe('notify-telegram in the stand-in', () => {
  const lead = { ...contactLead, email: 'notify@example.com', message: 'Weekly clean, 3 bedrooms.' };

  it('insert, then invoke: one Telegram message, the lead marked notified; a replay gets 404 and sends nothing', async () => {
    // Leads stored by earlier tests without a call wait in the outbox too: this call sends them all.
    await stack.backend.runScheduledJobs();
    stack.telegram.reset();
    expect((await supabase.from('leads').insert(lead)).error).toBeNull();
    const first = await supabase.functions.invoke('notify-telegram', { body: notifyBody(lead) });
    expect(first.error).toBeNull();
    expect(first.data).toEqual({ ok: true, sent: 1 });
    expect(stack.telegram.calls).toHaveLength(1);
    expect(stack.telegram.calls[0]!.path).toBe('/bot42:local-test/sendMessage');
    expect(String(stack.telegram.calls[0]!.body.text)).toContain('Weekly clean, 3 bedrooms.');
    const { rows } = await stack.backend.db.query<{ notified_at: Date | null }>('SELECT notified_at FROM public.leads WHERE email = $1', [lead.email]);
    expect(rows).toEqual([{ notified_at: expect.any(Date) }]);

    for (let i = 0; i < 3; i++) {
      const replay = await supabase.functions.invoke('notify-telegram', { body: notifyBody(lead) });
      expect(replay.data).toBeNull();
      expect(replay.error?.context.status).toBe(404);
    }
    expect(stack.telegram.calls).toHaveLength(1);
  });

  it('a call for a lead that was never stored gets 404 and sends nothing', async () => {
    const { error } = await supabase.functions.invoke('notify-telegram', { body: notifyBody({ ...lead, email: 'never-stored@example.com' }) });
    expect(error?.context.status).toBe(404);
    expect(stack.telegram.calls).toHaveLength(0);
  });

  it('refuses a call without the key, with a wrong key or with a text body, sending nothing', async () => {
    expect((await supabase.from('leads').insert({ ...lead, email: 'relay@example.com' })).error).toBeNull();
    const body = JSON.stringify(notifyBody({ ...lead, email: 'relay@example.com' }));
    const url = `${stack.server.url}/functions/v1/notify-telegram`;
    // The open relay of the issue: curl -H 'content-type: text/plain' -d '<a valid body>'
    expect((await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body })).status).toBe(401);
    expect((await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', apikey: 'totally-wrong-key' }, body })).status).toBe(401);
    expect((await client('totally-wrong-key').functions.invoke('notify-telegram', { body: JSON.parse(body) })).error?.context.status).toBe(401);
    expect((await fetch(url, { method: 'POST', headers: withKey({ 'content-type': 'text/plain' }), body })).status).toBe(415);
    expect(stack.telegram.calls).toHaveLength(0);
    // The stored lead is still there to notify, once.
    expect((await fetch(url, { method: 'POST', headers: withKey({ 'content-type': 'application/json' }), body })).status).toBe(200);
    expect(stack.telegram.calls).toHaveLength(1);
  });

  it('bounds replays from one client with 429, forged address headers or not', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const forged = client(LOCAL_ANON_KEY, { 'x-forwarded-for': `198.51.100.${i}`, 'cf-connecting-ip': `198.51.100.${i}` });
      const { error } = await forged.functions.invoke('notify-telegram', { body: notifyBody(lead) });
      statuses.push(error?.context.status ?? 200);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(404));
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect(stack.telegram.calls).toHaveLength(0);
  });
});

describe('plumbing', () => {
  it('answers CORS preflights and leaves other paths to the static server', async () => {
    for (const path of ['/rest/v1/leads', '/rest/v1/discount_leads', '/functions/v1/notify-telegram']) {
      const res = await fetch(stack.server.url + path, {
        method: 'OPTIONS',
        headers: { Origin: 'http://example.com', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'apikey, content-type' },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-headers')).toContain('apikey');
    }
    expect(await (await fetch(`${stack.server.url}/contact`)).text()).toBe('static file server');
    const noTable = await fetch(`${stack.server.url}/rest/v1/_local_migrations`, { method: 'POST', headers: withKey(), body: '{}' });
    expect(noTable.status).toBe(404);
    expect(((await noTable.json()) as { code: string }).code).toBe('PGRST205');
    const badJson = await fetch(`${stack.server.url}/rest/v1/leads`, { method: 'POST', headers: withKey({ 'Content-Type': 'application/json' }), body: '{' });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as { code: string }).code).toBe('PGRST102');
  });

  it('lists the stored leads for the operator while the server is running, newest first, with whether each was notified', async () => {
    const lines: string[] = [];
    const listing = await printLeads(join(stack.dir, 'pglite'), (l) => lines.push(l)); // = listLeads() + printing
    const emails = listing.leads.map((l) => l.email);
    expect(emails.at(-1)).toBe('maria@example.com');
    expect(listing.leads.find((l) => l.email === 'notify@example.com')?.notified_at).toBeInstanceOf(Date);
    expect(listing.leads.find((l) => l.email === 'maria@example.com')?.notified_at).toBeNull();
    const discounts = listing.discountLeads.map((d) => d.email);
    // a@ and b@ were inserted in one call (same created_at), after sam@
    expect(discounts.indexOf('sam@example.com')).toBe(discounts.length - 1);
    expect(discounts.slice(-3, -1).sort()).toEqual(['a@example.com', 'b@example.com']);

    const printed = lines.join('\n');
    expect(printed).toContain(`Contact form leads (${listing.leads.length})`);
    expect(printed).toMatch(/Received +Notified +Name/);
    expect(printed).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d +no +Maria Lopez/);
    expect(printed).toContain('Move-out clean, 2 bedrooms.');
    expect(printed).toContain(`Discount popup sign-ups (${listing.discountLeads.length})`);
    expect(printed).toContain('sam@example.com');
  });

  it('prints "No leads yet." when there is no local database', async () => {
    const lines: string[] = [];
    await printLeads(join(stack.dir, 'does-not-exist'), (l) => lines.push(l));
    expect(lines).toEqual(['No leads yet.']);
  });
});

describe('the local keys', () => {
  it('are kept beside the database, readable by the owner only', () => {
    const file = join(stack.dir, 'local-keys.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ serviceRoleKey: stack.backend.keys.serviceRoleKey, jwtSecret: stack.backend.keys.jwtSecret });
    expect(stack.backend.keys.anonKey).toBe(LOCAL_ANON_KEY);
    expect(stack.backend.keys.serviceRoleKey).not.toBe(LOCAL_ANON_KEY);
  });

  it('survive a restart: a session signed before is still accepted after, a token of other keys is not', async () => {
    const before = stack.backend.keys;
    const claims = { sub: '33333333-3333-4333-8333-333333333333', role: 'authenticated', aal: 'aal2' };
    const token = await signJwt(before, claims, 600);
    const foreign = await signJwt(loadLocalKeys(undefined, LOCAL_ANON_KEY), claims, 600);
    // Last in this file: the server keeps running, its backend is reopened on the same folder.
    await stack.backend.close();
    stack.backend = await createLocalBackend({ dataDir: join(stack.dir, 'pglite'), env: {}, log: () => {} });
    expect(stack.backend.keys).toEqual(before);
    const asUser = await client(LOCAL_ANON_KEY, { Authorization: `Bearer ${token}` }).from('leads').select('id');
    expect(asUser.error?.code).not.toBe('PGRST301');
    expect(asUser.status).not.toBe(401);
    const asService = await client(before.serviceRoleKey).from('leads').select('email').eq('email', 'maria@example.com');
    expect(asService.data).toEqual([{ email: 'maria@example.com' }]);
    const forged = await client(LOCAL_ANON_KEY, { Authorization: `Bearer ${foreign}` }).from('leads').select('id');
    expect([forged.status, forged.error?.code]).toEqual([401, 'PGRST301']);
  });
});
