/**
 * Who may do what in the lead inbox's database (issue 20), with the real migrations: every caller ×
 * every table and function involved, with the verdict written out as one table. Runs on PGlite, and
 * in vitest's `postgres` project (INBOX_DB=postgres) on a real PostgreSQL prepared as Supabase's,
 * where the migrations ran as the non-superuser postgres (tests/helpers/supabasePostgres.ts).
 *
 *   rows     the statement ran and saw / changed at least one row
 *   none     the statement ran and saw / changed nothing (row-level security hid every row)
 *   ok       the function ran and answered
 *   refused  the statement was refused: SQLSTATE 42501 insufficient privilege (PostgREST answers
 *            401/403), or for writes to the view 55000 "cannot insert into view" (a UNION ALL view
 *            is not writable by anyone, whatever the grants)
 *
 * Every check starts from the same rows (one quote request, one discount sign-up, one history
 * event) and is rolled back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, CALLERS, DISCOUNT, type InboxDb, type InboxTx, inboxBackend, insertAsOwner, NON_STAFF, openInboxDbOn, QUOTE, STAFF, type Who } from './inboxDb.js';

type Verdict = 'rows' | 'none' | 'ok' | 'refused';
const VIEW = 'public.inbox_leads';
const [ROWS, NONE, OK, REFUSED] = ['rows', 'none', 'ok', 'refused'] as const;

/** The statement each row of the matrix runs; `ids` are the seeded leads. */
type Statement = (ids: { quote: string; discount: string }) => [string, unknown[]?];

const newQuote: Statement = () => [
  'INSERT INTO public.leads (first_name, last_name, email, phone, message, page, landing_path, referrer_path) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
  ['Ana', 'Ruiz', 'ana@example.com', '408 555 0111', 'Move-out clean', 'contact', '/locations/deep-cleaning-san-jose-ca', '/pricing'],
];
const newDiscount: Statement = () => ['INSERT INTO public.discount_leads (email, phone, page, landing_path) VALUES ($1, $2, $3, $4)', ['lee@example.com', '4085550122', '/', '/']];
// Issue 31: a visitor sends where they came from with the lead (both touches), never the job's value.
const newAttributedQuote: Statement = () => [
  `INSERT INTO public.leads (first_name, last_name, email, phone, message, page, first_utm_source, first_utm_medium, first_utm_campaign,
     first_gclid, first_landing_path, first_touch_at, last_referrer_host, last_landing_path, last_touch_at)
   VALUES ('Ana', 'Ruiz', 'ana@example.com', '408 555 0111', 'Move-out clean', 'contact', 'google', 'cpc', 'spring-deep-clean',
     'Cj0KCQiA_x-Y', '/locations/deep-cleaning-san-jose-ca', now() - interval '3 days', 'www.bing.com', '/', now())`,
];
const newAttributedDiscount: Statement = () => [
  `INSERT INTO public.discount_leads (email, phone, page, last_utm_source, last_utm_medium, last_fbclid, last_msclkid, last_touch_at)
   VALUES ('lee@example.com', '4085550122', '/', 'facebook', 'paid_social', 'IwAR3_abc', 'f894f652ea334e739002f7167ab8f8e3', now())`,
];
const valuedQuote: Statement = () => [
  `INSERT INTO public.leads (first_name, last_name, email, phone, message, page, booked_value) VALUES ('Ana', 'Ruiz', 'ana@example.com', '408 555 0111', 'Move-out clean', 'contact', 100)`,
];
const claimArgs = [
  '203.0.113.9', QUOTE.page, QUOTE.email, QUOTE.phone, QUOTE.first_name, QUOTE.last_name, QUOTE.message,
];

