/**
 * The embedded local backend (`npm start` without SUPABASE_URL), driven by the real
 * @supabase/supabase-js client the site uses, on a node:http server at 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printLeads } from '../../generator/leads';
import { createLocalBackend, type LocalBackend } from '../../generator/serve/backend';

let dataDir: string;
let backend: LocalBackend;
let server: Server;
let baseUrl: string;
let supabase: SupabaseClient;
const logs: string[] = [];

class NoWebSocket {
  constructor() {
    throw new Error('realtime is not used by the site');
  }
}

async function startServer(b: LocalBackend): Promise<Server> {
  const s = createServer(async (req, res) => {
    if (await b.handle(req, res)) return;
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('static file server');
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return s;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'backend-test-'));
  backend = await createLocalBackend({
    dataDir: join(dataDir, 'pglite'),
    env: {}, // no Telegram secrets: the function logs instead of sending
    log: (m) => logs.push(m),
  });
  server = await startServer(backend);
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  supabase = createClient(baseUrl, 'local-anon-key', {
    auth: { persistSession: false, autoRefreshToken: false },
    // Node 20 has no global WebSocket and supabase-js refuses to start without one; realtime is not used.
    realtime: { transport: NoWebSocket as never },
  });
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await backend?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const contactLead = {
  first_name: 'Maria',
  last_name: 'Lopez',
  email: 'maria@example.com',
  phone: '(408) 555-0199',
  message: 'Move-out clean, 2 bedrooms.',
  page: 'contact',
};

describe('local backend through supabase-js', () => {
  it('stores a contact form lead', async () => {
    const { error, status } = await supabase.from('leads').insert(contactLead);
    expect(error).toBeNull();
    expect(status).toBe(201);
    const { rows } = await backend.db.query<{ email: string; page: string }>('SELECT email, page FROM public.leads');
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
    const { rows } = await backend.db.query<{ n: number }>('SELECT count(*)::int AS n FROM public.discount_leads');
    expect(rows[0]?.n).toBe(3);
  });

  it('refuses an invalid lead with a PostgREST-style error and stores nothing', async () => {
    const { error, status } = await supabase.from('leads').insert({ ...contactLead, email: 'not-an-email' });
    expect(status).toBe(400);
    expect(error?.code).toBe('23514');
    expect(error?.message).toContain('leads_email_format');
    const short = await supabase.from('discount_leads').insert({ email: 'x@example.com', phone: '123', page: '/' });
    expect(short.error?.message).toContain('discount_leads_phone_length');
    const { rows } = await backend.db.query('SELECT * FROM public.leads');
    expect(rows).toHaveLength(1);
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
    const read = await supabase.from('leads').select('*');
    expect(read.error).not.toBeNull();
    expect(read.data).toBeNull();
    expect(read.status).toBe(405);

    const readBack = await supabase.from('discount_leads').insert({ email: 'c@example.com', phone: '4085550103', page: '/' }).select();
    expect(readBack.error?.code).toBe('42501');
    expect(readBack.status).toBe(401);

    const update = await supabase.from('leads').update({ phone: '0' }).eq('email', 'maria@example.com');
    expect(update.status).toBe(405);
    const del = await supabase.from('leads').delete().eq('email', 'maria@example.com');
    expect(del.status).toBe(405);

    const forged = await supabase.from('leads').insert({ ...contactLead, created_at: '2000-01-01T00:00:00Z' });
    expect(forged.error?.code).toBe('42501');

    const { rows } = await backend.db.query('SELECT * FROM public.leads');
    expect(rows).toHaveLength(1);
  });

  it('invokes notify-telegram; without secrets it logs the message instead of sending', async () => {
    const { data, error } = await supabase.functions.invoke('notify-telegram', {
      body: {
        firstName: 'Maria',
        lastName: 'Lopez',
        email: 'maria@example.com',
        phone: '(408) 555-0199',
        message: 'Move-out clean, 2 bedrooms.',
        page: 'contact',
      },
    });
    expect(error).toBeNull();
    expect(data).toEqual({ ok: true, delivered: false });
    expect(logs.some((l) => l.includes('Move-out clean, 2 bedrooms.'))).toBe(true);

    const bad = await supabase.functions.invoke('notify-telegram', { body: { email: 'x' } });
    expect(bad.data).toBeNull();
    expect(bad.error?.name).toBe('FunctionsHttpError');
    expect(bad.error?.context.status).toBe(400);
  });

  it('answers CORS preflights and leaves other paths to the static server', async () => {
    for (const path of ['/rest/v1/leads', '/rest/v1/discount_leads', '/functions/v1/notify-telegram']) {
      const res = await fetch(baseUrl + path, {
        method: 'OPTIONS',
        headers: { Origin: 'http://example.com', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'apikey, content-type' },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-headers')).toContain('apikey');
    }
    expect(await (await fetch(`${baseUrl}/contact`)).text()).toBe('static file server');
    const noTable = await fetch(`${baseUrl}/rest/v1/_local_migrations`, { method: 'POST', headers: { apikey: 'k' }, body: '{}' });
    expect(noTable.status).toBe(404);
    expect(((await noTable.json()) as { code: string }).code).toBe('PGRST205');
    const badJson = await fetch(`${baseUrl}/rest/v1/leads`, { method: 'POST', headers: { apikey: 'k', 'Content-Type': 'application/json' }, body: '{' });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as { code: string }).code).toBe('PGRST102');
    const noKey = await fetch(`${baseUrl}/rest/v1/leads`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(contactLead) });
    expect(noKey.status).toBe(401);
  });

  it('lists the stored leads for the operator while the server is running, newest first', async () => {
    const lines: string[] = [];
    const listing = await printLeads(join(dataDir, 'pglite'), (l) => lines.push(l)); // = listLeads() + printing
    expect(listing.leads.map((l) => l.email)).toEqual(['maria@example.com']);
    expect(listing.discountLeads).toHaveLength(3);
    // a@ and b@ were inserted in one call (same created_at), after sam@
    expect(listing.discountLeads.slice(0, 2).map((d) => d.email).sort()).toEqual(['a@example.com', 'b@example.com']);
    expect(listing.discountLeads.at(-1)?.email).toBe('sam@example.com');

    const printed = lines.join('\n');
    expect(printed).toContain('Contact form leads (1)');
    expect(printed).toContain('Maria Lopez');
    expect(printed).toContain('Move-out clean, 2 bedrooms.');
    expect(printed).toContain('Discount popup sign-ups (3)');
    expect(printed).toContain('sam@example.com');
  });

  it('prints "No leads yet." when there is no local database', async () => {
    const lines: string[] = [];
    await printLeads(join(dataDir, 'does-not-exist'), (l) => lines.push(l));
    expect(lines).toEqual(['No leads yet.']);
  });
});
