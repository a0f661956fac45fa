/**
 * The notify-telegram edge function handler against a fake Telegram Bot API on 127.0.0.1 and the
 * real database (the stand-in's PGlite with the migrations, called as the service role), the
 * handler called directly so each test sets its environment (through HTTP and supabase-js:
 * chat-delivery.test.ts and the block at the end; under Deno: notify-telegram-deno.test.ts).
 */
import { createNodeClient } from '../../staff/supabaseNode.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NotifyBody } from '../../supabase/functions/_shared/leadRules';
import { DatabaseCallError, databaseError, DatabaseUnavailableError, type Rpc } from '../../supabase/functions/_shared/chat/database';
import { escapeHtml, fitEscaped } from '../../supabase/functions/_shared/chat/telegramText';
import { CLAIM_FUNCTION, claimOutcome } from '../../supabase/functions/notify-telegram/claim';
import { createHandler } from '../../supabase/functions/notify-telegram/handler';
import { createLocalBackend, type LocalBackend } from '../../supabase-standin/backend';
import { serviceRoleRpc } from '../../supabase-standin/functions';
import { startFakeTelegram, TELEGRAM_LIMIT } from './fakeTelegram';
import { useLocalStack } from './stack';

let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let apiUrl: string;
let received: Awaited<ReturnType<typeof startFakeTelegram>>['calls'];
let backend: LocalBackend;
let rpc: Rpc;

beforeAll(async () => {
  telegram = await startFakeTelegram();
  apiUrl = telegram.url;
  received = telegram.calls;
  backend = await createLocalBackend({ log: () => {} });
  rpc = serviceRoleRpc(backend.db);
});

afterAll(async () => {
  await telegram.close();
  await backend.close();
});

beforeEach(async () => {
  telegram.reset();
  await backend.db.exec(`
    DELETE FROM public.leads; DELETE FROM public.discount_leads; DELETE FROM private.rate_events; DELETE FROM private.chat_sends;
    UPDATE private.chat_state SET sender = NULL, sender_until = NULL, paused_until = NULL, failures = 0, last_error = NULL;`);
});

const TOKEN = '123456:TEST-token';
const ANON_KEY = 'eyJ.test-anon-key.sig';
const PUBLISHABLE_KEY = 'sb_publishable_TestKey123';
const projectKeys: Record<string, string> = {
  SUPABASE_ANON_KEY: ANON_KEY,
  SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: PUBLISHABLE_KEY }),
};
const secrets: Record<string, string> = { ...projectKeys, TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_CHAT_ID: '-1001234' };

/** Stores leads as the forms do (with the owner's connection: no per-client limit); their ids in order. */
async function store(...bodies: NotifyBody[]): Promise<string[]> {
  const ids: string[] = [];
  for (const b of bodies) {
    const { rows } = b.page === 'contact'
      ? await backend.db.query<{ id: string }>(
        'INSERT INTO public.leads (first_name, last_name, email, phone, message, page) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
        [b.firstName, b.lastName, b.email, b.phone, b.message, b.page])
      : await backend.db.query<{ id: string }>('INSERT INTO public.discount_leads (email, phone, page) VALUES ($1, $2, $3) RETURNING id', [b.email, b.phone, b.page]);
    ids.push(rows[0]!.id);
  }
  return ids;
}

/** The outbox row of a lead's message. */
async function outbox(id: string) {
  const { rows } = await backend.db.query<{ sent_at: Date | null; attempts: number; last_error: string | null }>(
    "SELECT sent_at, attempts, last_error FROM private.chat_outbox WHERE what = 'lead' AND coalesce(quote_id, discount_id) = $1", [id]);
  return rows[0];
}

/** A handler on the real database (or `database`), recording its calls to it. */
function handlerWith(env: Record<string, string | undefined>, database: Rpc = rpc) {
  const logs: string[] = [];
  const calls: Array<{ fn: string; args: Record<string, unknown> }> = [];
  const recording: Rpc = async (fn, args) => {
    calls.push({ fn, args });
    return database(fn, args);
  };
  const handler = createHandler({ env: (n) => env[n], fetch, rpc: recording, log: (m) => logs.push(m) });
  return { handler, logs, claims: () => calls.filter((c) => c.fn === CLAIM_FUNCTION) };
}

