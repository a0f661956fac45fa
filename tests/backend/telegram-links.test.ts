/**
 * Linking a Telegram account to a staff member and a tap on "Called back" (issue 30), in the
 * database on PGlite with the real migrations: the one-time code, the tap's every outcome, and
 * what removing or resetting a staff member does. Who may call which function is in
 * inbox-policies.test.ts; the webhook over HTTP is telegram-webhook.test.ts.
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { as, DISCOUNT, insertAsOwner, NON_STAFF, openInboxDb, QUOTE, refusal, STAFF, type Who } from './inboxDb.js';

let db: PGlite;

beforeAll(async () => {
  db = await openInboxDb();
});

afterAll(async () => {
  await db?.close();
});

beforeEach(async () => {
  await db.exec(`TRUNCATE public.leads, public.discount_leads, public.lead_events, private.rate_events,
    private.telegram_links, private.telegram_link_codes, private.telegram_updates, private.chat_outbox`);
  await db.query('INSERT INTO private.staff (user_id, email) VALUES ($1, $2) ON CONFLICT DO NOTHING', [STAFF.id, STAFF.email]);
});

const PHONE = 424242; // the staff member's Telegram account
const STRANGER = 999001; // someone else in the office chat

async function run<T = Record<string, unknown>>(who: Who, sql: string, params: unknown[] = []): Promise<T> {
  return as(db, who, async (tx) => (await tx.query<{ r: T }>(sql, params)).rows[0]!.r, { commit: true });
}

const newCode = () => run<{ code: string; expiresAt: string }>('staff@aal2', 'SELECT public.telegram_link_code() AS r');
const link = (code: string, telegramUser = PHONE, name: string | null = 'Maria L.', now?: Date) =>
  run<{ ok: boolean; reason?: string; email?: string }>('service_role',
    `SELECT public.telegram_link($1, $2, $3, ${now ? '$4' : 'now()'}) AS r`, now ? [code, telegramUser, name, now] : [code, telegramUser, name]);
const status = () => run<{ linked: boolean; displayName?: string }>('staff@aal2', 'SELECT public.telegram_link_status() AS r');

let updateId = 1000;
const tap = (kind: string, id: string, telegramUser = PHONE, update = ++updateId) =>
  run<{ ok: boolean; reason?: string; by?: string; status?: string }>('service_role',
    'SELECT public.telegram_mark_contacted($1, $2, $3, $4) AS r', [update, telegramUser, kind, id]);

async function linked(): Promise<void> {
  expect(await link((await newCode()).code)).toEqual({ ok: true, email: STAFF.email });
}

/** A quote whose chat message went out (so a status change enqueues the 'taken' edit). */
async function announcedQuote(): Promise<string> {
  const id = await insertAsOwner(db, 'leads', QUOTE);
  await db.query(`UPDATE private.chat_outbox SET sent_at = now(), message_id = 77 WHERE what = 'lead' AND quote_id = $1`, [id]);
  return id;
}

const leadRow = async (id: string) =>
  (await db.query<{ status: string; first_response_at: Date | null }>('SELECT status, first_response_at FROM public.leads WHERE id = $1', [id])).rows[0]!;

describe('linking a Telegram account', () => {
  it('links with the code from the inbox, once; the inbox then shows the account', async () => {
    expect(await status()).toEqual({ linked: false });
    const { code, expiresAt } = await newCode();
    expect(code).toMatch(/^[0-9A-F]{12}$/);
    const minutes = (new Date(expiresAt).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);
    // the database keeps only the digest
    const stored = await db.query<{ code_digest: Uint8Array }>('SELECT code_digest FROM private.telegram_link_codes');
    expect(Buffer.from(stored.rows[0]!.code_digest).toString('utf8')).not.toContain(code);

    // typed in lower case with a space: the same code
    expect(await link(` ${code.slice(0, 6).toLowerCase()} ${code.slice(6)}`, PHONE, 'Maria\u0007 L.\n')).toEqual({ ok: true, email: STAFF.email });
    expect(await status()).toMatchObject({ linked: true, displayName: 'Maria L.' });
    // used: a second try (someone who saw it) fails
    expect(await link(code, STRANGER)).toEqual({ ok: false, reason: 'invalid_code' });
  });

  it('refuses a wrong code, an expired one and one replaced by a newer code', async () => {
    expect(await link('0123456789AB')).toEqual({ ok: false, reason: 'invalid_code' });
    const { code } = await newCode();
    expect(await link(code, PHONE, 'Maria', new Date(Date.now() + 10 * 60_000 + 1000))).toEqual({ ok: false, reason: 'invalid_code' });
    const first = await newCode();
    const second = await newCode();
    expect(await link(first.code)).toEqual({ ok: false, reason: 'invalid_code' });
    expect(await status()).toEqual({ linked: false });
    expect(await link(second.code)).toMatchObject({ ok: true });
  });

  it('stops a Telegram account guessing after 5 tries in 10 minutes, the right code included', async () => {
    for (let i = 0; i < 5; i++) expect(await link(`00000000000${i}`)).toEqual({ ok: false, reason: 'invalid_code' });
    const { code } = await newCode();
    expect(await link(code)).toEqual({ ok: false, reason: 'rate_limited' });
    expect(await status()).toEqual({ linked: false });
  });

  it('keeps one Telegram account to one staff member', async () => {
    await linked();
    await db.query('INSERT INTO private.staff (user_id, email) VALUES ($1, $2)', [NON_STAFF.id, NON_STAFF.email]);
    const other = await as(db, 'non-staff', async (tx) => (await tx.query<{ r: { code: string } }>('SELECT public.telegram_link_code() AS r')).rows[0]!.r, { commit: true });
    expect(await link(other.code, PHONE)).toEqual({ ok: false, reason: 'linked_to_other' });
    await db.query('DELETE FROM private.staff WHERE user_id = $1', [NON_STAFF.id]);
  });

  it('gives codes only to staff signed in with the second factor', async () => {
    for (const who of ['non-staff', 'staff@aal1'] as const) {
      expect((await refusal(run(who, 'SELECT public.telegram_link_code() AS r'))).code).toBe('42501');
    }
    expect((await db.query('SELECT 1 FROM private.telegram_link_codes')).rows).toEqual([]);
  });

  it('unlinks from the inbox, from the bot (/unlink), on reset and on removal', async () => {
    await linked();
    expect(await run('staff@aal2', 'SELECT public.telegram_unlink() AS r')).toBe(true);
    expect(await status()).toEqual({ linked: false });

    await linked();
    expect(await run('service_role', 'SELECT public.telegram_unlink_account($1) AS r', [PHONE])).toBe(true);
    expect(await status()).toEqual({ linked: false });

    await linked();
    expect(await run('service_role', 'SELECT public.telegram_unlink_staff($1) AS r', [STAFF.id])).toBe(true);
    expect(await status()).toEqual({ linked: false });

    await linked();
    await run('service_role', 'SELECT public.staff_remove($1) AS r', [STAFF.id]);
    expect((await db.query('SELECT 1 FROM private.telegram_links')).rows).toEqual([]);
  });
});

