/**
 * One table of values, two judges: the zod schemas of supabase/functions/_shared/leadRules.ts
 * (what the forms and notify-telegram accept) and the SQL constraints of the real migrations on
 * PGlite (what the database stores when a script skips the forms). Both must give the verdict the
 * table expects, so the database is never more lenient than the forms. Where SQL states a list of
 * the TypeScript source (the languages), the list is read back from the database and compared.
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LANGUAGE, LANGUAGES } from '../../supabase/functions/_shared/languages.js';
import { ATTRIBUTION_LIMITS, CLICK_IDS, discountLeadRowSchema, leadRowSchema, LEAD_LIMITS, TOUCHES, UTM_PARAMS } from '../../supabase/functions/_shared/leadRules.js';
import { applyMigrations, openDatabase } from '../../supabase-standin/database.js';

let db: PGlite;

beforeAll(async () => {
  db = await openDatabase(undefined);
  await applyMigrations(db);
});

afterAll(async () => {
  await db?.close();
});

const TOUCHED_AT = new Date(Date.now() - 3 * 86_400_000).toISOString();
/** Both touches of issue 31, every field filled: a Google Ads click first, a search engine last. */
const touches = {
  first_utm_source: 'google', first_utm_medium: 'cpc', first_utm_campaign: 'spring-deep-clean', first_utm_term: 'deep cleaning san jose',
  first_utm_content: 'ad-1', first_gclid: 'Cj0KCQiA_x-Y1234', first_gbraid: '0AAAAAo_abc', first_wbraid: 'CkQKCQiA-xyz', first_fbclid: 'IwAR3_abc-def',
  first_msclkid: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', first_referrer_host: 'www.google.com', first_landing_path: '/locations/deep-cleaning-san-jose-ca',
  first_touch_at: TOUCHED_AT,
  last_utm_source: null, last_utm_medium: null, last_utm_campaign: null, last_utm_term: null, last_utm_content: null, last_gclid: null,
  last_gbraid: null, last_wbraid: null, last_fbclid: null, last_msclkid: null, last_referrer_host: 'duckduckgo.com', last_landing_path: '/',
  last_touch_at: new Date().toISOString(),
};
const source = { landing_path: '/locations/deep-cleaning-san-jose-ca', referrer_path: '/services', lang: 'es', ...touches };
const lead = { first_name: 'Maria', last_name: 'Lopez', email: 'maria@example.com', phone: '(408) 555-0199', message: 'Deep clean, 3 bedrooms.', page: 'contact', ...source };
const discount = { email: 'sam@example.com', phone: '4085550100', page: '/', ...source };

type Table = 'leads' | 'discount_leads';
/** value null: sent as null; undefined: the column left out of the insert. */
type Value = string | null | undefined;
interface Case { table: Table; field: string; value: Value; valid: boolean; why: string }

const ok = (table: Table, field: string, value: Value, why: string): Case => ({ table, field, value, valid: true, why });
const no = (table: Table, field: string, value: Value, why: string): Case => ({ table, field, value, valid: false, why });

const blanks: Array<[string, string]> = [
  ['', 'empty'], [' ', 'a space'], ['\t\n', 'tab and newline'], ['\r\n\r\n', 'CR LF'], ['\u00a0', 'no-break space'],
  ['\u3000', 'ideographic space'], ['\u2028', 'line separator'], ['\ufeff', 'byte-order mark'], ['\u000b\u000c', 'VT FF'],
];

const textFields: Array<[Table, string, number]> = [
  ['leads', 'first_name', LEAD_LIMITS.name], ['leads', 'last_name', LEAD_LIMITS.name],
  ['leads', 'phone', LEAD_LIMITS.phone], ['leads', 'message', LEAD_LIMITS.message], ['discount_leads', 'phone', LEAD_LIMITS.phone],
];