// prettier-ignore
const MATRIX: [target: string, operation: string, statement: Statement, verdicts: [anon: Verdict, nonStaff: Verdict, staffAal1: Verdict, staffAal2: Verdict, serviceRole: Verdict]][] = [
  //                                                                                                    anon      non-staff staff@aal1 staff@aal2 service_role
  ['public.leads',          'select',                 () => ['SELECT id FROM public.leads'],                   [REFUSED, NONE,    NONE,    ROWS,    ROWS]],
  ['public.leads',          'insert',                 newQuote,                                                [ROWS,    REFUSED, REFUSED, REFUSED, ROWS]],
  ['public.leads',          'update status',          () => [`UPDATE public.leads SET status = 'quoted'`],     [REFUSED, NONE,    NONE,    ROWS,    ROWS]],
  ['public.leads',          'update another column',  () => [`UPDATE public.leads SET email = 'x@example.com'`], [REFUSED, REFUSED, REFUSED, REFUSED, ROWS]],
  ['public.leads',          'update first_response_at', () => ['UPDATE public.leads SET first_response_at = now()'], [REFUSED, REFUSED, REFUSED, REFUSED, ROWS]],
  ['public.leads',          'delete',                 () => ['DELETE FROM public.leads'],                      [REFUSED, NONE,    NONE,    ROWS,    ROWS]],
  ['public.leads',          'insert with attribution', newAttributedQuote,                                    [ROWS,    REFUSED, REFUSED, REFUSED, ROWS]],
  ['public.leads',          'insert a job value',     valuedQuote,                                             [REFUSED, REFUSED, REFUSED, REFUSED, ROWS]],
  ['public.leads',          'update booked_value',    () => ['UPDATE public.leads SET booked_value = 450'],   [REFUSED, NONE,    NONE,    ROWS,    ROWS]],
  ['public.leads',          'update a click id',      () => [`UPDATE public.leads SET first_gclid = 'forged'`], [REFUSED, REFUSED, REFUSED, REFUSED, ROWS]],
  ['public.discount_leads', 'select',                 () => ['SELECT id FROM public.discount_leads'],          [REFUSED, NONE,    NONE,    ROWS,    ROWS]],
  ['public.discount_leads', 'insert',                 newDiscount,                                             [ROWS,    REFUSED, REFUSED, REFUSED, ROWS]],
  ['public.discount_leads', 'insert with attribution', newAttributedDiscount,                                 [ROWS,    REFUSED, REFUSED, REFUSED, ROWS]],
  ['public.discount_leads', 'update booked_value',    () => ['UPDATE public.discount_leads SET booked_value = 80'], [REFUSED, NONE,  NONE,    ROWS,    ROWS]],
  ['public.discount_leads', 'update a campaign',      () => [`UPDATE public.discount_leads SET last_utm_campaign = 'forged'`], [REFUSED, REFUSED, REFUSED, REFUSED, ROWS]],
  ['public.discount_leads', 'update status',          () => [`UPDATE public.discount_leads SET status = 'spam'`], [REFUSED, NONE,  NONE,    ROWS,    ROWS]],
  ['public.discount_leads', 'update another column',  () => [`UPDATE public.discount_leads SET phone = '0000000000'`], [REFUSED, REFUSED, REFUSED, REFUSED, ROWS]],
  ['public.discount_leads', 'delete',                 () => ['DELETE FROM public.discount_leads'],             [REFUSED, NONE,    NONE,    ROWS,    ROWS]],
  ['public.lead_events',    'select',                 () => ['SELECT id FROM public.lead_events'],             [REFUSED, NONE,    NONE,    ROWS,    ROWS]],
  ['public.lead_events',    'insert',                 ({ quote }) => [`INSERT INTO public.lead_events (lead_kind, lead_id, action, note) VALUES ('quote', $1, 'note', 'forged')`, [quote]],
                                                                                                             [REFUSED, REFUSED, REFUSED, REFUSED, REFUSED]],
  ['public.lead_events',    'update',                 () => [`UPDATE public.lead_events SET note = 'rewritten'`], [REFUSED, REFUSED, REFUSED, REFUSED, REFUSED]],
  ['public.lead_events',    'delete',                 () => ['DELETE FROM public.lead_events'],                [REFUSED, REFUSED, REFUSED, REFUSED, REFUSED]],
  [VIEW,                    'select',                 () => ['SELECT id FROM public.inbox_leads'],             [REFUSED, NONE,    NONE,    ROWS,    ROWS]],
  [VIEW,                    'insert',                 () => [`INSERT INTO public.inbox_leads (kind, email) VALUES ('quote', 'x@example.com')`], [REFUSED, REFUSED, REFUSED, REFUSED, REFUSED]],
  [VIEW,                    'update',                 () => [`UPDATE public.inbox_leads SET status = 'spam'`], [REFUSED, REFUSED, REFUSED, REFUSED, REFUSED]],
  [VIEW,                    'delete',                 () => ['DELETE FROM public.inbox_leads'],                [REFUSED, REFUSED, REFUSED, REFUSED, REFUSED]],
  ['private.staff',         'select',                 () => ['SELECT user_id FROM private.staff'],             [REFUSED, REFUSED, REFUSED, REFUSED, REFUSED]],
  ['private.staff',         'insert',                 () => ['INSERT INTO private.staff (user_id, email) VALUES ($1, $2)', [NON_STAFF.id, NON_STAFF.email]],
                                                                                                             [REFUSED, REFUSED, REFUSED, REFUSED, REFUSED]],
  ['private.staff',         'update',                 () => [`UPDATE private.staff SET email = 'x@example.com'`], [REFUSED, REFUSED, REFUSED, REFUSED, REFUSED]],
  ['private.staff',         'delete',                 () => ['DELETE FROM private.staff'],                     [REFUSED, REFUSED, REFUSED, REFUSED, REFUSED]],
  // the inbox's functions: staff at aal2 only
  ['set_lead_status',       'execute',                ({ quote }) => [`SELECT * FROM public.set_lead_status('quote', $1, 'booked', 'Booked for Friday')`, [quote]],
                                                                                                             [REFUSED, REFUSED, REFUSED, OK,      REFUSED]],
  ['search_leads',          'execute',                () => ['SELECT * FROM public.search_leads()'],           [REFUSED, REFUSED, REFUSED, OK,      REFUSED]],
  ['count_leads',           'execute',                () => ['SELECT public.count_leads()'],                   [REFUSED, REFUSED, REFUSED, OK,      REFUSED]],
  ['inbox_stats',           'execute',                () => ['SELECT public.inbox_stats()'],                   [REFUSED, REFUSED, REFUSED, OK,      REFUSED]],
  ['set_lead_status (with a job value)', 'execute',   ({ quote }) => [`SELECT * FROM public.set_lead_status('quote', $1, 'booked', null, 450)`, [quote]],
                                                                                                             [REFUSED, REFUSED, REFUSED, OK,      REFUSED]],
  ['attribution_report',    'execute',                () => ['SELECT public.attribution_report()'],            [REFUSED, REFUSED, REFUSED, OK,      REFUSED]],
  ['ad_conversions',        'execute',                () => [`SELECT * FROM public.ad_conversions('google_ads')`], [REFUSED, REFUSED, REFUSED, OK,   REFUSED]],
  ['log_export',            'execute',                () => [`SELECT public.log_export(2, '{"status": "new"}')`], [REFUSED, REFUSED, REFUSED, OK,    REFUSED]],
  // the notification's and `npm run staff`'s functions: service role only
  ['claim_lead_for_notification', 'execute',          () => ['SELECT public.claim_lead_for_notification($1, $2, $3, $4, $5, $6, $7)', claimArgs],
                                                                                                             [REFUSED, REFUSED, REFUSED, REFUSED, OK]],
  ['claim_lead_notification', 'execute',              () => ['SELECT public.claim_lead_notification($1, $2, $3, $4, $5, $6, $7)', claimArgs],
                                                                                                             [REFUSED, REFUSED, REFUSED, REFUSED, OK]],
  ['record_notification_failure', 'execute',          ({ discount }) => [`SELECT public.record_notification_failure('discount', $1)`, [discount]],
                                                                                                             [REFUSED, REFUSED, REFUSED, REFUSED, OK]],
  ['staff_add',             'execute',                () => ['SELECT public.staff_add($1, $2)', [NON_STAFF.id, NON_STAFF.email]], [REFUSED, REFUSED, REFUSED, REFUSED, OK]],
  ['staff_remove',          'execute',                () => ['SELECT public.staff_remove($1)', [STAFF.id]],    [REFUSED, REFUSED, REFUSED, REFUSED, OK]],
  ['staff_list',            'execute',                () => ['SELECT * FROM public.staff_list()'],             [REFUSED, REFUSED, REFUSED, REFUSED, OK]],
  // linking Telegram (issue 30): staff at aal2 their own account from the inbox; the webhook and `npm run staff` the rest
  ['telegram_link_code',    'execute',                () => ['SELECT public.telegram_link_code()'],            [REFUSED, REFUSED, REFUSED, OK,      REFUSED]],
  ['telegram_link_status',  'execute',                () => ['SELECT public.telegram_link_status()'],          [REFUSED, REFUSED, REFUSED, OK,      REFUSED]],
  ['telegram_unlink',       'execute',                () => ['SELECT public.telegram_unlink()'],               [REFUSED, REFUSED, REFUSED, OK,      REFUSED]],
  ['telegram_link',         'execute',                () => [`SELECT public.telegram_link('0123456789AB', 42, 'Maria')`], [REFUSED, REFUSED, REFUSED, REFUSED, OK]],
  ['telegram_drop_code',    'execute',                () => [`SELECT public.telegram_drop_code('0123456789AB')`], [REFUSED, REFUSED, REFUSED, REFUSED, OK]],
  ['telegram_unlink_account', 'execute',              () => ['SELECT public.telegram_unlink_account(42)'],      [REFUSED, REFUSED, REFUSED, REFUSED, OK]],
  ['telegram_unlink_staff', 'execute',                () => ['SELECT public.telegram_unlink_staff($1)', [STAFF.id]], [REFUSED, REFUSED, REFUSED, REFUSED, OK]],
  ['telegram_mark_contacted', 'execute',              ({ quote }) => [`SELECT public.telegram_mark_contacted(1, 42, 'quote', $1)`, [quote]],
                                                                                                             [REFUSED, REFUSED, REFUSED, REFUSED, OK]],
  ...(['telegram_links', 'telegram_link_codes', 'telegram_updates'] as const).map((table): (typeof MATRIX)[number] =>
    [`private.${table}`, 'select', () => [`SELECT 1 FROM private.${table}`], [REFUSED, REFUSED, REFUSED, REFUSED, REFUSED]]),
  // the helpers in private that signed-in users run (through the policies and the RPCs); nobody else can call them
  ['private.is_staff',      'execute',                () => ['SELECT private.is_staff()'],                     [REFUSED, OK,      OK,      OK,      REFUSED]],
  ['private.require_staff', 'execute',                () => ['SELECT private.require_staff()'],                [REFUSED, REFUSED, REFUSED, OK,      REFUSED]],
  ['private.lead_filter',   'execute',                () => [`SELECT private.lead_filter('new', null, null, null, 'maria', 'google_ads', 'spring')`], [REFUSED, OK, OK, OK, REFUSED]],
  // the channel rule, which the view computes as its caller (security invoker); the service role
  // runs it through the view only (it has no USAGE on schema private to name it)
  ['private.touch_channel', 'execute',                () => [`SELECT private.touch_channel('google', 'cpc', null, null, null, null, null, null, null, '/', now())`], [REFUSED, OK, OK, OK, REFUSED]],
  // the bookkeeping of the rate limits stays out of everyone's reach
  ['private.take_rate_limit', 'execute',              () => [`SELECT private.take_rate_limit('notify', '203.0.113.1')`], [REFUSED, REFUSED, REFUSED, REFUSED, REFUSED]],
];

