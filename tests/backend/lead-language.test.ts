/**
 * The language a lead was sent in (migration 20261127000000_lead_language.sql), in the database:
 *
 * - on PGlite through the local stand-in, as the site and the tests reach it (supabase-js over REST
 *   with the public key): each language of languages.ts stored, anything else refused as zod refuses
 *   it (leadRules.ts), a lead that says none stored as the default, a Spanish quote sent by the
 *   forms' own code stored as Spanish, its Telegram message saying so first, and `npm run leads`
 *   listing it;
 * - on a database migrated before it: its leads become English;
 * - on PGlite and on Debian's PostgreSQL prepared as Supabase prepares a project's database
 *   (tests/helpers/supabasePostgres.ts, the migrations applied as postgres like `supabase db push`):
 *   the same constraint for the visitor (role anon), the inbox's filter, count and report by
 *   language for staff at aal2, and the office chat's lead and morning summary carrying it.
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LANGUAGE, LANGUAGES } from '../../supabase/functions/_shared/languages.js';
import { discountLeadRowSchema, leadRowSchema } from '../../supabase/functions/_shared/leadRules.js';
import { submitContactLead, submitDiscountLead, supabaseLeadApi } from '../../src/lib/leads.js';
import { pageLanguage, UNKNOWN_SOURCE } from '../../src/lib/leadSource.js';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { applyMigrations, DEFAULT_MIGRATIONS_DIR, openDatabase } from '../../supabase-standin/database.js';
import { printLeads } from '../../supabase-standin/leads.js';
import { as, DISCOUNT, insertAsOwner, openInboxDbOn, QUOTE, refusal, type Backend, type InboxDb } from './inboxDb.js';
import { useLocalStack } from './stack.js';

const SPANISH_LINE = '🇪🇸 <b>Spanish — call back in Spanish</b>';
/** The popup's fixed notification texts (content/forms.yaml's shape; their values do not matter here). */
const NOTIFICATION = { firstName: 'Discount', lastName: 'Popup', message: 'Signed up for $25 discount offer' };

/** What a script that skips the forms may send as `lang`, and whether the database keeps it. */
const VERDICTS: Array<[string, unknown, 'stored' | 'refused']> = [
  ...LANGUAGES.map((lang) => [`${lang}, a language of the site`, lang, 'stored'] as [string, unknown, 'stored']),
  ['fr, a language the site is not written in', 'fr', 'refused'],
  ['empty', '', 'refused'],
  ['EN, upper case', 'EN', 'refused'],
  ['es-US, with a region', 'es-US', 'refused'],
  ['null', null, 'refused'],
];

