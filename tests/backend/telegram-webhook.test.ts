/**
 * Answering a lead from the office chat (issue 30), on the `npm start` stack in-process with a fake
 * Telegram: the telegram-webhook function as Telegram calls it, staff signed in to the inbox through
 * supabase-js with the second factor, leads stored by the visitor's client and announced by the
 * chat's pump. Every attack of the issue changes nothing and gets a clear answer; a linked staff
 * member's tap marks the lead contacted as the inbox does and the message says who took it.
 */
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { contactedCallbackData } from '../../supabase/functions/_shared/chat/callbackData.js';
import { DatabaseCallError } from '../../supabase/functions/_shared/chat/database.js';
import { REPLIES, SECRET_HEADER, TAP_ANSWERS } from '../../supabase/functions/telegram-webhook/handler.js';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { staffCommand } from '../../staff/command.js';
import { serviceRoleRpc } from '../../supabase-standin/functions.js';
import { DISCOUNT, QUOTE } from './inboxDb.js';
import { signedInStaff, STAFF_PASSWORD } from './staffSession.js';
import { useLocalStack } from './stack.js';
import { newUpdateId, privateMessage, tapUpdate, type TelegramUser } from './telegramUpdates.js';

const TOKEN = '7000000001:webhook-test-token';
const CHAT = '-1001234567890';
const SECRET = 'webhook-secret-0123456789abcdef-0123456789';
/** The clock of the functions; a test moves it to let a link code expire. */
let clockOffset = 0;
const logs: string[] = [];
const stack = useLocalStack({
  telegramToken: TOKEN, telegramChatId: CHAT, env: { TELEGRAM_WEBHOOK_SECRET: SECRET },
  now: () => new Date(Date.now() + clockOffset), log: (line) => logs.push(line),
});
let counter = 0;

const service = () => createNodeClient(stack.server.url, stack.backend.keys.serviceRoleKey);
const visitor = () => createNodeClient(stack.server.url, stack.backend.keys.anonKey);