let db: InboxDb;
let ids: { quote: string; discount: string };

beforeAll(async () => {
  db = await openInboxDbOn(inboxBackend());
  ids = { quote: await insertAsOwner(db, 'leads', QUOTE), discount: await insertAsOwner(db, 'discount_leads', DISCOUNT) };
  // one event in the history, written the way staff write it
  await as(db, 'staff@aal2', (tx) => tx.query(`SELECT public.set_lead_status('quote', $1, 'contacted', 'Left a voicemail')`, [ids.quote]), { commit: true });
});

afterAll(async () => {
  await db?.close();
});

/** What happened when `who` ran the statement (rolled back). */
async function verdictOf(who: Who, target: string, statement: Statement, isCall: boolean): Promise<{ verdict: Verdict; error?: string }> {
  const [sql, params] = statement(ids);
  try {
    const result = await as(db, who, (tx: InboxTx) => tx.query(sql, params ?? []));
    if (isCall) return { verdict: OK };
    const count = /^\s*select/i.test(sql) ? result.rows.length : (result.affectedRows ?? 0);
    return { verdict: count > 0 ? ROWS : NONE };
  } catch (err) {
    const { code, message } = err as { code?: string; message: string };
    const refused = code === '42501' || (code === '55000' && target === VIEW);
    return refused ? { verdict: REFUSED } : { verdict: 'none', error: `${code ?? '?'} ${message}` };
  }
}