const lead: NotifyBody = {
  firstName: 'Maria <script>alert(1)</script>',
  lastName: 'O"Neil & Sons',
  email: 'maria@example.com',
  phone: '(408) 555-0199',
  message: 'Kitchen <b>and</b> 2 baths > 100 sq ft',
  page: 'contact',
};

const keyHeaders = (key: string) => ({ apikey: key, Authorization: `Bearer ${key}` });

/** A request as supabase-js's functions.invoke sends it (apikey and Bearer set to the key). */
function post(body: unknown, options: { raw?: string; headers?: Record<string, string>; key?: string | null } = {}): Request {
  const key = options.key === undefined ? ANON_KEY : options.key;
  return new Request('http://localhost/functions/v1/notify-telegram', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(key === null ? {} : keyHeaders(key)), ...options.headers },
    body: options.raw ?? JSON.stringify(body),
  });
}

function expectCors(res: Response) {
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  const allowed = res.headers.get('access-control-allow-headers') ?? '';
  for (const h of ['authorization', 'x-client-info', 'apikey', 'content-type']) expect(allowed).toContain(h);
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('notify-telegram handler', () => {
  it('sends the stored lead to the Telegram chat as escaped HTML and answers ok', async () => {
    await store(lead);
    const { handler, claims } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    const res = await handler(post(lead));
    expect(res.status).toBe(200);
    expectCors(res);
    expect(await res.json()).toEqual({ ok: true, sent: 1 });
    expect(claims().map((c) => c.args.p_email)).toEqual([lead.email]);

    expect(received).toHaveLength(1);
    const call = received[0]!;
    expect(call.method).toBe('POST');
    expect(call.path).toBe(`/bot${TOKEN}/sendMessage`);
    expect(call.contentType).toContain('application/json');
    expect(call.body.chat_id).toBe('-1001234');
    expect(call.body.parse_mode).toBe('HTML');
    const text = String(call.body.text);
    expect(text).toContain('Maria &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text).toContain('O&quot;Neil &amp; Sons');
    expect(text).toContain('Kitchen &lt;b&gt;and&lt;/b&gt; 2 baths &gt; 100 sq ft');
    expect(text).toContain('maria@example.com');
    expect(text).toContain('(408) 555-0199');
    expect(text).toContain('contact');
    expect(text).not.toContain('<script>');
    // only the handler's own tags remain
    expect(text.match(/<[^>]+>/g)?.every((tag) => /^<\/?(b|code)>$/.test(tag))).toBe(true);
    expect(text).not.toContain('<a ');
    // the message is the stored lead's, sent once: the outbox says so
    expect(await outbox((await backend.db.query<{ id: string }>('SELECT id FROM public.leads')).rows[0]!.id)).toMatchObject({ attempts: 1, sent_at: expect.any(Date) });
  });

  describe('the link to the lead in the staff inbox', () => {
    it('leads the owner to /leads#lead/<kind>/<id> on the site SITE_URL names', async () => {
      const [id] = await store(lead);
      const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl, SITE_URL: 'https://www.bayshinecleaning.com/' });
      expect((await handler(post(lead))).status).toBe(200);
      const text = String(received[0]?.body.text);
      expect(text).toContain(`<a href="https://www.bayshinecleaning.com/leads#lead/quote/${id}">Open it in the lead inbox</a>`);
      // an https site: the link is a button too, beside "Called back"
      expect(received[0]?.body.reply_markup).toEqual({ inline_keyboard: [
        [{ text: '📞 Called back', callback_data: `contacted:quote:${id}` }],
        [{ text: 'Open in the lead inbox', url: `https://www.bayshinecleaning.com/leads#lead/quote/${id}` }],
      ] });
      expect(text.match(/<[^>]+>/g)?.every((tag) => /^(<\/?(b|code)>|<a href="[^"]+">|<\/a>)$/.test(tag))).toBe(true);
    });

    it('names the kind of lead: a discount sign-up is a discount lead', async () => {
      const signUp = { ...lead, page: '/locations/deep-cleaning-san-jose-ca' };
      const [id] = await store(signUp);
      const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl, SITE_URL: 'https://www.bayshinecleaning.com' });
      expect((await handler(post(signUp))).status).toBe(200);
      const text = String(received[0]?.body.text);
      expect(text).toContain(`https://www.bayshinecleaning.com/leads#lead/discount/${id}`);
      expect(text).toContain('<b>New $25 discount sign-up</b> from <code>/locations/deep-cleaning-san-jose-ca</code>');
    });

    it('keeps the link whole when the message is cut to Telegram\'s limit', async () => {
      const body = { ...lead, message: '<'.repeat(5000) };
      const [id] = await store(body);
      const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl, SITE_URL: 'https://www.bayshinecleaning.com' });
      expect((await handler(post(body))).status).toBe(200);
      const text = String(received[0]?.body.text);
      expect(text.length).toBeLessThanOrEqual(TELEGRAM_LIMIT);
      expect(text).toContain(`<a href="https://www.bayshinecleaning.com/leads#lead/quote/${id}">`);
      expect(text).toMatch(/\n(&lt;)+…$/);
    });

    it.each(['javascript:alert(1)', 'not a url', 'ftp://www.bayshinecleaning.com'])('sends no link when SITE_URL is %s', async (siteUrl) => {
      await store(lead);
      const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl, SITE_URL: siteUrl });
      expect((await handler(post(lead))).status).toBe(200);
      expect(String(received[0]?.body.text)).not.toContain('<a ');
      expect(JSON.stringify(received[0]?.body.reply_markup)).not.toContain('url');
    });
  });

  describe('the going-live check\'s test message (npm run doctor)', () => {
    const SERVICE_KEY = 'service-role-key-of-the-project';
    const env = () => ({ ...secrets, TELEGRAM_API_URL: apiUrl, SUPABASE_SERVICE_ROLE_KEY: SERVICE_KEY });

    it('is sent with the service role key and {"test": true}, claiming no lead', async () => {
      await store(lead);
      const { handler, claims } = handlerWith(env());
      const res = await handler(post({ test: true }, { key: SERVICE_KEY }));
      expect([res.status, await res.json()]).toEqual([200, { ok: true, delivered: true }]);
      expect(received.map((c) => String(c.body.text))).toEqual([expect.stringContaining('Test message from the going-live check')]);
      expect(claims()).toEqual([]);
    });

    it('{"run": true} with the service role key is a delivery run: what waits goes out, no test message', async () => {
      await store(lead);
      const { handler } = handlerWith(env());
      const res = await handler(post({ run: true }, { key: SERVICE_KEY }));
      expect([res.status, await res.json()]).toEqual([200, { ok: true, sent: 1 }]);
      expect(received.map((c) => String(c.body.text))).toEqual([expect.stringContaining(lead.email)]);
    });

    it('the run\'s secret from Vault starts a run, and only a run', async () => {
      const secret = (await rpc('chat_run_secret', {})) as string;
      expect(secret).toMatch(/^[0-9a-f]{96}$/);
      await store(lead);
      const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
      expect((await handler(post({ test: true }, { key: secret }))).status).toBe(400);
      expect((await handler(post({ run: true }, { key: `${secret.slice(0, -1)}0` === secret ? `${secret.slice(0, -1)}1` : `${secret.slice(0, -1)}0` }))).status).toBe(401);
      expect(received).toHaveLength(0);
      const res = await handler(post({ run: true }, { key: secret }));
      expect([res.status, await res.json()]).toEqual([200, { ok: true, sent: 1 }]);
    });

    it('is never sent for a visitor\'s key, a wrong key, or another body with the service key', async () => {
      const { handler } = handlerWith(env());
      expect((await handler(post({ test: true }))).status).toBe(400); // the anon key: a lead's body is required
      expect((await handler(post({ test: true }, { key: `${SERVICE_KEY}x` }))).status).toBe(401);
      expect((await handler(post({ test: true }, { key: null, headers: { apikey: SERVICE_KEY, Authorization: `Bearer ${ANON_KEY}` } }))).status).toBe(401);
      expect((await handler(post(lead, { key: SERVICE_KEY }))).status).toBe(400);
      expect(received).toHaveLength(0);
    });
  });

  describe('only with one of the project\'s public keys', () => {
    it.each<[string, Record<string, string>]>([
      ['no key at all', {}],
      ['a wrong apikey', { apikey: 'totally-wrong-key' }],
      ['a wrong Bearer token', { Authorization: 'Bearer totally-wrong-key' }],
      ['the right apikey with a wrong Bearer token', { apikey: ANON_KEY, Authorization: 'Bearer totally-wrong-key' }],
      ['a wrong apikey with the right Bearer token', { apikey: 'totally-wrong-key', Authorization: `Bearer ${ANON_KEY}` }],
      ['the key under another scheme', { Authorization: `Basic ${ANON_KEY}` }],
      ['an empty apikey', { apikey: '' }],
      ['a prefix of the key', keyHeaders(ANON_KEY.slice(0, -1))],
    ])('refuses %s with 401, sending and claiming nothing', async (_label, headers) => {
      await store(lead);
      const { handler, claims } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
      const res = await handler(post(lead, { key: null, headers }));
      expect(res.status).toBe(401);
      expectCors(res);
      expect(await res.json()).toMatchObject({ ok: false, error: 'Invalid API key' });
      expect(claims()).toEqual([]);
      expect(received).toHaveLength(0);
    });

    it('refuses every key when the environment names none', async () => {
      const { handler } = handlerWith({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_CHAT_ID: '1', TELEGRAM_API_URL: apiUrl });
      expect((await handler(post(lead, { key: '' }))).status).toBe(401);
      expect((await handler(post(lead, { key: 'undefined' }))).status).toBe(401);
      expect(received).toHaveLength(0);
    });

    it.each([
      ['the legacy anon key', ANON_KEY],
      ['a publishable key (sb_publishable_…)', PUBLISHABLE_KEY],
    ])('accepts %s', async (_label, key) => {
      await store(lead);
      const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
      const res = await handler(post(lead, { key }));
      expect(res.status).toBe(200);
      expect(received).toHaveLength(1);
    });

    it('accepts the apikey header alone, as curl or another client may send it', async () => {
      await store(lead);
      const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
      expect((await handler(post(lead, { key: null, headers: { apikey: PUBLISHABLE_KEY } }))).status).toBe(200);
    });
  });

  it.each([
    ['text/plain; x=json', 'text/plain; x=json'],
    ['multipart/form-data; boundary=json', 'multipart/form-data; boundary=json'],
    ['application/jsonp', 'application/jsonp'],
    ['application/json in another charset', 'application/json; charset=latin1'],
    ['a list of types', 'application/json, text/plain'],
    // Took minutes with the earlier regular expression (exponential backtracking).
    ['a header built to make a pattern backtrack', `application/json${';  '.repeat(2000)}x`],
  ])('answers 415 to %s, claiming and sending nothing', async (_label, type) => {
    await store(lead);
    const { handler, claims } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    const res = await handler(post(lead, { headers: { 'Content-Type': type } }));
    expect(res.status).toBe(415);
    expectCors(res);
    expect(claims()).toEqual([]);
    expect(received).toHaveLength(0);
  });

  it('answers 415 to a body without a content type', async () => {
    const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    const req = new Request('http://localhost/functions/v1/notify-telegram', {
      method: 'POST',
      headers: keyHeaders(ANON_KEY),
      body: new Blob([JSON.stringify(lead)]), // a Blob without a type adds no Content-Type
    });
    expect(req.headers.get('content-type')).toBeNull();
    expect((await handler(req)).status).toBe(415);
    expect(received).toHaveLength(0);
  });

  it('takes application/json with parameters', async () => {
    await store(lead);
    const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    const res = await handler(post(lead, { headers: { 'Content-Type': 'Application/JSON ; charset="UTF-8"' } }));
    expect(res.status).toBe(200);
  });

  it('answers 404 and sends nothing when no stored lead matches', async () => {
    await store({ ...lead, email: 'someone.else@example.com' });
    const { handler, claims } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    const res = await handler(post(lead));
    expect(res.status).toBe(404);
    expectCors(res);
    expect(await res.json()).toMatchObject({ ok: false, error: expect.any(String) });
    expect(claims()).toHaveLength(1);
    expect(received).toHaveLength(0);
  });

  it('sends one message per stored lead: a replay of the same call gets 404', async () => {
    await store(lead);
    const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    expect((await handler(post(lead))).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await handler(post(lead))).status).toBe(404);
    expect(received).toHaveLength(1);
  });

  it('answers 429 with a clear error when the client is over its limit, sending nothing', async () => {
    await store(lead);
    const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl }, async (fn, args) => {
      if (fn === CLAIM_FUNCTION) throw new DatabaseCallError(`${fn} failed (PT429): Too many submissions from this address`, 'PT429');
      return rpc(fn, args);
    });
    const res = await handler(post(lead));
    expect(res.status).toBe(429);
    expectCors(res);
    expect(((await res.json()) as { error: string }).error).toMatch(/too many/i);
    expect(received).toHaveLength(0);
  });

  it('claims for the client address the request names (most trusted header first)', async () => {
    await store(lead, lead, lead);
    const { handler, claims } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    await handler(post(lead, { headers: { 'cf-connecting-ip': '203.0.113.7', 'x-forwarded-for': '198.51.100.1' } }));
    await handler(post(lead, { headers: { 'x-forwarded-for': '198.51.100.1, 10.0.0.1' } }));
    await handler(post(lead));
    expect(claims().map((c) => c.args.p_client)).toEqual(['203.0.113.7', '198.51.100.1', '']);
  });

  it.each<[string, { code: string; message: string }, number]>([
    ['gets no answer (supabase-js status 0)', { code: '', message: 'TypeError: fetch failed' }, 0],
    ['answers 503 from its gateway', { code: 'PGRST000', message: 'Database client error. Retrying the connection.' }, 503],
  ])('answers 503 with a clear log line, sending nothing, when the database %s', async (_label, error, status) => {
    // As index.ts maps supabase-js's answer (supabaseRpc).
    const { handler, logs } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl }, async (fn) => {
      throw databaseError(fn, error, status);
    });
    const res = await handler(post(lead));
    expect(res.status).toBe(503);
    expectCors(res);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(await res.json()).toEqual({ ok: false, error: 'The database is unavailable, please try again in a minute' });
    expect(received).toHaveLength(0);
    const logged = logs.join('\n');
    expect(logged).toMatch(/^\[notify-telegram\] the database could not be reached for claim_lead_for_notification \(.+\); answered 503$/m);
    for (const value of [lead.email, lead.phone, 'Kitchen', 'Maria']) expect(logged).not.toContain(value);
  });

  it('tells an unreachable database from a refused call', () => {
    for (const [code, status] of [['', 0], ['PGRST000', 503], ['PGRST003', 504], ['08006', undefined], ['57P01', undefined], ['53300', undefined], ['', 502]] as const) {
      expect(databaseError('f', { code, message: 'x' }, status), `${code} ${status}`).toBeInstanceOf(DatabaseUnavailableError);
    }
    for (const [code, status] of [['42501', 403], ['PGRST202', 404], ['P0001', 400], ['22023', undefined]] as const) {
      const error = databaseError('f', { code, message: 'x' }, status);
      expect(error, `${code} ${status}`).toBeInstanceOf(DatabaseCallError);
      expect((error as DatabaseCallError).code).toBe(code);
    }
    const id = '00000000-0000-4000-8000-000000000007';
    expect(claimOutcome(null)).toBe('not_found');
    expect(claimOutcome({ kind: 'quote', id: id.toUpperCase() })).toEqual({ kind: 'quote', id });
    for (const answer of [true, 'claimed', { kind: 'other', id }, { kind: 'quote', id: 'x' }, { kind: 'quote' }]) {
      expect(() => claimOutcome(answer), JSON.stringify(answer)).toThrow(/kind, id/);
    }
  });

  it('answers 500 and sends nothing when the claim fails, logging no visitor data', async () => {
    const { handler, logs } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl }, async () => {
      throw new Error('claim_lead_notification failed (08006): connection lost');
    });
    const res = await handler(post(lead));
    expect(res.status).toBe(500);
    expect(received).toHaveLength(0);
    expect(logs.join('\n')).not.toContain(lead.email);
  });

  it('delivers 2,500 emoji, trimmed to Telegram\'s limit in UTF-16 units without splitting one', async () => {
    const message = '😀'.repeat(2500); // 5,000 UTF-16 units: a valid message
    const body = { ...lead, message };
    await store(body);
    const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    const res = await handler(post(body));
    expect(res.status).toBe(200);
    const text = String(received[0]?.body.text);
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_LIMIT);
    expect(text.length).toBeGreaterThan(TELEGRAM_LIMIT - 10); // trimmed, not dropped
    expect(text).not.toMatch(loneSurrogate);
    expect(text).toMatch(/\n(?:😀)+…$/u);
  });

  it('budgets the escaped text: 5,000 `<` become whole `&lt;` entities within the limit', async () => {
    const body = { ...lead, message: '<'.repeat(5000) };
    await store(body);
    const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    const res = await handler(post(body));
    expect(res.status).toBe(200);
    const text = String(received[0]?.body.text);
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_LIMIT);
    expect(text.length).toBeGreaterThan(TELEGRAM_LIMIT - 10);
    expect(text).toMatch(/\n(&lt;)+…$/);
  });

  it('keeps a short message whole', async () => {
    await store(lead);
    const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    await handler(post(lead));
    expect(String(received[0]?.body.text)).toMatch(/\nKitchen &lt;b&gt;and&lt;\/b&gt; 2 baths &gt; 100 sq ft$/);
  });

  it('cuts between whole characters and whole entities for every room', () => {
    const value = 'a<😀&"b'.repeat(8);
    const escaped = escapeHtml(value);
    for (let room = 0; room <= escaped.length + 1; room++) {
      const fitted = fitEscaped(value, room);
      expect(fitted.length, `room ${room}`).toBeLessThanOrEqual(room);
      if (fitted === escaped) continue;
      const kept = fitted.replace(/…$/, '');
      expect(escaped.startsWith(kept), `room ${room}`).toBe(true);
      expect(kept, `room ${room}`).not.toMatch(loneSurrogate);
      expect(kept, `room ${room}`).not.toMatch(/&[a-z]*$/);
    }
  });

  it.each([
    ['a Telegram server error', { status: 500, body: { ok: false, description: 'Internal' } }, 'chat'],
    ['chat not found', { status: 400, body: { ok: false, description: 'Bad Request: chat not found' } }, 'chat'],
    ['a non-JSON answer', { status: 200, body: 'not json' }, 'chat'],
    ['a refusal of this message alone', { status: 400, body: { ok: false, description: 'Bad Request: can\'t parse entities' } }, 'message'],
  ])('keeps the lead in the outbox for the next try on %s, without logging the token or the lead', async (_label, telegramReply, scope) => {
    telegram.state.reply = telegramReply;
    const [id] = await store(lead);
    const { handler, logs } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    const res = await handler(post(lead));
    expect(res.status).toBe(200);
    expectCors(res);
    expect(await res.json()).toEqual({ ok: true, sent: 0, ...(scope === 'chat' && { waiting: 'paused' }) });
    expect(received).toHaveLength(1);
    expect(await outbox(id!)).toMatchObject({ sent_at: null, attempts: 1, last_error: expect.stringMatching(/^Telegram answered/) });
    const logged = logs.join('\n');
    for (const value of [TOKEN, lead.email, lead.phone, 'Kitchen']) expect(logged).not.toContain(value);
    // Not failed for the inbox: the message is retried until the limit (chat-delivery.test.ts).
    const { rows } = await backend.db.query<{ notify_failed_at: Date | null }>('SELECT notify_failed_at FROM public.leads WHERE id = $1', [id]);
    expect(rows[0]!.notify_failed_at).toBeNull();
  });

  it('keeps the lead in the outbox when Telegram cannot be reached, without logging the token', async () => {
    const [id] = await store(lead);
    const { handler, logs } = handlerWith({ ...secrets, TELEGRAM_API_URL: 'http://127.0.0.1:1' });
    const res = await handler(post(lead));
    expect([res.status, await res.json()]).toEqual([200, { ok: true, sent: 0, waiting: 'paused' }]);
    expect(logs.join('\n')).not.toContain(TOKEN);
    expect(await outbox(id!)).toMatchObject({ sent_at: null, last_error: expect.stringContaining('could not be reached') });
  });

  it.each([
    ['TELEGRAM_BOT_TOKEN', { TELEGRAM_CHAT_ID: '-1001234' }],
    ['TELEGRAM_CHAT_ID', { TELEGRAM_BOT_TOKEN: TOKEN }],
  ])('without %s: claims the lead, answers 200 delivered:false, keeps it in the outbox and logs no visitor data', async (missing, env) => {
    const [id] = await store(lead);
    const { handler, logs, claims } = handlerWith({ ...projectKeys, ...env, TELEGRAM_API_URL: apiUrl });
    const res = await handler(post(lead));
    expect(res.status).toBe(200);
    expectCors(res);
    expect(await res.json()).toEqual({ ok: true, delivered: false });
    expect(received).toHaveLength(0);
    expect(claims()).toHaveLength(1);
    expect(await outbox(id!)).toMatchObject({ sent_at: null, attempts: 0 }); // sent once the secrets are set
    const logged = logs.join('\n');
    expect(logged).toContain(missing);
    for (const value of [lead.email, lead.phone, 'Kitchen', 'Maria', 'Neil', escapeHtml(lead.firstName)]) expect(logged).not.toContain(value);
  });

  it.each<[string, Request]>([
    ['malformed JSON', post(null, { raw: '{"firstName": ' })],
    ['an empty body', post(null, { raw: '' })],
    ['a JSON array', post([lead])],
    ['a missing email', post({ ...lead, email: undefined })],
    ['a bad email', post({ ...lead, email: 'not-an-email' })],
    ['a blank first name', post({ ...lead, firstName: '   ' })],
    ['a number as phone', post({ ...lead, phone: 4085550199 })],
    ['a message over 5000 chars', post({ ...lead, message: 'x'.repeat(5001) })],
    ['a page over 200 chars', post({ ...lead, page: `/${'p'.repeat(200)}` })],
    ['a page that is no path of the site', post({ ...lead, page: 'https://evil.example/' })],
  ])('answers 400 with a JSON error for %s, without claiming or calling Telegram', async (_label, req) => {
    await store(lead);
    const { handler, claims } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    const res = await handler(req);
    expect(res.status).toBe(400);
    expectCors(res);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = (await res.json()) as { ok: boolean; error: string };
    expect(body.ok).toBe(false);
    expect(body.error).toEqual(expect.any(String));
    expect(claims()).toEqual([]);
    expect(received).toHaveLength(0);
  });

  it('answers 413 to a body over 32 KB', async () => {
    const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    const res = await handler(post(null, { raw: JSON.stringify({ ...lead, message: 'x'.repeat(40_000) }) }));
    expect(res.status).toBe(413);
    expect(received).toHaveLength(0);
  });

  it.each(['GET', 'PUT', 'DELETE'])('answers 405 to %s with a key, 401 without', async (method) => {
    const { handler } = handlerWith(secrets);
    const url = 'http://localhost/functions/v1/notify-telegram';
    const res = await handler(new Request(url, { method, headers: keyHeaders(ANON_KEY) }));
    expect(res.status).toBe(405);
    expectCors(res);
    expect(res.headers.get('allow')).toContain('POST');
    expect((await handler(new Request(url, { method }))).status).toBe(401);
  });

  it('answers the CORS preflight, which carries no key', async () => {
    const { handler } = handlerWith(secrets);
    const res = await handler(
      new Request('http://localhost/functions/v1/notify-telegram', {
        method: 'OPTIONS',
        headers: { Origin: 'https://example.com', 'Access-Control-Request-Method': 'POST' },
      }),
    );
    expect(res.status).toBeLessThan(300);
    expectCors(res);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(received).toHaveLength(0);
  });
});

