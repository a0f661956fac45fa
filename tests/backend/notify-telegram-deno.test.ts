/**
 * notify-telegram as Supabase runs it: index.ts under Deno (the package `deno` of devDependencies,
 * offline, npm: imports from node_modules), talking over supabase-js with the service role key to
 * the local database stand-in (generator/serve, in memory) and sending to a fake Telegram. The
 * handler's every branch is tested in Node (notify-telegram.test.ts); this file holds the real
 * runtime to the ones that cross it: the key, the content type, claim and replay over REST, the
 * failure record, and a database that cannot be reached.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LocalBackend } from '../../supabase-standin/backend';
import { denoCheck, type DenoFunction } from '../helpers/deno';
import { resetRateLimits } from '../helpers/site';
import { startDenoStack, type DenoStack } from './denoStack';

const TOKEN = '7:deno-test';
const SITE_URL = 'https://www.bayshinecleaning.com';

let stack: DenoStack;
let telegram: DenoStack['telegram'];
let backend: LocalBackend;
let fn: DenoFunction;
let cutOff: DenoFunction;
let supabase: SupabaseClient;

beforeAll(async () => {
  stack = await startDenoStack('notify-telegram', { token: TOKEN, chatId: '-100', env: { SITE_URL } });
  ({ telegram, backend, fn, cutOff } = stack);
  supabase = createNodeClient(stack.server.url, backend.keys.anonKey);
});

afterAll(async () => {
  await stack?.close();
});

beforeEach(async () => {
  await resetRateLimits(backend);
  telegram.reset();
});

const row = { first_name: 'Lena', last_name: 'Park', email: 'lena@example.com', phone: '(415) 555-0142', message: 'Recurring clean, 2 bedrooms.', page: 'contact' as const };
const bodyOf = (lead: typeof row) => ({ firstName: lead.first_name, lastName: lead.last_name, email: lead.email, phone: lead.phone, message: lead.message, page: lead.page });

/** A call as supabase-js's functions.invoke makes it: apikey and Bearer set to the anon key. */
function call(target: DenoFunction, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const key = backend.keys.anonKey;
  return fetch(target.url, {
    method: 'POST',
    headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function storeLead(lead: typeof row): Promise<string> {
  expect((await supabase.from('leads').insert(lead)).error).toBeNull();
  const { rows } = await backend.db.query<{ id: string }>('SELECT id FROM public.leads WHERE email = $1', [lead.email]);
  return rows[0]!.id;
}

describe('notify-telegram under Deno', () => {
  it('type-checks with deno check, offline, its npm imports read from node_modules', async () => {
    const { code, output } = await denoCheck();
    expect(output).not.toMatch(/Download/);
    expect(code, output).toBe(0);
  });

  it('answers 401 without the project\'s key, claiming and sending nothing', async () => {
    const res = await fetch(fn.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(bodyOf(row)) });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ ok: false, error: 'Invalid API key' });
    expect(telegram.calls).toHaveLength(0);
  });

  it('answers 415 to a body that is not JSON', async () => {
    const res = await call(fn, bodyOf(row), { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(telegram.calls).toHaveLength(0);
  });

  it('sends one message for one stored lead, linked to it in the inbox; the replay gets 404', async () => {
    const lead = { ...row, email: 'once@example.com' };
    const id = await storeLead(lead);
    const res = await call(fn, bodyOf(lead));
    expect(await res.json()).toEqual({ ok: true, sent: 1 });
    expect(res.status).toBe(200);
    expect(telegram.calls).toHaveLength(1);
    expect(telegram.calls[0]!.path).toBe(`/bot${TOKEN}/sendMessage`);
    const text = String(telegram.calls[0]!.body.text);
    expect(text).toContain('Recurring clean, 2 bedrooms.');
    expect(text).toContain(`<a href="${SITE_URL}/leads#lead/quote/${id}">`);
    const { rows } = await backend.db.query<{ notified_at: Date | null }>('SELECT notified_at FROM public.leads WHERE id = $1', [id]);
    expect(rows[0]!.notified_at).toBeInstanceOf(Date);

    const replay = await call(fn, bodyOf(lead));
    expect(replay.status).toBe(404);
    expect(telegram.calls).toHaveLength(1);
  });

  it('announces a Spanish lead (lang es, stored over REST as the Spanish pages\' form stores it) with its language first', async () => {
    const lead = { ...row, email: 'lucia.es@example.com', first_name: 'Lucía', last_name: 'Hernández', message: 'Limpieza profunda, por favor.' };
    expect((await supabase.from('leads').insert({ ...lead, lang: 'es' })).error).toBeNull();
    const res = await call(fn, bodyOf(lead));
    expect(await res.json()).toEqual({ ok: true, sent: 1 });
    const [first, ...rest] = String(telegram.calls[0]!.body.text).split('\n');
    expect(first).toBe('🇪🇸 <b>Spanish — call back in Spanish</b>');
    expect(rest[0]).toBe('<b>New lead</b> from <code>contact</code>');
    expect(rest).toContain('<b>Name:</b> Lucía Hernández');
    expect(rest.at(-1)).toBe('Limpieza profunda, por favor.');
  });

  it('announces an English lead as before: no language line', async () => {
    const lead = { ...row, email: 'english.lead@example.com' };
    expect((await supabase.from('leads').insert({ ...lead, lang: 'en' })).error).toBeNull();
    await call(fn, bodyOf(lead));
    expect(String(telegram.calls[0]!.body.text).split('\n')[0]).toBe('<b>New lead</b> from <code>contact</code>');
  });

  it('answers 404 for a lead that was never stored', async () => {
    expect((await call(fn, bodyOf({ ...row, email: 'never-stored@example.com' }))).status).toBe(404);
    expect(telegram.calls).toHaveLength(0);
  });

  it('keeps a refused message in the outbox; the scheduled run (the Vault secret, as pg_net sends it) sends it once Telegram takes it', async () => {
    const lead = { ...row, email: 'refused@example.com' };
    const id = await storeLead(lead);
    telegram.state.reply = { status: 400, body: { ok: false, description: 'Bad Request: chat not found' } };
    const res = await call(fn, bodyOf(lead));
    expect([res.status, await res.json()]).toEqual([200, { ok: true, sent: 0, waiting: 'paused' }]);
    const waiting = await backend.db.query<{ last_error: string }>("SELECT last_error FROM private.chat_outbox WHERE what = 'lead' AND quote_id = $1 AND sent_at IS NULL", [id]);
    expect(waiting.rows).toEqual([{ last_error: 'Telegram answered 400: Bad Request: chat not found' }]);

    // The owner fixed the chat; the backoff is over (the function's clock is Deno's own here).
    telegram.state.reply = undefined;
    await backend.db.exec("UPDATE private.chat_state SET paused_until = NULL; UPDATE private.chat_outbox SET next_attempt_at = now() WHERE sent_at IS NULL");
    const secret = (await backend.db.query<{ s: string }>('SELECT public.chat_run_secret() AS s')).rows[0]!.s;
    const run = await fetch(fn.url, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: '{"run": true}' });
    expect(run.status).toBe(200);
    expect(((await run.json()) as { sent: number }).sent).toBeGreaterThanOrEqual(1);
    expect(telegram.delivered().filter((m) => m.text.includes(lead.email))).toHaveLength(1);
  });

  it('answers 503 when the database cannot be reached, with a clear log line that holds no visitor data', async () => {
    const lead = { ...row, email: 'unreachable@example.com' };
    const res = await call(cutOff, bodyOf(lead));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ ok: false, error: 'The database is unavailable, please try again in a minute' });
    expect(telegram.calls).toHaveLength(0);
    // Deno writes the line before the answer leaves, and the output pipe may lag behind it.
    await expect.poll(() => cutOff.output()).toMatch(/\[notify-telegram\] the database could not be reached for claim_lead_for_notification \(no answer: .+\); answered 503/);
    for (const value of [lead.email, lead.phone, lead.first_name, lead.last_name, 'Recurring']) expect(cutOff.output()).not.toContain(value);
  });
});