describe('the inbox role matrix', () => {
  const cells = MATRIX.flatMap(([target, operation, statement, verdicts]) =>
    CALLERS.map((who, i) => ({ who, target, operation, statement, expected: verdicts[i]! })),
  );

  it.each(cells)('$who: $operation on $target → $expected', async ({ who, target, operation, statement, expected }) => {
    const outcome = await verdictOf(who, target, statement, operation === 'execute');
    // any other error is a bug in the matrix or the migration, not a verdict
    expect(outcome.error).toBeUndefined();
    expect(outcome.verdict).toBe(expected);
  });

  it('leaves the seeded rows as they were (every check was rolled back)', async () => {
    const { rows } = await db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM public.leads)::int + (SELECT count(*) FROM public.discount_leads)::int AS n`,
    );
    expect(rows[0]?.n).toBe(2);
    expect((await db.query('SELECT 1 FROM public.lead_events')).rows).toHaveLength(1);
    expect((await db.query('SELECT 1 FROM private.staff WHERE user_id = $1', [STAFF.id])).rows).toHaveLength(1);
  });

  it('tells a session that may not use the inbox why', async () => {
    const messageOf = async (who: Who) => {
      try {
        await as(db, who, (tx) => tx.query('SELECT public.inbox_stats()'));
      } catch (err) {
        return (err as Error).message;
      }
      return 'answered';
    };
    expect(await messageOf('staff@aal1')).toMatch(/second factor/);
    expect(await messageOf('non-staff')).toMatch(/not on the staff list/);
    expect(await messageOf('anon')).toMatch(/permission denied for function/);
  });
});
