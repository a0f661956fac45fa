/**
 * Reminders and the morning summary on the `npm start` stack (issue 30): leads stored by visitors
 * through supabase-js; the run's planner (supabase/functions/_shared/chat/office.ts) talking to the
 * database with the service role key; and the whole scheduled run (pg_cron's job, pg_net's call of
 * notify-telegram, which reads the site's /office-hours.json and sends to a fake Telegram). One
 * injected clock for all of it. The office is open Mon-Sat 9 AM-6 PM in Los Angeles (November
 * 2026: UTC-8), reminders after 15 minutes. Where a lead must have arrived at a fixed time, the
 * owner connection sets it, as if the visitor had sent it then (its message in the outbox too).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { planOfficeMessages, type Rpc } from '../../supabase/functions/_shared/chat/office';
import { OFFICE_HOURS_PATH, type OfficeHours } from '../../supabase/functions/_shared/chat/officeHours';
import { HOURS } from './officeHoursFixture';
import { useLocalStack } from './stack';


/** Pacific wall-clock times of late November 2026 (PST, UTC-8) as instants. */
const pst = (local: string) => new Date(`${local}-08:00`);
const FRIDAY = '2026-11-20';
const SATURDAY = '2026-11-21';
const SUNDAY = '2026-11-22';
const MONDAY = '2026-11-23';
const TUESDAY = '2026-11-24';

/** The clock of the functions, the scheduled jobs and the fake Telegram. */
let clock = pst(`${MONDAY}T08:00`);
const stack = useLocalStack({ telegramToken: '7:reminders', telegramChatId: '-100', now: () => clock });
let service: SupabaseClient;
let rpc: Rpc;
let visitors = 0;
let logs: string[] = [];

beforeAll(() => {
  // What the build publishes from content/site.yaml; the run reads it from the site's address.
  writeFileSync(join(stack.dir, 'dist', OFFICE_HOURS_PATH), JSON.stringify(HOURS));
  service = createNodeClient(stack.server.url, stack.backend.keys.serviceRoleKey);
  rpc = async (fn, args) => {
    const { data, error } = await service.rpc(fn, args);
    if (error) throw Object.assign(new Error(error.message), { code: error.code });
    return data;
  };
});

beforeEach(async () => {
  // Every test starts with no leads, an empty outbox, and a chat nobody holds or paused.
  await stack.backend.db.exec(`delete from public.leads; delete from public.discount_leads; delete from private.chat_outbox;
    delete from private.chat_sends; update private.chat_state set sender = null, sender_until = null, paused_until = null, failures = 0, last_error = null;`);
  logs = [];
});

/** A visitor (an address of its own) sends a quote request; it is stored as if sent at `at`. */
async function quoteAt(at: Date, name = 'Maria'): Promise<string> {
  const email = `${name.toLowerCase()}.${++visitors}@example.com`;
  const visitor = createNodeClient(stack.server.url, stack.backend.keys.anonKey, {
    global: { headers: { 'cf-connecting-ip': `198.51.100.${visitors % 250}` } },
  });
  const { error } = await visitor.from('leads').insert({
    first_name: name, last_name: 'Lopez', email, phone: '(408) 555-0100', message: 'Deep cleaning of a 3 bedroom house, please.', page: 'contact',
  });
  expect(error).toBeNull();
  const { rows } = await stack.backend.db.query<{ id: string }>('update public.leads set created_at = $1 where email = $2 returning id', [at, email]);
  await arrivedAt(rows[0]!.id, at);
  return rows[0]!.id;
}

/** The lead's own message waits in the outbox from `at`, as it would have since its arrival. */
async function arrivedAt(id: string, at: Date): Promise<void> {
  await stack.backend.db.query(
    "update private.chat_outbox set created_at = $1, next_attempt_at = $1 where what = 'lead' and coalesce(quote_id, discount_id) = $2", [at, id]);
}