const cases: Case[] = [
  ...textFields.flatMap(([table, field, max]) => [
    ...blanks.map(([value, why]) => no(table, field, value, why)),
    no(table, field, ' 4085550100', 'leading space'),
    no(table, field, '4085550100\n', 'trailing newline'),
    no(table, field, '\t4085550100', 'leading tab'),
    ok(table, field, '4085550100', 'plain'),
    ok(table, field, '9'.repeat(max), 'at the limit'),
    no(table, field, '9'.repeat(max + 1), 'one over the limit'),
  ]),
  ok('leads', 'first_name', 'José María', 'accents and an inner space'),
  ok('leads', 'last_name', "O'Neil-Smith", 'apostrophe and hyphen'),
  ok('leads', 'first_name', '🧹'.repeat(LEAD_LIMITS.name), 'emoji count one character each'),
  no('leads', 'first_name', '🧹'.repeat(LEAD_LIMITS.name + 1), 'emoji over the limit'),
  ok('leads', 'message', 'Line one\n\nLine two\twith a tab', 'inner line breaks are kept'),
  ok('leads', 'phone', 'x', 'no format check on the quote phone (spec)'),
  no('discount_leads', 'phone', '         1', 'ten characters only with the spaces'),
  no('discount_leads', 'phone', '408555010', 'nine characters'),
  no('discount_leads', 'phone', '🧹'.repeat(5), 'five characters, ten UTF-16 units'),
  ...(['leads', 'discount_leads'] as const).flatMap((table) => [
    ok(table, 'email', 'maria@example.com', 'plain'),
    ok(table, 'email', 'maria.lopez+quote@mail.example.co', 'dots, plus, subdomain'),
    ok(table, 'email', `${'a'.repeat(64)}@${'b'.repeat(185)}.com`, '254 characters'),
    no(table, 'email', `${'a'.repeat(64)}@${'b'.repeat(186)}.com`, '255 characters'),
    no(table, 'email', '<script>@x.y', 'markup'),
    no(table, 'email', 'a@b.c', 'one-letter top-level domain'),
    no(table, 'email', 'ada@example', 'no top-level domain'),
    no(table, 'email', 'ada example@x.com', 'inner space'),
    no(table, 'email', ' maria@example.com', 'leading space'),
    no(table, 'email', 'maria@example.com\n', 'trailing newline'),
    no(table, 'email', '.maria@example.com', 'leading dot'),
    no(table, 'email', 'ma..ria@example.com', 'two dots'),
    no(table, 'email', 'maria@-example.com', 'domain starts with a hyphen'),
    no(table, 'email', 'maria@example.c0m', 'digit in the top-level domain'),
    no(table, 'email', '"x"@example.com', 'quoted local part'),
    no(table, 'email', '', 'empty'),
  ]),
  ok('leads', 'page', 'contact', 'the contact form'),
  no('leads', 'page', '/contact', 'the contact form sends contact, not a path'),
  no('leads', 'page', '', 'empty'),
  ok('discount_leads', 'page', '/', 'home'),
  ok('discount_leads', 'page', '/deep-cleaning-san-francisco', 'a service page'),
  ok('discount_leads', 'page', '/locations/deep-cleaning-san-jose-ca', 'a city page'),
  no('discount_leads', 'page', '//evil.com/<img src=x>', 'markup and another host'),
  no('discount_leads', 'page', 'contact', 'not a path'),
  no('discount_leads', 'page', '/Deep-Cleaning', 'upper case'),
  no('discount_leads', 'page', '/deep-cleaning/', 'trailing slash'),
  no('discount_leads', 'page', '/a//b', 'empty segment'),
  no('discount_leads', 'page', '/../etc', 'dots'),
  no('discount_leads', 'page', `/${'a'.repeat(200)}`, 'over 200 characters'),
  no('discount_leads', 'page', '/\n', 'line break'),
  // Which page brought the lead (issue 20): a page of the site by the rule of `page`, or unknown.
  ...(['leads', 'discount_leads'] as const).flatMap((table) => (['landing_path', 'referrer_path'] as const).flatMap((field) => [
    ok(table, field, '/', 'home'),
    ok(table, field, '/contact', 'the contact page'),
    ok(table, field, '/locations/deep-cleaning-san-jose-ca', 'a city page'),
    ok(table, field, `/${'a'.repeat(LEAD_LIMITS.page - 1)}`, '200 characters'),
    ok(table, field, null, 'unknown'),
    ok(table, field, undefined, 'left out'),
    no(table, field, `/${'a'.repeat(LEAD_LIMITS.page)}`, 'over 200 characters'),
    no(table, field, 'https://bayshine.example/contact', 'a full URL'),
    no(table, field, '/contact?utm_source=mail', 'a query string'),
    no(table, field, '/contact#form', 'a hash'),
    no(table, field, '//evil.com', 'protocol-relative'),
    no(table, field, '/Deep-Cleaning', 'upper case'),
    no(table, field, '/Foo%20Bar', 'an escape'),
    no(table, field, '/about.html', 'a file name'),
    no(table, field, '/deep-cleaning/', 'trailing slash'),
    no(table, field, '/../etc', 'dots'),
    no(table, field, 'contact', 'not a path'),
    no(table, field, '', 'empty'),
    no(table, field, '/\n', 'line break'),
  ])),
  // Where the visitor came from (issue 31), each touch: campaign text, click ids, the referring host.
  ...(['leads', 'discount_leads'] as const).flatMap((table) => TOUCHES.flatMap((touch) => [
    ...UTM_PARAMS.flatMap((param) => {
      const field = `${touch}_${param}`;
      return [
        ok(table, field, 'spring-deep-clean', 'a campaign name'),
        ok(table, field, 'Deep Cleaning (San José) 🧹', 'spaces, accents, an emoji'),
        ok(table, field, 'x'.repeat(ATTRIBUTION_LIMITS.utm), 'at the limit'),
        ok(table, field, null, 'unknown'),
        no(table, field, 'x'.repeat(ATTRIBUTION_LIMITS.utm + 1), 'over the limit'),
        no(table, field, '', 'empty'),
        no(table, field, ' spring', 'leading space'),
        no(table, field, 'spring\nsale', 'a line break'),
        no(table, field, 'spring\u0007', 'a control character'),
        no(table, field, 'spring\u0085', 'a C1 control character'),
        no(table, field, '<script>alert(1)</script>', 'a script'),
      ];
    }),
    ...CLICK_IDS.flatMap((id) => {
      const field = `${touch}_${id}`;
      return [
        ok(table, field, 'Cj0KCQiA_x-Y1234', 'letters, digits, _ and -'),
        ok(table, field, 'a'.repeat(ATTRIBUTION_LIMITS.clickId), 'at the limit'),
        ok(table, field, undefined, 'left out'),
        no(table, field, 'a'.repeat(ATTRIBUTION_LIMITS.clickId + 1), 'over the limit'),
        no(table, field, '', 'empty'),
        no(table, field, 'Cj0 KCQ', 'a space'),
        no(table, field, 'Cj0KCQ==', 'padding'),
        no(table, field, 'Cj0KCQ\n', 'a line break'),
        no(table, field, '"><script>alert(1)</script>', 'a script'),
      ];
    }),
    ok(table, `${touch}_referrer_host`, 'www.google.com', 'a host'),
    ok(table, `${touch}_referrer_host`, 'xn--bcher-kva.example', 'an international name as punycode'),
    ok(table, `${touch}_referrer_host`, `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`, '253 characters'),
    ok(table, `${touch}_referrer_host`, null, 'unknown'),
    no(table, `${touch}_referrer_host`, `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`, '254 characters'),
    no(table, `${touch}_referrer_host`, 'https://www.google.com/', 'a URL where a host belongs'),
    no(table, `${touch}_referrer_host`, 'www.google.com/search?q=maria+lopez', 'a path and query'),
    no(table, `${touch}_referrer_host`, 'www.google.com:443', 'a port'),
    no(table, `${touch}_referrer_host`, 'user@evil.example', 'a user'),
    no(table, `${touch}_referrer_host`, 'WWW.GOOGLE.COM', 'upper case'),
    no(table, `${touch}_referrer_host`, '-evil.example', 'a label starting with -'),
    no(table, `${touch}_referrer_host`, 'evil..example', 'an empty label'),
    no(table, `${touch}_referrer_host`, '<script>', 'a script'),
    no(table, `${touch}_referrer_host`, '', 'empty'),
    ok(table, `${touch}_landing_path`, '/locations/deep-cleaning-san-jose-ca', 'a city page'),
    no(table, `${touch}_landing_path`, '/contact?utm_source=x', 'a query string'),
    no(table, `${touch}_landing_path`, 'https://www.bayshinecleaning.com/', 'a full URL'),
    ok(table, `${touch}_touch_at`, new Date(Date.now() - 89 * 86_400_000).toISOString(), '89 days ago'),
    ok(table, `${touch}_touch_at`, null, 'unknown'),
    no(table, `${touch}_touch_at`, 'not a time', 'not a time'),
    no(table, `${touch}_touch_at`, 'infinity', 'infinity'),
    no(table, `${touch}_touch_at`, '2026-13-01T00:00:00Z', 'no such month'),
  ])),
  // The language the lead was sent in (languages.ts): one of LANGUAGES exactly, or left out (the default).
  ...(['leads', 'discount_leads'] as const).flatMap((table) => [
    ...LANGUAGES.map((lang) => ok(table, 'lang', lang, `a language of the site (${lang})`)),
    ok(table, 'lang', undefined, 'left out: the default language'),
    no(table, 'lang', null, 'null'),
    no(table, 'lang', '', 'empty'),
    no(table, 'lang', 'fr', 'a language the site is not written in'),
    no(table, 'lang', 'EN', 'upper case'),
    no(table, 'lang', 'Es', 'capitalised'),
    no(table, 'lang', 'es-US', 'a region'),
    no(table, 'lang', 'es_ES', 'a locale'),
    no(table, 'lang', ' es', 'a leading space'),
    no(table, 'lang', 'es\n', 'a trailing newline'),
    no(table, 'lang', 'spa', 'a three-letter code'),
    no(table, 'lang', 'Spanish', 'a name'),
  ]),
];

