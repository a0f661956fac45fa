/**
 * What the forms send: order and bodies of the calls (spec 7) with a fake backend, and the real
 * supabase-js client against the embedded local backend (PGlite with the real migrations).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../supabase-standin/backend.js';
import { submitContactLead, submitDiscountLead, supabaseLeadApi, type LeadApi } from '../../src/lib/leads.js';
import { UNKNOWN_SOURCE, type LeadSource } from '../../src/lib/leadSource.js';
import { LOCAL_ANON_KEY, resolveConnection } from '../../src/lib/supabase.js';
import { discountTexts } from './fixtures.js';

/** Node 20 has no WebSocket; realtime is never used, any constructor will do. */
const contact = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '408 555 0186', message: 'Deep clean please' };
/** A visit that began on a city page and came to the form from the services page. */
const source: LeadSource = { landing_path: '/locations/deep-cleaning-san-jose-ca', referrer_path: '/services' };

function fakeApi(overrides: Partial<Record<'insert' | 'notify' | 'webhook', (...args: any[]) => Promise<any>>> = {}) {
  const calls: [string, ...unknown[]][] = [];
  const api = {
    insert: async (table: string, row: unknown) => {
      calls.push(['insert', table, row]);
      return overrides.insert ? overrides.insert(table, row) : { error: null };
    },
    notify: async (body: unknown) => {
      calls.push(['notify', body]);
      return overrides.notify ? overrides.notify(body) : { error: null };
    },
    webhook: async (url: string, payload: unknown) => {
      calls.push(['webhook', url, payload]);
      if (overrides.webhook) await overrides.webhook(url, payload);
    },
  } as LeadApi;
  return { api, calls };
}

describe('contact submission', () => {
  it('inserts the row with its source, then notifies with the camelCase body (no source: spec 7)', async () => {
    const { api, calls } = fakeApi();
    await expect(submitContactLead(contact, source, api)).resolves.toEqual({ ok: true });
    expect(calls).toEqual([
      ['insert', 'leads', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '408 555 0186', message: 'Deep clean please', page: 'contact', ...source }],
      ['notify', { ...contact, page: 'contact' }],
    ]);
  });

  it('sends an unknown source as nulls', async () => {
    const { api, calls } = fakeApi();
    await submitContactLead(contact, UNKNOWN_SOURCE, api);
    expect(calls[0]).toEqual(['insert', 'leads', expect.objectContaining({ page: 'contact', landing_path: null, referrer_path: null })]);
  });

  it('stops after a failed insert', async () => {
    const error = { message: 'denied' };
    const { api, calls } = fakeApi({ insert: async () => ({ error }) });
    await expect(submitContactLead(contact, source, api)).resolves.toEqual({ ok: false, error });
    expect(calls.map((c) => c[0])).toEqual(['insert']);
  });

  it('succeeds when only the notification fails, and logs it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { api } = fakeApi({ notify: async () => { throw new Error('down'); } });
    await expect(submitContactLead(contact, source, api)).resolves.toEqual({ ok: true });
    expect(log).toHaveBeenCalledOnce();
    log.mockRestore();
  });
});