/** A visitor signs up for the discount, as if at `at`. */
async function discountAt(at: Date): Promise<string> {
  const email = `discount.${++visitors}@example.com`;
  const visitor = createNodeClient(stack.server.url, stack.backend.keys.anonKey, {
    global: { headers: { 'cf-connecting-ip': `203.0.113.${visitors % 250}` } },
  });
  const { error } = await visitor.from('discount_leads').insert({ email, phone: '(408) 555-0199', page: '/' });
  expect(error).toBeNull();
  const { rows } = await stack.backend.db.query<{ id: string }>('update public.discount_leads set created_at = $1 where email = $2 returning id', [at, email]);
  await arrivedAt(rows[0]!.id, at);
  return rows[0]!.id;
}

/** The planner's run at `now`. */
const runAt = (now: Date, hours: OfficeHours = HOURS) =>
  planOfficeMessages({ rpc, now: () => now, settings: { hours }, log: (m) => logs.push(m) });

/** The reminders in the outbox: lead id → whether still pending. */
async function reminders(): Promise<Array<{ lead: string; cancelled: boolean }>> {
  const { rows } = await stack.backend.db.query<{ lead: string; cancelled: boolean }>(
    "select coalesce(quote_id, discount_id) as lead, cancelled_at is not null as cancelled from private.chat_outbox where what = 'reminder' order by id");
  return rows;
}

async function summaries(): Promise<Array<{ day: string; dueBefore: string }>> {
  const { rows } = await stack.backend.db.query<{ day: string; dueBefore: string }>(
    "select to_char(day, 'YYYY-MM-DD') as day, detail ->> 'dueBefore' as \"dueBefore\" from private.chat_outbox where what = 'summary' order by id");
  return rows;
}

