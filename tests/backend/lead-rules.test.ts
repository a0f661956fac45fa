/**
 * One table of values, two judges: the zod schemas of supabase/functions/_shared/leadRules.ts
 * (what the forms and notify-telegram accept) and the SQL constraints of the real migrations on
 * PGlite (what the database stores when a script skips the forms). Both must give the verdict the
 * table expects, so the database is never more lenient than the forms.
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountLeadRowSchema, leadRowSchema, LEAD_LIMITS } from '../../supabase/functions/_shared/leadRules.js';
import { applyMigrations, openDatabase } from '../../supabase-standin/database.js';

let db: PGlite;

beforeAll(async () => {
  db = await openDatabase(undefined);
  await applyMigrations(db);
});

afterAll(async () => {
  await db?.close();
});

const source = { landing_path: '/locations/deep-cleaning-san-jose-ca', referrer_path: '/services' };
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
      expect((err as { code?: string }).code, `${c.table}.${c.field} ${JSON.stringify(c.value)}`).toMatch(/^23/);
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