describe('through the local stand-in (PGlite), as supabase-js sends a lead', () => {
  const stack = useLocalStack({ telegramToken: '7:lang', telegramChatId: '-100', persistent: true, env: { SITE_URL: 'https://www.bayshinecleaning.com' } });
  let visitor: SupabaseClient;
  beforeAll(() => {
    visitor = createNodeClient(stack.server.url, stack.backend.keys.anonKey);
  });

  const quote = (email: string, extra: Record<string, unknown> = {}) => ({ first_name: 'Lucía', last_name: 'Hernández', email, phone: '(408) 555-0133', message: 'Limpieza profunda, 3 recámaras.', page: 'contact', ...extra });
  const discount = (email: string, extra: Record<string, unknown> = {}) => ({ email, phone: '4085550133', page: '/', ...extra });
  const stored = async (table: 'leads' | 'discount_leads', email: string) =>
    (await stack.backend.db.query<{ lang: string }>(`SELECT lang FROM public.${table} WHERE email = $1`, [email])).rows.map((r) => r.lang);

  it.each(VERDICTS)('a quote and a discount sign-up with lang %s: %s, as zod judges it', async (_, lang, verdict) => {
    const email = `lang-${String(lang)}-${Date.now()}@example.com`.replace(/[^a-z0-9@.-]/gi, 'x');
    const q = await visitor.from('leads').insert(quote(email, { lang }));
    const d = await visitor.from('discount_leads').insert(discount(email, { lang }));
    if (verdict === 'stored') {
      expect([q.error, d.error]).toEqual([null, null]);
      expect([await stored('leads', email), await stored('discount_leads', email)]).toEqual([[lang], [lang]]);
    } else {
      // 23514 a check constraint, 23502 the not-null rule: the database's refusals, never a 500
      expect([q.error?.code, d.error?.code]).toEqual(lang === null ? ['23502', '23502'] : ['23514', '23514']);
      expect([q.status, d.status]).toEqual([400, 400]);
      expect([await stored('leads', email), await stored('discount_leads', email)]).toEqual([[], []]);
    }
    // The stand-in is never looser than the forms' rules, nor the forms than the database.
    expect(leadRowSchema.safeParse(quote(email, { lang })).success).toBe(verdict === 'stored');
    expect(discountLeadRowSchema.safeParse(discount(email, { lang })).success).toBe(verdict === 'stored');
  });

  it('a lead that says no language (a page built before it) is stored in the default language', async () => {
    expect((await visitor.from('leads').insert(quote('no-lang@example.com'))).error).toBeNull();
    expect((await visitor.from('discount_leads').insert(discount('no-lang@example.com'))).error).toBeNull();
    expect([await stored('leads', 'no-lang@example.com'), await stored('discount_leads', 'no-lang@example.com')]).toEqual([[DEFAULT_LANGUAGE], [DEFAULT_LANGUAGE]]);
  });

  it('a visitor may not change the language afterwards, nor read it back', async () => {
    const { error } = await visitor.from('leads').update({ lang: 'en' }).eq('email', 'no-lang@example.com');
    expect(error?.code).toBe('42501');
    expect((await visitor.from('leads').select('lang')).error?.code).toBe('42501');
  });

  it('a Spanish quote sent by the forms\' code from a page with <html lang="es"> is stored as Spanish, and the office chat says so first', async () => {
    const api = supabaseLeadApi(createNodeClient(stack.server.url, stack.backend.keys.anonKey));
    const contact = { firstName: 'Lucía', lastName: 'Hernández', email: 'lucia@example.com', phone: '(408) 555-0134', message: 'Limpieza profunda, por favor.' };
    const source = { ...UNKNOWN_SOURCE, lang: pageLanguage({ lang: 'es' }) };
    await expect(submitContactLead(contact, source, api)).resolves.toEqual({ ok: true });
    expect(await stored('leads', 'lucia@example.com')).toEqual(['es']);
    const [message] = stack.telegram.delivered().filter((m) => m.text.includes('lucia@example.com'));
    expect(message!.text.split('\n')[0]).toBe(SPANISH_LINE);
    expect(message!.text.split('\n')[1]).toBe('<b>New lead</b> from <code>contact</code>');

    await expect(submitDiscountLead({ email: 'lucia@example.com', phone: '4085550134' }, '/', source, NOTIFICATION, api, '')).resolves.toEqual({ ok: true });
    expect(await stored('discount_leads', 'lucia@example.com')).toEqual(['es']);
    const [signUp] = stack.telegram.delivered().filter((m) => m.text.includes('lucia@example.com') && m.text.includes('discount'));
    expect(signUp!.text.split('\n')[0]).toBe(SPANISH_LINE);
  });

  it('an English quote from a page with <html lang="en"> is stored as English, its message as it always was', async () => {
    const api = supabaseLeadApi(createNodeClient(stack.server.url, stack.backend.keys.anonKey));
    const contact = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada.en@example.com', phone: '408 555 0186', message: 'Deep clean please' };
    await expect(submitContactLead(contact, { ...UNKNOWN_SOURCE, lang: pageLanguage({ lang: 'en' }) }, api)).resolves.toEqual({ ok: true });
    expect(await stored('leads', 'ada.en@example.com')).toEqual(['en']);
    const [message] = stack.telegram.delivered().filter((m) => m.text.includes('ada.en@example.com'));
    expect(message!.text.startsWith('<b>New lead</b> from <code>contact</code>\n')).toBe(true);
    expect(message!.text).not.toContain('Spanish');
  });

  it('npm run leads lists each lead\'s language', async () => {
    const lines: string[] = [];
    await printLeads(join(stack.dir, 'pglite'), (l) => lines.push(l));
    const printed = lines.join('\n');
    expect(printed).toMatch(/Received +Notified +Name +Email +Phone +Page +Language +Message/);
    expect(lines.find((l) => l.includes('lucia@example.com') && l.includes('Limpieza'))).toMatch(/ contact +Spanish +Limpieza/);
    expect(lines.find((l) => l.includes('ada.en@example.com'))).toMatch(/ contact +English +Deep clean please/);
    expect(printed).toMatch(/Received +Notified +Email +Phone +Page +Language/);
    expect(lines.find((l) => l.includes('lucia@example.com') && !l.includes('Limpieza'))).toMatch(/ \/ +Spanish$/);
  });
});