describe('reminders', () => {
  it('a lead during opening hours: one reminder once 15 minutes have passed, never a second', async () => {
    const id = await quoteAt(pst(`${TUESDAY}T10:00`));
    expect(await runAt(pst(`${TUESDAY}T10:14:59`))).toEqual({ reminders: 0 });
    expect(await reminders()).toEqual([]);
    expect(await runAt(pst(`${TUESDAY}T10:15`))).toEqual({ reminders: 1 });
    expect(await runAt(pst(`${TUESDAY}T10:16`))).toEqual({ reminders: 0 });
    expect(await runAt(pst(`${TUESDAY}T15:00`))).toEqual({ reminders: 0 });
    expect(await reminders()).toEqual([{ lead: id, cancelled: false }]);
  });

  it('a lead at 8 PM on Friday waits for Saturday 9:15; one on Saturday evening for Monday', async () => {
    const friday = await quoteAt(pst(`${FRIDAY}T20:00`));
    const saturday = await quoteAt(pst(`${SATURDAY}T19:30`));
    await runAt(pst(`${FRIDAY}T23:00`));
    await runAt(pst(`${SATURDAY}T09:14`));
    expect(await reminders()).toEqual([]);
    await runAt(pst(`${SATURDAY}T09:15`));
    expect(await reminders()).toEqual([{ lead: friday, cancelled: false }]);
    await runAt(pst(`${SUNDAY}T12:00`));
    await runAt(pst(`${MONDAY}T09:14`));
    expect(await reminders()).toHaveLength(1);
    await runAt(pst(`${MONDAY}T09:15`));
    expect(await reminders()).toEqual([{ lead: friday, cancelled: false }, { lead: saturday, cancelled: false }]);
  });

  it('discount sign-ups are chased like quote requests', async () => {
    const id = await discountAt(pst(`${TUESDAY}T11:00`));
    await runAt(pst(`${TUESDAY}T11:15`));
    expect(await reminders()).toEqual([{ lead: id, cancelled: false }]);
  });

  it('a lead someone took before it was due gets none; one taken after gets its pending reminder cancelled', async () => {
    const early = await quoteAt(pst(`${TUESDAY}T10:00`), 'Early');
    const late = await quoteAt(pst(`${TUESDAY}T10:00`), 'Late');
    await stack.backend.db.query("update public.leads set status = 'contacted' where id = $1", [early]);
    expect(await runAt(pst(`${TUESDAY}T10:15`))).toEqual({ reminders: 1 });
    expect(await reminders()).toEqual([{ lead: late, cancelled: false }]);
    await stack.backend.db.query("update public.leads set status = 'quoted' where id = $1", [late]);
    expect(await reminders()).toEqual([{ lead: late, cancelled: true }]);
    expect(await runAt(pst(`${TUESDAY}T11:00`))).toEqual({ reminders: 0 });
    expect(await reminders()).toHaveLength(1);
  });

  it('the database re-checks the leads it is asked to chase: taken, probe, unknown or malformed adds nothing', async () => {
    const taken = await quoteAt(pst(`${TUESDAY}T10:00`));
    await stack.backend.db.query("update public.leads set status = 'booked' where id = $1", [taken]);
    const now = pst(`${TUESDAY}T12:00`).toISOString();
    expect(await rpc('chat_enqueue_reminders', { p_leads: [{ kind: 'quote', id: taken }], p_now: now })).toBe(0);
    expect(await rpc('chat_enqueue_reminders', { p_leads: [{ kind: 'discount', id: taken }], p_now: now })).toBe(0);
    expect(await rpc('chat_enqueue_reminders', { p_leads: [{ kind: 'quote', id: crypto.randomUUID() }], p_now: now })).toBe(0);
    await expect(rpc('chat_enqueue_reminders', { p_leads: [{ kind: 'quote', id: 'not-a-uuid' }], p_now: now })).rejects.toMatchObject({ code: '22023' });
    await expect(rpc('chat_enqueue_reminders', { p_leads: [{ kind: 'staff', id: taken }], p_now: now })).rejects.toMatchObject({ code: '22023' });
    expect(await reminders()).toEqual([]);
  });

  it('never for a probe lead', async () => {
    const { data: token, error } = await service.rpc('issue_probe_token');
    expect(error).toBeNull();
    const visitor = createNodeClient(stack.server.url, stack.backend.keys.anonKey, { global: { headers: { 'cf-connecting-ip': '192.0.2.77' } } });
    const email = 'probe@example.com';
    expect((await visitor.from('leads').insert({
      first_name: 'Lead', last_name: 'Probe', email, phone: '(408) 555-0100', page: 'contact',
      message: `Automated hourly check of the quote form, not a customer (lead probe ${token}).`,
    })).error).toBeNull();
    const { rows } = await stack.backend.db.query<{ id: string; probe: boolean }>(
      'update public.leads set created_at = $1 where email = $2 returning id, probe', [pst(`${TUESDAY}T10:00`), email]);
    expect(rows[0]?.probe).toBe(true);
    expect(await rpc('chat_reminder_candidates', { p_now: pst(`${TUESDAY}T12:00`).toISOString() })).toEqual([]);
    await runAt(pst(`${TUESDAY}T12:00`));
    expect(await rpc('chat_enqueue_reminders', { p_leads: [{ kind: 'quote', id: rows[0]!.id }], p_now: pst(`${TUESDAY}T12:00`).toISOString() })).toBe(0);
    expect(await reminders()).toEqual([]);
  });

  it('unreadable office hours: nothing planned, and the reason logged', async () => {
    await quoteAt(pst(`${TUESDAY}T10:00`));
    const plan = await planOfficeMessages({
      rpc, now: () => pst(`${TUESDAY}T12:00`), settings: { error: 'https://example.test/office-hours.json answered 404' }, log: (m) => logs.push(m),
    });
    expect(plan).toEqual({ reminders: 0, skipped: 'https://example.test/office-hours.json answered 404' });
    expect(logs).toEqual(['[office] no reminders or summary this run: https://example.test/office-hours.json answered 404']);
    expect(await reminders()).toEqual([]);
  });
});

