/**
 * The notify-telegram edge function handler against a fake Telegram Bot API on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHandler } from '../../supabase/functions/notify-telegram/handler';

interface Received {
  method: string;
  path: string;
  contentType: string | undefined;
  body: Record<string, unknown>;
}

let server: Server;
let apiUrl: string;
let received: Received[] = [];
let reply: { status: number; body: unknown } = { status: 200, body: { ok: true, result: { message_id: 1 } } };

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let data = '';
  for await (const chunk of req) data += String(chunk);
  return JSON.parse(data) as Record<string, unknown>;
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    received.push({
      method: req.method ?? '',
      path: req.url ?? '',
      contentType: req.headers['content-type'],
      body: await readJson(req),
    });
    res.writeHead(reply.status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
  reply = { status: 200, body: { ok: true, result: { message_id: 1 } } };
});

const TOKEN = '123456:TEST-token';
const secrets: Record<string, string> = { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_CHAT_ID: '-1001234' };

function handlerWith(env: Record<string, string | undefined>) {
  const logs: string[] = [];
  const handler = createHandler({ env: (n) => env[n], fetch, log: (m) => logs.push(m) });
  return { handler, logs };
}

const lead = {
  firstName: 'Maria <script>alert(1)</script>',
  lastName: 'O"Neil & Sons',
  email: 'maria@example.com',
  phone: '(408) 555-0199',
  message: 'Kitchen <b>and</b> 2 baths > 100 sq ft',
  page: 'contact',
};

function post(body: unknown, raw?: string): Request {
  return new Request('http://localhost/functions/v1/notify-telegram', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer anon' },
    body: raw ?? JSON.stringify(body),
  });
}

function expectCors(res: Response) {
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  const allowed = res.headers.get('access-control-allow-headers') ?? '';
  for (const h of ['authorization', 'x-client-info', 'apikey', 'content-type']) expect(allowed).toContain(h);
}

describe('notify-telegram handler', () => {
  it('sends the lead to the Telegram chat as escaped HTML and answers ok', async () => {
    const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    const res = await handler(post(lead));
    expect(res.status).toBe(200);
    expectCors(res);
    expect(await res.json()).toEqual({ ok: true });

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
  });

  it('keeps a 5000-character message under the Telegram limit', async () => {
    const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    const res = await handler(post({ ...lead, message: '&'.repeat(5000) }));
    expect(res.status).toBe(200);
    const text = String(received[0]?.body.text);
    const visible = text.replace(/<[^>]+>/g, '').replace(/&(amp|lt|gt|quot);/g, '_');
    expect(visible.length).toBeLessThanOrEqual(4096);
  });

  it.each([
    ['a Telegram server error', { status: 500, body: { ok: false, description: 'Internal' } }],
    ['ok:false from Telegram', { status: 200, body: { ok: false, description: 'Bad Request: chat not found' } }],
    ['a non-JSON answer', { status: 200, body: 'not json' }],
  ])('answers 502 on %s', async (_label, telegramReply) => {
    reply = telegramReply;
    const { handler, logs } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    const res = await handler(post(lead));
    expect(res.status).toBe(502);
    expectCors(res);
    expect(await res.json()).toMatchObject({ ok: false });
    expect(received).toHaveLength(1);
    expect(logs.join('\n')).not.toContain(TOKEN);
  });

  it('answers 502 when Telegram cannot be reached, without logging the token', async () => {
    const { handler, logs } = handlerWith({ ...secrets, TELEGRAM_API_URL: 'http://127.0.0.1:1' });
    const res = await handler(post(lead));
    expect(res.status).toBe(502);
    expect(logs.join('\n')).not.toContain(TOKEN);
  });

  it.each([
    ['TELEGRAM_BOT_TOKEN', { TELEGRAM_CHAT_ID: '-1001234' }],
    ['TELEGRAM_CHAT_ID', { TELEGRAM_BOT_TOKEN: TOKEN }],
  ])('without %s: logs the message it would send and answers 200 delivered:false', async (missing, env) => {
    const { handler, logs } = handlerWith({ ...env, TELEGRAM_API_URL: apiUrl });
    const res = await handler(post(lead));
    expect(res.status).toBe(200);
    expectCors(res);
    expect(await res.json()).toEqual({ ok: true, delivered: false });
    expect(received).toHaveLength(0);
    const logged = logs.join('\n');
    expect(logged).toContain(missing);
    expect(logged).toContain('Maria &lt;script&gt;');
    expect(logged).toContain('maria@example.com');
  });

  it.each<[string, Request]>([
    ['malformed JSON', post(null, '{"firstName": ')],
    ['an empty body', post(null, '')],
    ['a JSON array', post([lead])],
    ['a missing email', post({ ...lead, email: undefined })],
    ['a bad email', post({ ...lead, email: 'not-an-email' })],
    ['a blank first name', post({ ...lead, firstName: '   ' })],
    ['a number as phone', post({ ...lead, phone: 4085550199 })],
    ['a message over 5000 chars', post({ ...lead, message: 'x'.repeat(5001) })],
    ['a page over 200 chars', post({ ...lead, page: `/${'p'.repeat(200)}` })],
  ])('answers 400 with a JSON error for %s, without calling Telegram', async (_label, req) => {
    const { handler } = handlerWith({ ...secrets, TELEGRAM_API_URL: apiUrl });
    const res = await handler(req);
    expect(res.status).toBe(400);
    expectCors(res);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = (await res.json()) as { ok: boolean; error: string };
    expect(body.ok).toBe(false);
    expect(body.error).toEqual(expect.any(String));
    expect(received).toHaveLength(0);
  });

  it.each(['GET', 'PUT', 'DELETE'])('answers 405 to %s', async (method) => {
    const { handler } = handlerWith(secrets);
    const res = await handler(new Request('http://localhost/functions/v1/notify-telegram', { method }));
    expect(res.status).toBe(405);
    expectCors(res);
    expect(res.headers.get('allow')).toContain('POST');
  });

  it('answers the CORS preflight', async () => {
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