describe('the migration on a database that already holds leads', () => {
  it('makes every lead stored before it English, the language the site had', async () => {
    const before = mkdtempSync(join(tmpdir(), 'before-lang-'));
    const db = await openDatabase(undefined);
    try {
      for (const f of readdirSync(DEFAULT_MIGRATIONS_DIR).filter((f) => f.endsWith('.sql') && f < '20261127000000')) copyFileSync(join(DEFAULT_MIGRATIONS_DIR, f), join(before, f));
      await applyMigrations(db, before);
      await insertAsOwner(db, 'leads', QUOTE);
      await insertAsOwner(db, 'discount_leads', DISCOUNT);
      expect(await applyMigrations(db)).toEqual(['20261127000000_lead_language.sql']);
      expect((await db.query('SELECT lang FROM public.leads UNION ALL SELECT lang FROM public.discount_leads')).rows).toEqual([{ lang: DEFAULT_LANGUAGE }, { lang: DEFAULT_LANGUAGE }]);
    } finally {
      await db.close();
      rmSync(before, { recursive: true, force: true });
    }
  });
});

describe.each(['pglite', 'postgres'] as const)('in the database on %s', (backend: Backend) => {
  let db: InboxDb;
  beforeAll(async () => { db = await openInboxDbOn(backend); });
  afterAll(async () => { await db?.close(); });
  beforeEach(async () => {
    await db.exec('TRUNCATE public.leads, public.discount_leads, public.lead_events, private.rate_events, private.chat_outbox');
  });

  const visitorInserts = (table: 'leads' | 'discount_leads', lang: unknown) => as(db, 'anon', (tx) => tx.query(
    table === 'leads'
      ? 'INSERT INTO public.leads (first_name, last_name, email, phone, message, page, lang) VALUES ($1, $2, $3, $4, $5, $6, $7)'
      : 'INSERT INTO public.discount_leads (email, phone, page, lang) VALUES ($1, $2, $3, $4)',
    table === 'leads' ? [...Object.values(QUOTE), lang] : [...Object.values(DISCOUNT), lang]));

  it.each(VERDICTS)('the visitor (anon) sends lang %s: %s', async (_, lang, verdict) => {
    for (const table of ['leads', 'discount_leads'] as const) {
      if (verdict === 'stored') await expect(visitorInserts(table, lang)).resolves.toBeDefined();
      else expect((await refusal(visitorInserts(table, lang))).code, table).toBe(lang === null ? '23502' : '23514');
    }
  });

  it('the columns: text, not null, the default language when left out; the check lists exactly LANGUAGES', async () => {
    const { rows } = await db.query<{ t: string; type: string; notnull: boolean; def: string; check: string }>(`
      SELECT c.conrelid::regclass::text AS t, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS notnull,
             pg_get_expr(d.adbin, d.adrelid) AS def, pg_get_constraintdef(c.oid) AS check
        FROM pg_constraint c
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attname = 'lang'
        JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
       WHERE c.conname IN ('leads_lang_known', 'discount_leads_lang_known') ORDER BY 1`);
    expect(rows.map((r) => [r.t, r.type, r.notnull, r.def])).toEqual([
      ['discount_leads', 'text', true, `'${DEFAULT_LANGUAGE}'::text`], ['leads', 'text', true, `'${DEFAULT_LANGUAGE}'::text`],
    ]);
    for (const r of rows) expect([...r.check.matchAll(/'([^']*)'/g)].map((m) => m[1]).sort()).toEqual([...LANGUAGES].sort());
  });

  describe('the inbox (staff at aal2)', () => {
    const staff = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
      as(db, 'staff@aal2', async (tx) => (await tx.query<T>(sql, params)).rows, { commit: true });
    let ids: Record<'enQuote' | 'esQuote' | 'esDiscount' | 'enDiscount', string>;

    beforeEach(async () => {
      ids = {
        enQuote: await insertAsOwner(db, 'leads', { ...QUOTE, email: 'en.quote@example.com' }),
        esQuote: await insertAsOwner(db, 'leads', { ...QUOTE, email: 'es.quote@example.com', lang: 'es' }),
        esDiscount: await insertAsOwner(db, 'discount_leads', { ...DISCOUNT, email: 'es.discount@example.com', lang: 'es' }),
        enDiscount: await insertAsOwner(db, 'discount_leads', { ...DISCOUNT, email: 'en.discount@example.com', lang: 'en' }),
      };
    });

    it('the list shows each lead\'s language and filters by it; the count follows', async () => {
      const all = await staff<{ id: string; lang: string }>('SELECT id, lang FROM public.search_leads()');
      expect(Object.fromEntries(all.map((r) => [r.id, r.lang]))).toEqual({ [ids.enQuote]: 'en', [ids.esQuote]: 'es', [ids.esDiscount]: 'es', [ids.enDiscount]: 'en' });
      const spanish = await staff<{ id: string }>(`SELECT id FROM public.search_leads(p_lang => 'es')`);
      expect(spanish.map((r) => r.id).sort()).toEqual([ids.esQuote, ids.esDiscount].sort());
      expect(await staff(`SELECT public.count_leads(p_lang => 'es')::int AS n`)).toEqual([{ n: 2 }]);
      expect(await staff(`SELECT public.count_leads(p_lang => 'es', p_kind => 'quote')::int AS n`)).toEqual([{ n: 1 }]);
      expect(await staff(`SELECT public.count_leads(p_lang => 'en')::int AS n`)).toEqual([{ n: 2 }]);
      expect(await staff(`SELECT public.count_leads(p_lang => 'fr')::int AS n`)).toEqual([{ n: 0 }]);
      expect(await staff(`SELECT public.count_leads()::int AS n`)).toEqual([{ n: 4 }]);
      expect((await refusal(staff(`SELECT public.count_leads(p_lang => $1)`, ['x'.repeat(36)]))).code).toBe('22023');
      // One lead read on its own (the lead panel) carries it too.
      expect(await staff(`SELECT lang FROM public.inbox_leads WHERE id = $1`, [ids.esQuote])).toEqual([{ lang: 'es' }]);
    });

    it('nobody but the visitor, at insert, sets the language: staff cannot change it', async () => {
      expect((await refusal(staff(`UPDATE public.leads SET lang = 'en' WHERE id = $1`, [ids.esQuote]))).code).toBe('42501');
    });

    it('the report counts leads, contacted and booked per language', async () => {
      await staff(`SELECT public.set_lead_status('quote', $1, 'booked', null, 200)`, [ids.esQuote]);
      await staff(`SELECT public.set_lead_status('discount', $1, 'contacted')`, [ids.enDiscount]);
      const { report } = (await staff<{ report: { languages: Array<Record<string, unknown>> } }>('SELECT public.attribution_report() AS report'))[0]!;
      expect(report.languages).toEqual([
        { lang: 'en', leads: 2, contacted: 1, booked: 0, bookedValue: 0, medianResponseSeconds: expect.any(Number) },
        { lang: 'es', leads: 2, contacted: 1, booked: 1, bookedValue: 200, medianResponseSeconds: expect.any(Number) },
      ]);
      // the date range applies as to the channels
      const { none } = (await staff<{ none: { languages: unknown[] } }>('SELECT public.attribution_report($1) AS none', [new Date(Date.now() + 60_000).toISOString()]))[0]!;
      expect(none.languages).toEqual([]);
    });

    it('the export\'s trace keeps the language filter', async () => {
      await staff(`SELECT public.log_export(2, '{"lang": "es", "status": "new"}')`);
      expect(await staff(`SELECT detail FROM public.lead_events WHERE action = 'exported'`)).toEqual([{ detail: { count: 2, filters: { lang: 'es', status: 'new' } } }]);
    });
  });

  it('the office chat gets each lead\'s language: its message, and the morning summary\'s lines', async () => {
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
    // Two leads overdue (their own messages long given up on) and a new Spanish one.
    const esOld = await insertAsOwner(db, 'leads', { ...QUOTE, email: 'es.old@example.com', lang: 'es', created_at: hoursAgo(30) });
    const enOld = await insertAsOwner(db, 'discount_leads', { ...DISCOUNT, created_at: hoursAgo(29) });
    const esNew = await insertAsOwner(db, 'leads', { ...QUOTE, email: 'es.new@example.com', lang: 'es' });
    const service = <T>(sql: string, params: unknown[]) => as(db, 'service_role', async (tx) => (await tx.query<{ r: T }>(sql, params)).rows[0]!.r, { commit: true });
    // The run's clock a second on: the database's now() of the inserts has microseconds, Date has not.
    const now = new Date(Date.now() + 1000).toISOString();
    expect(await service<boolean>('SELECT public.chat_enqueue_summary($1, $2, $3) AS r', ['2031-01-06', hoursAgo(-1), now])).toBe(true);
    const sender = crypto.randomUUID();
    expect(await service('SELECT public.chat_take($1, $2) AS r', [sender, now])).toEqual({ ok: true });
    type Item = { item: number; what: string; lead: { id: string; lang: string } | null; leads?: Array<{ id: string; lang: string }> };
    const items: Item[] = [];
    for (let item = await service<Item | null>('SELECT public.chat_next($1, $2) AS r', [sender, now]); item; item = await service<Item | null>('SELECT public.chat_next($1, $2) AS r', [sender, now])) {
      items.push(item);
      await service('SELECT public.chat_sent($1, $2, $3, $4) AS r', [sender, item.item, items.length, now]);
    }
    expect(items.map((i) => i.what)).toEqual(['lead', 'summary']);
    expect([items[0]!.lead!.id, items[0]!.lead!.lang]).toEqual([esNew, 'es']);
    expect(items[1]!.leads!.map((l) => [l.id, l.lang])).toEqual([[esOld, 'es'], [enOld, 'en'], [esNew, 'es']]);
  });
});