describe('the morning summary', () => {
  it('no leads waiting: no summary', async () => {
    expect(await runAt(pst(`${MONDAY}T09:00`))).toEqual({ reminders: 0, summary: false });
    expect(await summaries()).toEqual([]);
  });

  it('leads overdue or due before closing: one summary at opening, once a day, none on Sunday', async () => {
    await quoteAt(pst(`${SATURDAY}T10:00`), 'Overdue'); // 24 h ended Sunday 10:00
    await runAt(pst(`${SUNDAY}T09:00`));
    expect(await summaries()).toEqual([]);
    expect((await runAt(pst(`${MONDAY}T08:59`))).summary).toBeUndefined();
    expect((await runAt(pst(`${MONDAY}T09:00`))).summary).toBe(true);
    expect((await runAt(pst(`${MONDAY}T09:01`))).summary).toBe(true);
    expect(await summaries()).toEqual([{ day: MONDAY, dueBefore: '2026-11-24T02:00:00+00:00' }]);
  });

  it('a lead whose 24 hours end before closing counts; one whose end after does not', async () => {
    await quoteAt(pst(`${MONDAY}T17:30`), 'Tomorrow'); // 24 h end Tuesday 17:30, before 18:00
    expect((await runAt(pst(`${TUESDAY}T09:00`))).summary).toBe(true);
    await stack.backend.db.exec('delete from public.leads');
    await quoteAt(pst(`${TUESDAY}T18:30`), 'Later'); // 24 h end Wednesday 18:30, after closing
    expect((await runAt(pst('2026-11-25T09:00'))).summary).toBe(false);
    expect((await summaries()).map((s) => s.day)).toEqual([TUESDAY]);
  });

  it('leads already answered or probes do not make a summary', async () => {
    const answered = await quoteAt(pst(`${FRIDAY}T10:00`));
    await stack.backend.db.query("update public.leads set status = 'contacted' where id = $1", [answered]);
    expect((await runAt(pst(`${MONDAY}T09:00`))).summary).toBe(false);
    expect(await summaries()).toEqual([]);
  });
});

