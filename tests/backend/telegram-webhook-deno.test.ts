/**
 * telegram-webhook as Supabase runs it: index.ts under Deno (offline, npm: imports from
 * node_modules), talking over supabase-js with the service role key to the local stand-in and
 * answering through a fake Telegram. The handler's every branch is telegram-webhook.test.ts (Node,
 * the stand-in's own copy of the function); this file holds the real runtime to the ones that cross
 * it: the secret header, linking over REST, a linked tap with the chat's edit, and a database that
 * cannot be reached.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactedCallbackData } from '../../supabase/functions/_shared/chat/callbackData.js';
import { REPLIES, SECRET_HEADER, TAP_ANSWERS } from '../../supabase/functions/telegram-webhook/handler.js';
import type { LocalBackend } from '../../supabase-standin/backend';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { denoCheck, type DenoFunction } from '../helpers/deno';
import { resetRateLimits } from '../helpers/site';
import { startDenoStack, type DenoStack } from './denoStack';
import { QUOTE } from './inboxDb.js';
import { signedInStaff } from './staffSession.js';
import { privateMessage, tapUpdate } from './telegramUpdates.js';

const TOKEN = '7:deno-webhook-test';
const CHAT = '-100';
const SECRET = 'deno-webhook-secret-0123456789abcdef0123';

let stack: DenoStack;
let telegram: DenoStack['telegram'];
let backend: LocalBackend;
let fn: DenoFunction;
let cutOff: DenoFunction;

beforeAll(async () => {
  // The stand-in sends the lead's message itself (its own notify-telegram) to the same fake.
  stack = await startDenoStack('telegram-webhook', { token: TOKEN, chatId: CHAT, env: { TELEGRAM_WEBHOOK_SECRET: SECRET }, standInChat: true });
  ({ telegram, backend, fn, cutOff } = stack);
});

afterAll(async () => {
  await stack?.close();
});

beforeEach(async () => {
  await resetRateLimits(backend);
});

const deliver = (target: DenoFunction, update: unknown, secret: string | null = SECRET) =>
  fetch(target.url, { method: 'POST', headers: { 'content-type': 'application/json', ...(secret === null ? {} : { [SECRET_HEADER]: secret }) }, body: JSON.stringify(update) });

const phone = { id: 4_200_001, is_bot: false, first_name: 'Lena', last_name: 'Park' };

describe('telegram-webhook under Deno', () => {
  it('type-checks with deno check, offline, its npm imports read from node_modules', async () => {
    const { code, output } = await denoCheck('telegram-webhook');
    expect(output).not.toMatch(/Download/);
    expect(code, output).toBe(0);
  });

  it('answers 401 without the secret, and a linked staff member\'s tap marks the lead contacted and edits the message', async () => {
    const service = createNodeClient(stack.server.url, backend.keys.serviceRoleKey);
    const member = await signedInStaff(stack.server.url, backend.keys, 'deno-tap@example.com');
    const code = ((await member.inbox.rpc('telegram_link_code')).data as { code: string }).code;
    expect((await deliver(fn, privateMessage(phone, `/link ${code}`), null)).status).toBe(401);
    expect((await deliver(fn, privateMessage(phone, `/link ${code}`), 'deno-webhook-secret-0123456789abcdef0124')).status).toBe(401);
    expect(telegram.calls).toEqual([]);

    expect((await deliver(fn, privateMessage(phone, `/link ${code}`))).status).toBe(200);
    expect(telegram.callsOf('sendMessage')).toEqual([expect.objectContaining({ chat_id: phone.id, text: REPLIES.linked(member.email) })]);

    expect((await createNodeClient(stack.server.url, backend.keys.anonKey).from('leads').insert({ ...QUOTE, email: 'deno-lead@example.com' })).error).toBeNull();
    const id = ((await service.from('leads').select('id').eq('email', 'deno-lead@example.com').single()).data as { id: string }).id;
    expect((await service.functions.invoke('notify-telegram', { body: { run: true } })).error).toBeNull();
    const office = () => telegram.delivered().filter((m) => m.chatId === CHAT);
    expect(office()).toHaveLength(1);

    expect((await deliver(fn, tapUpdate(phone, contactedCallbackData({ kind: 'quote', id }), CHAT))).status).toBe(200);
    expect(telegram.callsOf('answerCallbackQuery').map((b) => b.text)).toEqual([TAP_ANSWERS.done]);
    const { data: lead } = await service.from('leads').select('status, first_response_at').eq('id', id).single();
    expect(lead).toMatchObject({ status: 'contacted', first_response_at: expect.any(String) });
    expect(office()[0]!.text).toContain('Called back</b> by Lena Park');
    for (const value of [member.email, 'Lena', String(phone.id), TOKEN, SECRET, code]) expect(fn.output()).not.toContain(value);
  });

  it('ignores an update with ids Telegram never sends (1e20, 1.5): 200, nothing done, the id not logged', async () => {
    telegram.reset();
    const data = contactedCallbackData({ kind: 'quote', id: '0f0f0f0f-0000-4000-8000-000000000001' });
    for (const update of [
      tapUpdate({ ...phone, id: 1e20 }, data, CHAT),
      tapUpdate(phone, data, CHAT, 1.5),
      privateMessage({ ...phone, id: 1e20 }, '/unlink'),
    ]) {
      const res = await deliver(fn, update);
      expect(res.status, JSON.stringify(update)).toBe(200);
    }
    expect(telegram.calls).toEqual([]);
    expect(fn.output()).not.toContain('100000000000000000000');
  });

  it('answers 503 when the database cannot be reached, so Telegram delivers the update again', async () => {
    const res = await deliver(cutOff, tapUpdate(phone, contactedCallbackData({ kind: 'quote', id: '0f0f0f0f-0000-4000-8000-000000000000' }), CHAT));
    expect(res.status).toBe(503);
    await expect.poll(() => cutOff.output()).toMatch(/\[telegram-webhook\] the database could not be reached for telegram_mark_contacted .*; answered 503/);
  });
});