/** A staff member signed in to the inbox with the second factor, and their Telegram account. */
async function staffMember() {
  const n = ++counter;
  const member = await signedInStaff(stack.server.url, stack.backend.keys, `tap${n}@example.com`);
  return { ...member, telegram: { id: 880_000 + n, is_bot: false, first_name: `Ana${n}`, last_name: 'Ruiz' } };
}
type Member = Awaited<ReturnType<typeof staffMember>>;
/** A call as Telegram makes it: POST, JSON, the secret header (unless `secret` says otherwise). */
function deliver(update: Record<string, unknown>, secret: string | null = SECRET, init: RequestInit = {}): Promise<Response> {
  return fetch(`${stack.server.url}/functions/v1/telegram-webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret === null ? {} : { [SECRET_HEADER]: secret }) },
    body: JSON.stringify(update),
    ...init,
  });
}

/** A tap on a lead message's button in the office chat. */
const tap = (from: TelegramUser, data: string, id?: number) => tapUpdate(from, data, CHAT, id);

async function newCode(member: Member): Promise<string> {
  const { data, error } = await member.inbox.rpc('telegram_link_code');
  expect(error).toBeNull();
  return (data as { code: string }).code;
}

async function link(member: Member): Promise<void> {
  const res = await deliver(privateMessage(member.telegram, `/link ${await newCode(member)}`));
  expect(res.status).toBe(200);
  expect(stack.telegram.callsOf('sendMessage').at(-1)).toMatchObject({ chat_id: member.telegram.id, text: REPLIES.linked(member.email) });
}

const linkStatus = async (member: Member) => (await member.inbox.rpc('telegram_link_status')).data as { linked: boolean; displayName?: string };

/** A quote stored by the visitor's client and announced in the chat by the pump; its button's data. */
async function announcedQuote() {
  const email = `lead${++counter}@example.com`;
  expect((await visitor().from('leads').insert({ ...QUOTE, email })).error).toBeNull();
  const { data } = await service().from('leads').select('id').eq('email', email).single();
  const id = (data as { id: string }).id;
  expect((await service().functions.invoke('notify-telegram', { body: { run: true } })).error).toBeNull();
  const message = stack.telegram.delivered().find((m) => JSON.stringify(m.replyMarkup ?? '').includes(id));
  expect(message, 'the lead was announced with its button').toBeDefined();
  return { id, data: contactedCallbackData({ kind: 'quote', id }), message: message! };
}

const answers = () => stack.telegram.callsOf('answerCallbackQuery').map((b) => b.text);

async function leadState(id: string, table = 'leads') {
  const { data } = await service().from(table).select('status, first_response_at').eq('id', id).single();
  const { data: events } = await service().from('lead_events').select('actor, actor_email, action, from_status, to_status, detail').eq('lead_id', id);
  return { ...(data as { status: string; first_response_at: string | null }), events: events ?? [] };
}

const untouched = { status: 'new', first_response_at: null, events: [] };

describe('telegram-webhook refuses everyone but Telegram', () => {
  it.each([
    ['no secret header', null],
    ['a wrong secret', 'webhook-secret-0123456789abcdef-0123456788'],
    ['an empty secret', ''],
  ])('answers 401 to %s, before reading the update, and changes nothing', async (_what, secret) => {
    const member = await staffMember();
    await link(member);
    const lead = await announcedQuote();
    stack.telegram.reset();
    const res = await deliver(tap(member.telegram, lead.data), secret);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ ok: false, error: 'Unauthorized' });
    expect(await leadState(lead.id)).toEqual(untouched);
    expect(stack.telegram.calls).toEqual([]);
    // nor can a forged /link use a code it somehow saw
    const code = await newCode(member);
    expect((await deliver(privateMessage({ ...member.telegram, id: 1234 }, `/link ${code}`), secret)).status).toBe(401);
    expect(await linkStatus(member)).toMatchObject({ linked: true, displayName: `${member.telegram.first_name} Ruiz` });
  });

  it('answers 405 to a GET and 415 to a body that is not JSON, even with the secret', async () => {
    const get = await fetch(`${stack.server.url}/functions/v1/telegram-webhook`, { headers: { [SECRET_HEADER]: SECRET } });
    expect(get.status).toBe(405);
    const text = await deliver({}, SECRET, { headers: { 'content-type': 'text/plain', [SECRET_HEADER]: SECRET }, body: 'update_id=1' });
    expect(text.status).toBe(415);
    const big = await deliver({}, SECRET, { body: JSON.stringify({ update_id: 1, message: { text: 'x'.repeat(70_000) } }) });
    expect(big.status).toBe(413);
  });
});

describe('a tap on "Called back"', () => {
  it('by a linked staff member marks the lead contacted as the inbox does, and the message says who took it', async () => {
    const member = await staffMember();
    await link(member);
    const lead = await announcedQuote();
    const res = await deliver(tap(member.telegram, lead.data));
    expect(res.status).toBe(200);
    expect(answers()).toEqual([TAP_ANSWERS.done]);
    const state = await leadState(lead.id);
    expect(state.status).toBe('contacted');
    expect(state.first_response_at).not.toBeNull();
    expect(state.events).toEqual([{ actor: member.userId, actor_email: member.email, action: 'status', from_status: 'new', to_status: 'contacted', detail: { via: 'telegram' } }]);
    // the edit went out before the webhook answered: the chat shows who took it, without the button
    const edited = stack.telegram.delivered().find((m) => m.messageId === lead.message.messageId)!;
    expect(edited.edits).toBe(1);
    expect(edited.text).toContain(`Called back</b> by ${member.telegram.first_name} Ruiz`);
    expect(JSON.stringify(edited.replyMarkup ?? '')).not.toContain('callback_data');
    // what the inbox's figures count
    const { data: stats } = await member.inbox.rpc('inbox_stats');
    expect((stats as { medianResponseSeconds: number | null }).medianResponseSeconds).not.toBeNull();
    // the log says what happened, naming nobody
    const lines = logs.join('\n');
    expect(lines).toContain('[telegram-webhook] "Called back" tap: done');
    for (const value of [member.email, member.telegram.first_name, String(member.telegram.id), TOKEN, SECRET, QUOTE.phone]) expect(lines).not.toContain(value);
  });

  it('by someone in the chat whose Telegram is not linked: "not allowed", nothing changes', async () => {
    const lead = await announcedQuote();
    stack.telegram.reset();
    expect((await deliver(tap({ id: 777_001, is_bot: false, first_name: 'Guest' }, lead.data))).status).toBe(200);
    expect(answers()).toEqual([TAP_ANSWERS.notLinked]);
    expect(await leadState(lead.id)).toEqual(untouched);
    expect(stack.telegram.callsOf('editMessageText')).toEqual([]);
  });

  it('replayed (the same update again) changes nothing the second time', async () => {
    const member = await staffMember();
    await link(member);
    const lead = await announcedQuote();
    const update = tap(member.telegram, lead.data);
    expect((await deliver(update)).status).toBe(200);
    // staff set it back to new in the inbox; the old update must not take it again
    expect((await member.inbox.rpc('set_lead_status', { p_kind: 'quote', p_id: lead.id, p_status: 'new' })).error).toBeNull();
    expect((await deliver(update)).status).toBe(200);
    expect(answers()).toEqual([TAP_ANSWERS.done, TAP_ANSWERS.replayed]);
    const state = await leadState(lead.id);
    expect(state.status).toBe('new');
    expect(state.events.map((e) => e.to_status)).toEqual(['contacted', 'new']);
  });

  it.each([
    ['removed with npm run staff -- remove', 'remove', ''],
    ['reset with npm run staff -- reset (a lost phone)', 'reset', `new-${STAFF_PASSWORD}\nnew-${STAFF_PASSWORD}\n`],
  ])('by a staff member %s: unlinked at once, "not allowed", nothing changes', async (_what, command, stdin) => {
    const member = await staffMember();
    await link(member);
    const lead = await announcedQuote();
    expect(await staff([command, member.email], stdin)).toBe(0);
    expect((await deliver(tap(member.telegram, lead.data))).status).toBe(200);
    expect(answers()).toEqual([TAP_ANSWERS.notLinked]);
    expect(await leadState(lead.id)).toEqual(untouched);
  });

  it('naming a lead of the other kind, an unknown lead, or one already taken: a clear answer, nothing changes', async () => {
    const member = await staffMember();
    await link(member);
    const lead = await announcedQuote();
    expect((await visitor().from('discount_leads').insert({ ...DISCOUNT, email: `d${++counter}@example.com` })).error).toBeNull();
    const { data: discount } = await service().from('discount_leads').select('id').order('created_at', { ascending: false }).limit(1).single();
    const discountId = (discount as { id: string }).id;
    stack.telegram.reset();
    await deliver(tap(member.telegram, contactedCallbackData({ kind: 'discount', id: lead.id })));
    await deliver(tap(member.telegram, contactedCallbackData({ kind: 'quote', id: discountId })));
    await deliver(tap(member.telegram, contactedCallbackData({ kind: 'quote', id: '0f0f0f0f-0000-4000-8000-000000000000' })));
    await deliver(tap(member.telegram, `contacted:quote:${lead.id}:extra`)); // not our button's shape: ignored
    expect(answers()).toEqual([TAP_ANSWERS.wrongKind, TAP_ANSWERS.wrongKind, TAP_ANSWERS.unknown]);
    expect(await leadState(lead.id)).toEqual(untouched);
    expect((await leadState(discountId, 'discount_leads')).status).toBe('new');

    const other = await staffMember();
    expect((await other.inbox.rpc('set_lead_status', { p_kind: 'quote', p_id: lead.id, p_status: 'booked' })).error).toBeNull();
    await deliver(tap(member.telegram, lead.data));
    expect(answers().at(-1)).toBe(`Already booked by ${other.email}`);
    expect((await leadState(lead.id)).events).toHaveLength(1);
  });
});

describe('linking a phone: /link CODE in a private chat with the bot', () => {
  it('fails with a wrong, an expired or a used code, and with one posted in the group; succeeds with the right one', async () => {
    const member = await staffMember();
    const replies = () => stack.telegram.callsOf('sendMessage').filter((b) => b.chat_id === member.telegram.id).map((b) => b.text);

    await deliver(privateMessage(member.telegram, '/link 0123456789AB'));
    const expired = await newCode(member);
    clockOffset = 11 * 60_000;
    await deliver(privateMessage(member.telegram, `/link ${expired}`));
    clockOffset = 0;
    expect(replies()).toEqual([REPLIES.invalidCode, REPLIES.invalidCode]);
    expect(await linkStatus(member)).toEqual({ linked: false });

    // in the group the bot says nothing, links nobody, and the code everyone saw there stops working
    const seen = await newCode(member);
    const group = { update_id: newUpdateId(), message: { message_id: 9, date: 1, chat: { id: Number(CHAT), type: 'supergroup' }, from: member.telegram, text: `/link@bayshine_leads_bot ${seen}` } };
    expect((await deliver(group)).status).toBe(200);
    expect(stack.telegram.callsOf('sendMessage').filter((b) => b.chat_id === Number(CHAT))).toEqual([]);
    expect(await linkStatus(member)).toEqual({ linked: false });
    await deliver(privateMessage({ id: 777_003, is_bot: false, first_name: 'Colleague' }, `/link ${seen}`));
    expect(stack.telegram.callsOf('sendMessage').at(-1)).toEqual(expect.objectContaining({ chat_id: 777_003, text: REPLIES.invalidCode }));

    // the deep link's /start CODE works as /link CODE
    const code = await newCode(member);
    await deliver(privateMessage(member.telegram, `/start ${code}`));
    expect(replies().at(-1)).toBe(REPLIES.linked(member.email));
    expect(await linkStatus(member)).toMatchObject({ linked: true, displayName: `${member.telegram.first_name} Ruiz` });

    // used: someone else who saw it cannot take it over
    const stranger = { id: 777_002, is_bot: false, first_name: 'Mallory' };
    await deliver(privateMessage(stranger, `/link ${code}`));
    expect(stack.telegram.callsOf('sendMessage').at(-1)).toEqual(expect.objectContaining({ chat_id: stranger.id, text: REPLIES.invalidCode }));

    // /unlink from the phone
    await deliver(privateMessage(member.telegram, '/unlink'));
    expect(replies().at(-1)).toBe(REPLIES.unlinked);
    expect(await linkStatus(member)).toEqual({ linked: false });
  });

  it('answers /start alone with how to link, and ignores other updates', async () => {
    const member = await staffMember();
    await deliver(privateMessage(member.telegram, '/start'));
    expect(stack.telegram.callsOf('sendMessage').at(-1)).toMatchObject({ chat_id: member.telegram.id, text: REPLIES.help });
    stack.telegram.reset();
    for (const update of [
      privateMessage(member.telegram, 'hello'),
      { update_id: newUpdateId(), edited_message: { message_id: 1, chat: { id: 1, type: 'private' } } },
      { update_id: newUpdateId(), callback_query: { id: 'x', from: member.telegram, data: 'something:else' } },
      { not: 'an update' },
    ]) expect((await deliver(update)).status).toBe(200);
    expect(stack.telegram.calls).toEqual([]);
  });

  it('ignores updates with ids Telegram never sends (not safe integers): 200, nothing done, nothing personal logged', async () => {
    const member = await staffMember();
    await link(member);
    const lead = await announcedQuote();
    stack.telegram.reset();
    const logged = logs.length;
    const huge = 1e20; // beyond bigint; JSON carries it as 100000000000000000000
    const beyondSafe = 2 ** 53 + 2; // a bigint, but not the id that was sent: JSON numbers past 2^53 round
    const as = (id: number) => ({ ...member.telegram, id });
    for (const update of [
      tap(as(huge), lead.data),
      tap(as(beyondSafe), lead.data),
      tap(member.telegram, lead.data, 1.5),
      tap(member.telegram, lead.data, huge),
      privateMessage(as(huge), '/unlink'),
      privateMessage(as(-huge), '/unlink'),
      privateMessage(as(beyondSafe), '/link 12345678'),
      privateMessage(member.telegram, '/unlink', 1.5),
      { ...privateMessage(member.telegram, '/unlink'), message: { ...privateMessage(member.telegram, '/unlink').message, chat: { id: 0.5, type: 'private' } } },
    ]) {
      const res = await deliver(update);
      expect(res.status, JSON.stringify(update)).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
    }
    expect(stack.telegram.calls).toEqual([]);
    // Nothing was done: the lead is untouched and the member is still linked.
    expect(await leadState(lead.id)).toEqual(untouched);
    expect(await linkStatus(member)).toMatchObject({ linked: true });
    const lines = logs.slice(logged);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toBe('[telegram-webhook] an update of a shape it does not read: ignored');

    // Such an id reaching the database (the cause of the 500 this answered): refused as a bigint,
    // and the error, which is logged, does not quote it.
    const refused = await serviceRoleRpc(stack.backend.db)('telegram_unlink_account', { p_telegram_user_id: huge }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DatabaseCallError);
    expect(refused).toMatchObject({ code: '22003' });
    expect((refused as Error).message).not.toContain('100000000000000000000');
  });
});

/** `npm run staff -- <args>` against the stack, the answers (passwords) on stdin. */
async function staff(args: string[], input = ''): Promise<number> {
  const out = new PassThrough();
  out.resume();
  const env = { SUPABASE_URL: stack.server.url, SUPABASE_SERVICE_ROLE_KEY: stack.backend.keys.serviceRoleKey };
  return staffCommand(args, { stdin: Readable.from([input]), stdout: out, stderr: out, env, root: stack.dir });
}