describe('a tap on "Called back"', () => {
  it('marks the lead contacted as the inbox does: history names the member via Telegram, first response, the edit', async () => {
    await linked();
    const id = await announcedQuote();
    expect(await tap('quote', id)).toEqual({ ok: true, by: 'Maria L.' });
    const lead = await leadRow(id);
    expect(lead.status).toBe('contacted');
    expect(lead.first_response_at).toBeInstanceOf(Date);
    const events = await db.query('SELECT actor, actor_email, action, from_status, to_status, detail FROM public.lead_events WHERE lead_id = $1', [id]);
    expect(events.rows).toEqual([{ actor: STAFF.id, actor_email: STAFF.email, action: 'status', from_status: 'new', to_status: 'contacted', detail: { via: 'telegram' } }]);
    const edits = await db.query(`SELECT detail FROM private.chat_outbox WHERE what = 'taken' AND quote_id = $1`, [id]);
    expect(edits.rows).toEqual([{ detail: { status: 'contacted', by: 'Maria L.' } }]);
  });

  it('does the same for a discount sign-up', async () => {
    await linked();
    const id = await insertAsOwner(db, 'discount_leads', DISCOUNT);
    expect(await tap('discount', id)).toMatchObject({ ok: true });
    expect((await db.query<{ status: string }>('SELECT status FROM public.discount_leads WHERE id = $1', [id])).rows[0]!.status).toBe('contacted');
  });

  it('refuses a Telegram account that is not linked, and one whose staff member was removed', async () => {
    const id = await announcedQuote();
    expect(await tap('quote', id, STRANGER)).toEqual({ ok: false, reason: 'not_linked' });
    await linked();
    await run('service_role', 'SELECT public.staff_remove($1) AS r', [STAFF.id]);
    expect(await tap('quote', id)).toEqual({ ok: false, reason: 'not_linked' });
    expect((await leadRow(id)).status).toBe('new');
    expect((await db.query('SELECT 1 FROM public.lead_events')).rows).toEqual([]);
  });

  it('changes nothing on a replayed update', async () => {
    await linked();
    const id = await announcedQuote();
    expect(await tap('quote', id, PHONE, 5555)).toMatchObject({ ok: true });
    await db.query(`UPDATE public.leads SET status = 'new' WHERE id = $1`, [id]); // as if staff undid it
    expect(await tap('quote', id, PHONE, 5555)).toEqual({ ok: false, reason: 'replayed' });
    expect((await leadRow(id)).status).toBe('new');
  });

  it('answers a lead of the other kind, an unknown lead and a probe lead clearly, changing nothing', async () => {
    await linked();
    const quote = await announcedQuote();
    const discount = await insertAsOwner(db, 'discount_leads', DISCOUNT);
    const probe = await insertAsOwner(db, 'leads', { ...QUOTE, email: 'probe@example.com', probe: true });
    expect(await tap('discount', quote)).toEqual({ ok: false, reason: 'wrong_kind' });
    expect(await tap('quote', discount)).toEqual({ ok: false, reason: 'wrong_kind' });
    expect(await tap('quote', '00000000-0000-4000-8000-000000000000')).toEqual({ ok: false, reason: 'unknown_lead' });
    expect(await tap('quote', probe)).toEqual({ ok: false, reason: 'unknown_lead' });
    expect(await tap('lead', quote)).toEqual({ ok: false, reason: 'unknown_lead' });
    const { rows } = await db.query<{ n: number }>(`SELECT (SELECT count(*) FROM public.leads WHERE status <> 'new')::int
      + (SELECT count(*) FROM public.discount_leads WHERE status <> 'new')::int + (SELECT count(*) FROM public.lead_events)::int AS n`);
    expect(rows[0]!.n).toBe(0);
  });

  it('says who was first when the lead was already taken', async () => {
    const id = await announcedQuote();
    await as(db, 'staff@aal2', (tx) => tx.query(`SELECT public.set_lead_status('quote', $1, 'quoted', null)`, [id]), { commit: true });
    await linked();
    expect(await tap('quote', id)).toEqual({ ok: false, reason: 'taken', status: 'quoted', by: 'Maria L.' });
    expect((await db.query('SELECT 1 FROM public.lead_events')).rows).toHaveLength(1);
  });
});