/** The base row with the case's value (or without the column, for undefined). */
function rowOf(c: Case): Record<string, string | null> {
  const row: Record<string, Value> = { ...(c.table === 'leads' ? lead : discount), [c.field]: c.value };
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== undefined)) as Record<string, string | null>;
}

function zodVerdict(c: Case): boolean {
  const row = rowOf(c);
  return (c.table === 'leads' ? leadRowSchema : discountLeadRowSchema).safeParse(row).success;
}

/** Inserts as the anonymous visitor and rolls back; true when the database stored it. */
async function sqlVerdict(c: Case): Promise<boolean> {
  const row = rowOf(c);
  const cols = Object.keys(row);
  let stored = false;
  await db.transaction(async (tx) => {
    await tx.exec('SET LOCAL ROLE anon');
    try {
      await tx.query(
        `INSERT INTO public.${c.table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
        Object.values(row),
      );
      stored = true;
    } catch (err) {
      // A refusal must be a constraint (23xxx), not a rate limit or a permission problem.
      // (22xxx: a value that is not of the column's type at all, such as a time that is no time)
      expect((err as { code?: string }).code, `${c.table}.${c.field} ${JSON.stringify(c.value)}`).toMatch(/^2[23]/);
    }
    await tx.rollback();
  });
  return stored;
}

describe('lead rules: the forms and the database agree', () => {
  it('the table covers every column the visitor fills', () => {
    const covered = new Set(cases.map((c) => `${c.table}.${c.field}`));
    for (const field of Object.keys(lead)) expect(covered).toContain(`leads.${field}`);
    for (const field of Object.keys(discount)) expect(covered).toContain(`discount_leads.${field}`);
  });

  it.each(cases.map((c) => [`${c.table}.${c.field} ${c.valid ? 'accepts' : 'refuses'} ${c.why}`, c] as const))('%s', async (_, c) => {
    expect(zodVerdict(c), 'zod').toBe(c.valid);
    expect(await sqlVerdict(c), 'SQL').toBe(c.valid);
  });
});

describe('the languages: SQL states the list of languages.ts', () => {
  /** The literals of a check constraint as the database holds it (pg_get_constraintdef). */
  async function literals(name: string): Promise<string[]> {
    const { rows } = await db.query<{ def: string }>(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = $1 AND contype = 'c'`, [name]);
    expect(rows, name).toHaveLength(1);
    return [...rows[0]!.def.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
  }

  it.each(['leads', 'discount_leads'])('%s.lang is checked against LANGUAGES, no more and no fewer', async (table) => {
    expect((await literals(`${table}_lang_known`)).sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(['leads', 'discount_leads'])('%s.lang is text, required, and DEFAULT_LANGUAGE when left out', async (table) => {
    const { rows } = await db.query<{ type: string; notnull: boolean; def: string }>(`
      SELECT format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS notnull, pg_get_expr(d.adbin, d.adrelid) AS def
        FROM pg_attribute a JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
       WHERE a.attrelid = $1::regclass AND a.attname = 'lang'`, [`public.${table}`]);
    expect(rows).toEqual([{ type: 'text', notnull: true, def: `'${DEFAULT_LANGUAGE}'::text` }]);
  });

  it('the comparison would see a list that drifted (a language added to SQL only)', async () => {
    await db.transaction(async (tx) => {
      await tx.exec(`ALTER TABLE public.leads DROP CONSTRAINT leads_lang_known, ADD CONSTRAINT leads_lang_known CHECK (lang IN ('en', 'es', 'fr'))`);
      const { rows } = await tx.query<{ def: string }>(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'leads_lang_known'`);
      expect([...rows[0]!.def.matchAll(/'([^']*)'/g)].map((m) => m[1]).sort()).not.toEqual([...LANGUAGES].sort());
      await tx.rollback();
    });
    expect((await literals('leads_lang_known')).sort()).toEqual([...LANGUAGES].sort());
  });
});