describe('discount submission', () => {
  const values = { email: 'b@example.com', phone: '4085550186' };
  const now = () => new Date('2025-03-01T12:00:00.000Z');

  it('inserts with its source, notifies with the fixed texts, then posts the webhook (neither with the source)', async () => {
    const { api, calls } = fakeApi();
    await expect(submitDiscountLead(values, '/deep-cleaning-san-francisco', source, discountTexts.notification, api, 'https://hooks.example/x', now)).resolves.toEqual({ ok: true });
    expect(calls).toEqual([
      ['insert', 'discount_leads', { email: 'b@example.com', phone: '4085550186', page: '/deep-cleaning-san-francisco', ...source }],
      ['notify', { firstName: discountTexts.notification.firstName, lastName: discountTexts.notification.lastName, email: 'b@example.com', phone: '4085550186', message: 'Signed up for $25 discount offer', page: '/deep-cleaning-san-francisco' }],
      ['webhook', 'https://hooks.example/x', { email: 'b@example.com', phone: '4085550186', page: '/deep-cleaning-san-francisco', timestamp: '2025-03-01T12:00:00.000Z', message: 'Signed up for $25 discount offer' }],
    ]);
  });

  it('skips the webhook when none is configured', async () => {
    const { api, calls } = fakeApi();
    await submitDiscountLead(values, '/', UNKNOWN_SOURCE, discountTexts.notification, api, '');
    expect(calls.map((c) => c[0])).toEqual(['insert', 'notify']);
  });

  it('only the insert decides; notify and webhook failures are logged', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { api } = fakeApi({ notify: async () => ({ error: new Error('x') }), webhook: async () => { throw new TypeError('Failed to fetch'); } });
    await expect(submitDiscountLead(values, '/', UNKNOWN_SOURCE, discountTexts.notification, api, 'https://hooks.example/x')).resolves.toEqual({ ok: true });
    expect(log).toHaveBeenCalledTimes(2);
    log.mockRestore();
    const failing = fakeApi({ insert: async () => { throw new TypeError('Failed to fetch'); } });
    await expect(submitDiscountLead(values, '/', UNKNOWN_SOURCE, discountTexts.notification, failing.api, 'https://hooks.example/x')).resolves.toMatchObject({ ok: false });
    expect(failing.calls.map((c) => c[0])).toEqual(['insert']);
  });

  it('posts the webhook as a no-cors text/plain request', async () => {
    const fetchMock = vi.fn(async () => new Response(null));
    const api = supabaseLeadApi(createNodeClient('http://127.0.0.1:9', 'k'), fetchMock as unknown as typeof fetch);
    const payload = { email: 'b@example.com', phone: '4085550186', page: '/', timestamp: 't', message: 'm' };
    await api.webhook('https://hooks.example/x', payload);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://hooks.example/x');
    expect(init).toMatchObject({ method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain;charset=UTF-8' }, body: JSON.stringify(payload) });
  });
});

describe('connection settings', () => {
  it('falls back to the page origin and the local anon key', () => {
    expect(resolveConnection({ supabaseUrl: '', supabaseAnonKey: '', webhookUrl: '' }, 'http://localhost:4321')).toEqual({ url: 'http://localhost:4321', key: LOCAL_ANON_KEY });
    expect(resolveConnection({ supabaseUrl: 'https://x.supabase.co', supabaseAnonKey: 'anon', webhookUrl: '' }, 'http://localhost')).toEqual({ url: 'https://x.supabase.co', key: 'anon' });
  });
});

describe('real supabase-js against the embedded backend', () => {
  let backend: LocalBackend;
  let server: Server;
  let origin: string;
  const notified: unknown[] = [];

  beforeAll(async () => {
    backend = await createLocalBackend({ env: {}, log: (msg) => notified.push(msg) });
    server = createServer((req, res) => {
      backend.handle(req, res).then((handled) => {
        if (!handled) { res.writeHead(404); res.end(); }
      }, () => { res.writeHead(500); res.end(); });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await backend?.close();
  });

  function api() {
    return supabaseLeadApi(createNodeClient(origin, LOCAL_ANON_KEY));
  }

  it('stores a contact lead with its source (insert without select) and runs the notification', async () => {
    await expect(submitContactLead(contact, source, api())).resolves.toEqual({ ok: true });
    const { rows } = await backend.db.query('SELECT first_name, page, landing_path, referrer_path FROM public.leads');
    expect(rows).toEqual([{ first_name: 'Ada', page: 'contact', ...source }]);
  });

  it('stores a discount lead with an unknown source', async () => {
    await expect(submitDiscountLead({ email: 'c@example.com', phone: '4085550186' }, '/', UNKNOWN_SOURCE, discountTexts.notification, api(), '')).resolves.toEqual({ ok: true });
    const { rows } = await backend.db.query('SELECT email, page, landing_path, referrer_path FROM public.discount_leads');
    expect(rows).toEqual([{ email: 'c@example.com', page: '/', landing_path: null, referrer_path: null }]);
  });

  it('the database refuses a source that is not a page of the site, as a script skipping the forms would send it', async () => {
    const { error } = await api().insert('leads', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '1', message: 'x', page: 'contact', landing_path: 'https://evil.example/', referrer_path: null });
    expect(error).toMatchObject({ code: '23514' });
  });

  it('reports a rejected insert as a failure', async () => {
    const result = await submitDiscountLead({ email: 'c@example.com', phone: '123' }, '/', UNKNOWN_SOURCE, discountTexts.notification, api(), '');
    expect(result.ok).toBe(false);
  });
});