describe('notify-telegram in the local stand-in (npm start), through supabase-js', () => {
  const stack = useLocalStack({ telegramToken: '42:stand-in', telegramChatId: '-100' });
  const client = () => createNodeClient(stack.server.url, stack.backend.keys.anonKey);
  const stored = { first_name: 'Ana', last_name: 'Reyes', email: 'ana@example.com', phone: '(650) 555-0123', message: 'Deep clean before a move.', page: 'contact' as const };
  const body = { firstName: stored.first_name, lastName: stored.last_name, email: stored.email, phone: stored.phone, message: stored.message, page: stored.page };

  it('links the message to the lead in the inbox of the server the lead came through', async () => {
    const supabase = client();
    const lead = { ...stored, email: 'link@example.com' };
    expect((await supabase.from('leads').insert(lead)).error).toBeNull();
    const { error } = await supabase.functions.invoke('notify-telegram', { body: { ...body, email: lead.email } });
    expect(error).toBeNull();
    expect(stack.telegram.calls).toHaveLength(1);
    const { rows } = await stack.backend.db.query<{ id: string }>('SELECT id FROM public.leads WHERE email = $1', [lead.email]);
    expect(String(stack.telegram.calls[0]!.body.text)).toContain(`<a href="${stack.server.url}/leads#lead/quote/${rows[0]!.id}">`);
  });
});