describe('the scheduled run sends them to the office chat', () => {
  /** One pass of the scheduler at `at`: pg_cron's job, pg_net's call of the function, its planning and sending. */
  const scheduledRunAt = async (at: Date) => {
    clock = at;
    await stack.backend.runScheduledJobs(at);
  };
  const texts = () => stack.telegram.delivered().map((m) => m.text);

  it('the lead\'s message at once, then one reminder with the lead\'s buttons, which say how long it waited', async () => {
    const id = await quoteAt(pst(`${TUESDAY}T10:00`), 'Rosa');
    await scheduledRunAt(pst(`${TUESDAY}T10:01`));
    expect(texts()).toHaveLength(1);
    expect(texts()[0]).toContain('<b>New lead</b>');
    await scheduledRunAt(pst(`${TUESDAY}T10:14`));
    expect(texts()).toHaveLength(1);
    await scheduledRunAt(pst(`${TUESDAY}T10:17`));
    const [, reminder, ...more] = stack.telegram.delivered();
    expect(more).toEqual([]);
    expect(reminder!.text).toBe([
      '⏰ <b>Still new after 17 min</b>: nobody has called back yet.',
      'Rosa Lopez (quote request)',
      `(408) 555-0100 · rosa.${visitors}@example.com`,
      `<a href="${stack.server.url}/leads#lead/quote/${id}">Open it in the lead inbox</a>`,
    ].join('\n'));
    expect(reminder!.replyMarkup).toEqual({ inline_keyboard: [[{ text: '📞 Called back', callback_data: `contacted:quote:${id}` }]] });
    await scheduledRunAt(pst(`${TUESDAY}T11:00`));
    await scheduledRunAt(pst(`${TUESDAY}T17:00`));
    expect(texts()).toHaveLength(2);
  });

  it('a lead on Friday evening: its message at once, its reminder on Saturday at 9:15, and none once someone called back', async () => {
    const friday = await quoteAt(pst(`${FRIDAY}T20:00`), 'Friday');
    const called = await quoteAt(pst(`${FRIDAY}T20:30`), 'Called');
    await scheduledRunAt(pst(`${FRIDAY}T20:31`));
    expect(texts()).toHaveLength(2);
    await scheduledRunAt(pst(`${SATURDAY}T09:14`));
    expect(texts()).toHaveLength(2);
    // Someone called the second lead back in the morning, before its reminder was due.
    await stack.backend.db.query("update public.leads set status = 'contacted' where id = $1", [called]);
    await scheduledRunAt(pst(`${SATURDAY}T09:15`));
    const reminders = stack.telegram.delivered().filter((m) => m.text.startsWith('⏰'));
    expect(reminders.map((m) => m.text)).toEqual([expect.stringContaining('Friday Lopez (quote request)')]);
    expect(reminders[0]!.text).toContain('Still new after 13 h 15 min');
    expect(reminders[0]!.replyMarkup).toEqual({ inline_keyboard: [[{ text: '📞 Called back', callback_data: `contacted:quote:${friday}` }]] });
  });

  it('a reminder planned but not yet sent is dropped when the lead is taken meanwhile', async () => {
    const id = await quoteAt(pst(`${TUESDAY}T10:00`));
    await scheduledRunAt(pst(`${TUESDAY}T10:01`));
    // Telegram is down when the reminder is due: it waits in the outbox.
    stack.telegram.state.down = true;
    await scheduledRunAt(pst(`${TUESDAY}T10:15`));
    expect(await reminders()).toEqual([{ lead: id, cancelled: false }]);
    await stack.backend.db.query("update public.leads set status = 'contacted' where id = $1", [id]);
    stack.telegram.state.down = false;
    await scheduledRunAt(pst(`${TUESDAY}T10:30`));
    expect(texts().filter((t) => t.startsWith('⏰'))).toEqual([]);
    expect(await reminders()).toEqual([{ lead: id, cancelled: true }]);
  });

  it('the morning summary at opening: overdue and due today, once; no message on a morning with none', async () => {
    await quoteAt(pst(`${FRIDAY}T10:00`), 'Old');
    await quoteAt(pst(`${SATURDAY}T16:00`), 'Recent');
    await quoteAt(pst(`${SUNDAY}T12:00`), 'Sunday');
    await quoteAt(pst(`${MONDAY}T08:30`), 'Fresh');
    await scheduledRunAt(pst(`${MONDAY}T08:59`));
    expect(texts().filter((t) => t.startsWith('☀️'))).toEqual([]);
    await scheduledRunAt(pst(`${MONDAY}T09:00`));
    await scheduledRunAt(pst(`${MONDAY}T09:01`));
    const summaries = texts().filter((t) => t.startsWith('☀️'));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toBe([
      '☀️ <b>Good morning: 3 leads wait for a call back</b>',
      '',
      '<b>Overdue</b> (waited more than 24 hours):',
      '• Old Lopez (quote request), waited 2 days 23 h',
      '• Recent Lopez (quote request), waited 1 day 17 h',
      '',
      '<b>Due today</b> (their 24 hours end before closing):',
      '• Sunday Lopez (quote request), 24 hours end in 3 h',
      '',
      `<a href="${stack.server.url}/leads">Open the lead inbox</a>`,
    ].join('\n'));
    // Everyone called back by Tuesday: no summary then.
    await stack.backend.db.exec("update public.leads set status = 'contacted'");
    stack.telegram.reset();
    await scheduledRunAt(pst(`${TUESDAY}T09:00`));
    expect(texts()).toEqual([]);
  });
});
