/**
 * Every stored lead reaches the office chat exactly once (issue 30, item 1), on the `npm start`
 * stack: the stand-in with the real migrations and edge function, its scheduled jobs (pg_cron's and
 * pg_net's, run by the test at the minute it chooses), and a fake Telegram that answers like
 * Telegram (502 while down, 429 with retry_after past 20 messages a minute). The clock of the
 * functions, the jobs and the fake's limit is one injected clock: the tests move it, never sleep.
 * Each test also prints how long its leads took from insert to the chat by that clock.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { Agent, fetch as undiciFetch } from 'undici';
import { describe, expect, it } from 'vitest';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { useLocalStack } from './stack';

let offset = 0;
const now = () => new Date(Date.now() + offset);
/** Moves the shared clock on. */
const advance = (ms: number) => {
  offset += ms;
};

const stack = useLocalStack({ telegramToken: '42:delivery', telegramChatId: '-100777', persistent: true, now });

/**
 * A visitor at loopback address `ip` (the stand-in takes the client's address from the socket, as
 * Supabase's gateway does: each burst lead comes from its own address, as from 25 phones).
 */
function visitor(ip = '127.0.0.1'): SupabaseClient {
  const dispatcher = new Agent({ localAddress: ip });
  const viaAddress = ((input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(input, { ...init, dispatcher })) as unknown as typeof fetch;
  return createNodeClient(stack.server.url, stack.backend.keys.anonKey, { global: { fetch: viaAddress } });
}

let serial = 0;
function quote(tag: string) {
  serial++;
  return {
    first_name: `Ana${serial}`,
    last_name: 'Reyes',
    email: `${tag}-${serial}@example.com`,
    phone: '(650) 555-0123',
    message: `Deep clean before a move (${tag} ${serial}).`,
    page: 'contact' as const,
  };
}

type Quote = ReturnType<typeof quote>;

/** Stores the lead as the form does (the anon insert); `call`: then the browser's notify call. */
async function submit(lead: Quote, { call = true, ip }: { call?: boolean; ip?: string } = {}) {
  const client = visitor(ip);
  const { error } = await client.from('leads').insert(lead);
  expect(error).toBeNull();
  const insertedAt = now();
  if (!call) return { insertedAt, response: undefined };
  const response = await client.functions.invoke('notify-telegram', {
    body: { firstName: lead.first_name, lastName: lead.last_name, email: lead.email, phone: lead.phone, message: lead.message, page: lead.page },
  });
  return { insertedAt, response };
}

/** The chat's messages about this lead. */
const messagesAbout = (lead: Quote) => stack.telegram.delivered().filter((m) => m.text.includes(lead.email));

/** One pass of the scheduler at the clock's minute: pg_cron's job, then pg_net's request to the function. */
const scheduledRun = () => stack.backend.runScheduledJobs(now());

function report(label: string, insertedAt: Date, lead: Quote) {
  const message = messagesAbout(lead)[0];
  const seconds = message ? (message.at.getTime() - insertedAt.getTime()) / 1000 : Number.NaN;
  console.log(`[delivery] ${label}: insert to message ${seconds.toFixed(1)} s (clock of the test)`);
}

describe('every stored lead reaches the office chat exactly once', () => {
  it('the browser\'s call sends the lead at once, with the "Called back" button, and the run sends it no second time', async () => {
    const lead = quote('fast');
    const { insertedAt, response } = await submit(lead);
    expect(response?.error).toBeNull();
    const [message, ...more] = messagesAbout(lead);
    expect(more).toEqual([]);
    const { rows } = await stack.backend.db.query<{ id: string }>('SELECT id FROM public.leads WHERE email = $1', [lead.email]);
    expect(message!.replyMarkup).toEqual({ inline_keyboard: [[{ text: '📞 Called back', callback_data: `contacted:quote:${rows[0]!.id}` }]] });
    expect(message!.text).toContain(`<a href="${stack.server.url}/leads#lead/quote/${rows[0]!.id}">`);
    report('browser call', insertedAt, lead);
    advance(61_000);
    await scheduledRun();
    expect(messagesAbout(lead)).toHaveLength(1);
  });

  it('a stored lead whose call never came is sent by the scheduled run; the late call then sends nothing twice', async () => {
    const lead = quote('no-call');
    const { insertedAt } = await submit(lead, { call: false });
    expect(messagesAbout(lead)).toEqual([]);
    advance(30_000); // the next minute's run
    await scheduledRun();
    expect(messagesAbout(lead)).toHaveLength(1);
    report('no call, next scheduled run', insertedAt, lead);
    const late = await visitor().functions.invoke('notify-telegram', {
      body: { firstName: lead.first_name, lastName: lead.last_name, email: lead.email, phone: lead.phone, message: lead.message, page: lead.page },
    });
    expect(late.error).toBeNull();
    expect(messagesAbout(lead)).toHaveLength(1);
  });

  it('while Telegram is down (502) the lead waits and is retried with backoff; once Telegram is back it is sent once', async () => {
    stack.telegram.state.down = true;
    const lead = quote('down');
    const { insertedAt, response } = await submit(lead);
    expect(response?.error).toBeNull(); // stored and claimed: the visitor is told nothing else
    expect(messagesAbout(lead)).toEqual([]);
    const tries = () => stack.telegram.calls.filter((c) => c.path.endsWith('/sendMessage') && String(c.body.text).includes(lead.email)).length;
    expect(tries()).toBe(1);

    // Backoff: the run 10 s later does not try again; after the first wait (30 s) it does.
    advance(10_000);
    await scheduledRun();
    expect(tries()).toBe(1);
    advance(25_000);
    await scheduledRun();
    expect(tries()).toBe(2);
    const { data } = await stack.backend.db.query<{ status: Record<string, unknown> }>('SELECT public.chat_delivery_status($1) AS status', [now()])
      .then((r) => ({ data: r.rows[0]!.status }));
    expect(data).toMatchObject({ waiting: 1, lastError: 'Telegram answered 502: Bad Gateway' });

    stack.telegram.state.down = false;
    advance(5 * 60_000);
    await scheduledRun();
    expect(messagesAbout(lead)).toHaveLength(1);
    report('Telegram down 6 min, then back', insertedAt, lead);
    advance(60_000);
    await scheduledRun();
    expect(messagesAbout(lead)).toHaveLength(1);
  });

  it('one 429 with retry_after: every message waits as long as Telegram asked, then the lead is sent once', async () => {
    stack.telegram.state.reply = { status: 429, body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 7', parameters: { retry_after: 7 } } };
    const lead = quote('429');
    const { insertedAt } = await submit(lead);
    stack.telegram.state.reply = undefined;
    expect(messagesAbout(lead)).toEqual([]);
    advance(5_000);
    await scheduledRun(); // still inside retry_after: not tried
    expect(stack.telegram.calls.filter((c) => String(c.body.text).includes(lead.email))).toHaveLength(1);
    advance(3_000);
    await scheduledRun();
    expect(messagesAbout(lead)).toHaveLength(1);
    report('one 429 (retry_after 7 s)', insertedAt, lead);
  });

  it('a burst of 25 leads from 25 addresses is delivered in order of arrival within two minutes, without a 429', async () => {
    advance(2 * 60_000); // a minute of the budget of its own
    const leads = Array.from({ length: 25 }, () => quote('burst'));
    const inserted: Date[] = [];
    for (const [i, lead] of leads.entries()) inserted.push((await submit(lead, { ip: `127.0.3.${i + 1}` })).insertedAt);
    const sentFirst = leads.filter((l) => messagesAbout(l).length === 1).length;
    expect(sentFirst).toBe(18); // the budget of a minute, under Telegram's 20
    advance(61_000);
    await scheduledRun();
    const chat = stack.telegram.delivered().filter((m) => m.text.includes('burst-'));
    expect(chat.map((m) => /burst-\d+@/.exec(m.text)![0])).toEqual(leads.map((l) => /burst-\d+@/.exec(l.email)![0]));
    expect(stack.telegram.state.tooMany).toBe(0);
    const last = leads.at(-1)!;
    report('burst of 25, the last one', inserted.at(-1)!, last);
    expect(messagesAbout(last)[0]!.at.getTime() - inserted[0]!.getTime()).toBeLessThanOrEqual(2 * 60_000);
  });

  it('npm start stopped while Telegram has not taken the message: after the restart it is sent, once', async () => {
    advance(2 * 60_000);
    const lead = quote('restart');
    const held = stack.telegram.hold();
    const submitted = submit(lead).catch(() => undefined); // its call is cut off with the server
    await held; // the message is on its way to Telegram, not taken yet
    const insertedAt = now();
    await stack.restart();
    await submitted;
    expect(messagesAbout(lead)).toEqual([]);
    await scheduledRun();
    expect(messagesAbout(lead)).toHaveLength(1);
    report('npm start restarted mid-delivery', insertedAt, lead);
    advance(2 * 60_000);
    await scheduledRun();
    expect(messagesAbout(lead)).toHaveLength(1);
  });

  it('probe leads are never sent, by the call or by the run', async () => {
    const { rows } = await stack.backend.db.query<{ token: string }>('SELECT public.issue_probe_token()::text AS token');
    const lead = { ...quote('probe'), message: `lead probe ${rows[0]!.token}` };
    await submit(lead);
    advance(61_000);
    await scheduledRun();
    expect(messagesAbout(lead)).toEqual([]);
  });

  it('a message still refused after a day is given up on: the inbox shows the failure and the doctor\'s status counts it', async () => {
    stack.telegram.state.down = true;
    const lead = quote('give-up');
    await submit(lead, { call: false });
    for (let hour = 0; hour < 25; hour++) {
      advance(60 * 60_000);
      await scheduledRun();
    }
    stack.telegram.state.down = false;
    const { rows } = await stack.backend.db.query<{ notify_failed_at: Date | null }>('SELECT notify_failed_at FROM public.leads WHERE email = $1', [lead.email]);
    expect(rows[0]!.notify_failed_at).toBeInstanceOf(Date);
    const status = (await stack.backend.db.query<{ s: { gaveUpLastWeek: number } }>('SELECT public.chat_delivery_status($1) AS s', [now()])).rows[0]!.s;
    expect(status.gaveUpLastWeek).toBeGreaterThanOrEqual(1);
    advance(60_000);
    await scheduledRun();
    expect(messagesAbout(lead)).toEqual([]);
  });
});
