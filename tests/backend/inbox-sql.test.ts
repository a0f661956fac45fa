/**
 * What the lead inbox's database does (issue 20), on PGlite with the real migrations: the history
 * and first response time written in one place, deleting on request, search and paging over 1,000
 * leads, the inbox's figures, the notification's claim and failures, the staff list, and the
 * visitor's two new columns. Who may do what is tests/backend/inbox-policies.test.ts.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { as, DISCOUNT, insertAsOwner, insertSql, NON_STAFF, openInboxDb, QUOTE, refusal, STAFF, type Who } from './inboxDb.js';

let db: PGlite;

beforeAll(async () => {
  db = await openInboxDb();
});

afterAll(async () => {
  await db?.close();
});

beforeEach(async () => {
  await db.exec('TRUNCATE public.leads, public.discount_leads, public.lead_events, private.rate_events, private.chat_outbox');
});

interface Lead {
  kind: string;
  id: string;
  created_at: Date;
  status: string;
  first_name: string | null;
  email: string;
  first_response_at: Date | null;
  notify_failed_at: Date | null;
}

interface LeadEvent {
  id: number;
  at: Date;
  lead_kind: string | null;
  lead_id: string | null;
  actor: string | null;
  actor_email: string | null;
  action: string;
  from_status: string | null;
  to_status: string | null;
  note: string | null;
  detail: unknown;
}

/** Runs one statement as `who` and keeps what it did. */
async function run<T>(who: Who, sql: string, params: unknown[] = [], headers?: Record<string, string>): Promise<T[]> {
  return as(db, who, async (tx) => (await tx.query<T>(sql, params)).rows, { commit: true, ...(headers ? { headers } : {}) });
}

const staff = <T>(sql: string, params: unknown[] = []) => run<T>('staff@aal2', sql, params);

async function setStatus(kind: string, id: string, status: string | null, note: string | null = null): Promise<Lead> {
  const rows = await staff<Lead>('SELECT * FROM public.set_lead_status($1, $2, $3, $4)', [kind, id, status, note]);
  return rows[0]!;
}

/** The whole history, read as the owner. */
async function history(): Promise<LeadEvent[]> {
  return (await db.query<LeadEvent>('SELECT * FROM public.lead_events ORDER BY id')).rows;
}

/** Inserts many leads at once as the owner, without the per-client limits (they are for visitors). */
async function bulkInsert(fn: (tx: Transaction) => Promise<unknown>): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.exec('SET LOCAL session_replication_role = replica');
    await fn(tx);
  });
}

describe('status changes and notes', () => {
  it('record one event with who, their email and the note, and set the first response time once', async () => {
    const id = await insertAsOwner(db, 'leads', QUOTE);
    const contacted = await setStatus('quote', id, 'contacted', '  Called, sending a quote tomorrow\n');
    expect(contacted).toMatchObject({ kind: 'quote', id, status: 'contacted' });
    expect(contacted.first_response_at).toBeInstanceOf(Date);
    expect(await history()).toMatchObject([
      { lead_kind: 'quote', lead_id: id, actor: STAFF.id, actor_email: STAFF.email, action: 'status', from_status: 'new', to_status: 'contacted', note: 'Called, sending a quote tomorrow' },
    ]);

    const quoted = await setStatus('quote', id, 'quoted');
    expect(quoted.status).toBe('quoted');
    expect(quoted.first_response_at).toEqual(contacted.first_response_at); // the first response stays the first
    const events = await history();
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ action: 'status', from_status: 'contacted', to_status: 'quoted', note: null });
  });

  it('record a note without a status change, and a note is no response', async () => {
    const id = await insertAsOwner(db, 'discount_leads', DISCOUNT);
    const lead = await setStatus('discount', id, null, 'Wrong number, try email');
    expect(lead).toMatchObject({ status: 'new', first_response_at: null });
    expect(await history()).toMatchObject([{ lead_kind: 'discount', lead_id: id, action: 'note', note: 'Wrong number, try email', from_status: null, to_status: null, actor: STAFF.id }]);
  });

  it('record a change made without the function too (a PATCH through the API), without a stale note', async () => {
    const id = await insertAsOwner(db, 'leads', QUOTE);
    await as(
      db,
      'staff@aal2',
      async (tx) => {
        await tx.query(`SELECT public.set_lead_status('quote', $1, 'contacted', 'First call')`, [id]);
        await tx.query(`UPDATE public.leads SET status = 'lost' WHERE id = $1`, [id]);
      },
      { commit: true },
    );
    expect(await history()).toMatchObject([
      { action: 'status', to_status: 'contacted', note: 'First call' },
      { action: 'status', from_status: 'contacted', to_status: 'lost', note: null, actor: STAFF.id },
    ]);
  });

  it('derive the first response time from the history only: a hand-set value is ignored', async () => {
    const id = await insertAsOwner(db, 'leads', QUOTE);
    await run('service_role', `UPDATE public.leads SET first_response_at = '2020-01-01' WHERE id = $1`, [id]);
    expect((await db.query<Lead>('SELECT first_response_at FROM public.leads')).rows[0]?.first_response_at).toBeNull();
    await setStatus('quote', id, 'spam'); // spam is no response either
    expect((await db.query<Lead>('SELECT first_response_at FROM public.leads')).rows[0]?.first_response_at).toBeNull();
  });

  it('leave the history as written: staff can neither edit nor delete it', async () => {
    const id = await insertAsOwner(db, 'leads', QUOTE);
    await setStatus('quote', id, 'contacted', 'Called');
    const before = await history();
    expect((await refusal(staff(`UPDATE public.lead_events SET note = 'Never called'`))).code).toBe('42501');
    expect((await refusal(staff('DELETE FROM public.lead_events'))).code).toBe('42501');
    expect((await refusal(staff(`INSERT INTO public.lead_events (lead_kind, lead_id, action, note) VALUES ('quote', $1, 'note', 'x')`, [id]))).code).toBe('42501');
    expect(await history()).toEqual(before);
  });

  it.each([
    ['an unknown kind', ['lead', 'contacted', null], '22023'],
    ['an unknown status', ['quote', 'won', null], '23514'],
    ['neither a status nor a note', ['quote', null, null], '22023'],
    ['a blank note alone', ['quote', null, ' \n\t '], '22023'],
    ['a note over 2000 characters', ['quote', 'contacted', 'x'.repeat(2001)], '22023'],
  ])('refuse %s', async (_what, [kind, status, note], code) => {
    const id = await insertAsOwner(db, 'leads', QUOTE);
    const err = await refusal(staff('SELECT public.set_lead_status($1, $2, $3, $4)', [kind, id, status, note]));
    expect(err.code).toBe(code);
    expect(await history()).toEqual([]);
  });

  it('answer "no such lead" (P0002, HTTP 404) for a lead that is not there', async () => {
    const err = await refusal(setStatus('quote', crypto.randomUUID(), 'contacted'));
    expect(err.code).toBe('P0002');
  });
});

describe('deleting a lead on request', () => {
  it('keeps only that it was deleted, by whom and when: none of its personal data or notes', async () => {
    const id = await insertAsOwner(db, 'leads', { ...QUOTE, landing_path: '/locations/deep-cleaning-san-jose-ca' });
    const kept = await insertAsOwner(db, 'discount_leads', DISCOUNT);
    const notes = ['Called Maria Lopez at (408) 555-0199', 'maria.lopez@example.com asked for Friday'];
    await setStatus('quote', id, 'contacted', notes[0]!);
    await setStatus('quote', id, null, notes[1]!);
    await setStatus('discount', kept, 'contacted', 'Sam booked a deep clean');

    const deleted = await staff('DELETE FROM public.leads WHERE id = $1 RETURNING id', [id]);
    expect(deleted).toHaveLength(1);

    const events = await history();
    const ofLead = events.filter((e) => e.lead_id === id);
    expect(ofLead.map((e) => [e.action, e.note])).toEqual([['status', null], ['note', null], ['deleted', null]]);
    expect(ofLead.at(-1)).toMatchObject({ lead_kind: 'quote', actor: STAFF.id, actor_email: STAFF.email, detail: null });
    expect(ofLead.at(-1)?.at).toBeInstanceOf(Date);
    // nothing of the person is left anywhere in the history
    const text = JSON.stringify(events).toLowerCase();
    for (const value of [QUOTE.first_name, QUOTE.last_name, QUOTE.email, QUOTE.phone, QUOTE.message, '5550199', ...notes]) {
      expect(text).not.toContain(value.toLowerCase());
    }
    // another lead's history is untouched
    expect(events.find((e) => e.lead_id === kept)?.note).toBe('Sam booked a deep clean');
    expect((await db.query('SELECT 1 FROM public.leads')).rows).toEqual([]);
  });

  it('records a deleted discount sign-up the same way', async () => {
    const id = await insertAsOwner(db, 'discount_leads', DISCOUNT);
    await staff('DELETE FROM public.discount_leads WHERE id = $1', [id]);
    expect(await history()).toMatchObject([{ lead_kind: 'discount', lead_id: id, action: 'deleted', actor: STAFF.id }]);
  });
});

describe('search, filters and paging', () => {
  const search = (args: Record<string, unknown>) => {
    const names = Object.keys(args);
    return staff<Lead>(`SELECT * FROM public.search_leads(${names.map((n, i) => `${n} => $${i + 1}`).join(', ')})`, Object.values(args));
  };
  const count = async (args: Record<string, unknown>) => {
    const names = Object.keys(args);
    const rows = await staff<{ n: number }>(`SELECT public.count_leads(${names.map((n, i) => `${n} => $${i + 1}`).join(', ')}) AS n`, Object.values(args));
    return Number(rows[0]!.n);
  };

  it('finds a lead by name, email, phone (however it is written) or message, ignoring case', async () => {
    const maria = await insertAsOwner(db, 'leads', QUOTE);
    const ana = await insertAsOwner(db, 'leads', { ...QUOTE, first_name: 'Ana', last_name: 'Ruiz', email: 'ana@example.org', phone: '+1 650 555 0142', message: 'Is 50% off_season pricing real?' });
    const sam = await insertAsOwner(db, 'discount_leads', DISCOUNT);
    const ids = async (query: string) => (await search({ p_query: query })).map((l) => l.id).sort();
    expect(await ids('maria')).toEqual([maria]);
    expect(await ids('Maria LOPEZ')).toEqual([maria]);
    expect(await ids('ANA@EXAMPLE.ORG')).toEqual([ana]);
    expect(await ids('408-555-0199')).toEqual([maria]);
    expect(await ids('4085550199')).toEqual([maria]);
    expect(await ids('(408) 555-0100')).toEqual([sam]);
    expect(await ids('bedroom house')).toEqual([maria]);
    expect(await ids('sam.chen')).toEqual([sam]);
    expect(await ids('example.com')).toEqual([maria, sam].sort());
    // % and _ are characters, not wildcards
    expect(await ids('50%')).toEqual([ana]);
    expect(await ids('f_s')).toEqual([ana]);
    expect(await ids('%')).toEqual([ana]);
    expect(await ids('nobody')).toEqual([]);
    expect(await count({ p_query: 'example.com' })).toBe(2);
  });

  it('filters by status, kind and date (both ends included)', async () => {
    const old = await insertAsOwner(db, 'leads', { ...QUOTE, created_at: '2026-01-05T10:00:00Z' });
    const mid = await insertAsOwner(db, 'discount_leads', { ...DISCOUNT, created_at: '2026-02-10T10:00:00Z' });
    const recent = await insertAsOwner(db, 'leads', { ...QUOTE, email: 'maria2@example.com', created_at: '2026-03-01T10:00:00Z' });
    await setStatus('quote', recent, 'booked');
    const ids = async (args: Record<string, unknown>) => (await search(args)).map((l) => l.id);
    expect(await ids({})).toEqual([recent, mid, old]); // newest first
    expect(await ids({ p_status: 'booked' })).toEqual([recent]);
    expect(await ids({ p_status: 'new', p_kind: 'quote' })).toEqual([old]);
    expect(await ids({ p_kind: 'discount' })).toEqual([mid]);
    expect(await ids({ p_from: '2026-02-10T10:00:00Z', p_to: '2026-03-01T10:00:00Z' })).toEqual([recent, mid]);
    expect(await ids({ p_to: '2026-02-01T00:00:00Z' })).toEqual([old]);
    expect(await count({ p_status: 'new' })).toBe(2);
    expect(await count({ p_kind: 'quote', p_from: '2026-01-01T00:00:00Z' })).toBe(2);
  });

  it('pages through 1,000 leads newest first, each once, and count_leads agrees with every filter', async () => {
    await bulkInsert(async (tx) => {
      // 700 quote requests and 300 discount sign-ups, one a minute, every 7th quote booked
      await tx.exec(`
        INSERT INTO public.leads (first_name, last_name, email, phone, message, page, status, created_at)
          SELECT 'Client' || n, 'Number' || n, 'client' || n || '@example.com', '408 555 ' || lpad(n::text, 4, '0'),
                 'Message ' || n, 'contact', CASE WHEN n % 7 = 0 THEN 'booked' ELSE 'new' END,
                 timestamptz '2026-11-01T00:00:00Z' - n * interval '1 minute'
            FROM generate_series(1, 700) AS n;
        INSERT INTO public.discount_leads (email, phone, page, created_at)
          SELECT 'saver' || n || '@example.com', '650555' || lpad(n::text, 4, '0'), '/', timestamptz '2026-11-01T00:00:00Z' - (n * 2 + 1) * interval '1 minute' / 2
            FROM generate_series(1, 300) AS n;`);
    });
    const expected = (await db.query<{ id: string }>('SELECT id FROM public.inbox_leads ORDER BY created_at DESC, id DESC')).rows.map((r) => r.id);
    expect(expected).toHaveLength(1000);

    const seen: string[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = await search({ p_limit: 200, p_offset: offset });
      expect(page.length).toBeLessThanOrEqual(200);
      seen.push(...page.map((l) => l.id));
      if (page.length < 200) break;
    }
    expect(seen).toEqual(expected);
    expect(await count({})).toBe(1000);

    // A page is read from the created_at indexes and stops at its last row: no scan and sort of
    // everything. (A text search does read every row: a substring has no btree index to use.)
    await db.exec('ANALYZE public.leads, public.discount_leads');
    for (const args of [[null, null, null], ['booked', null, null], [null, 'discount', null]]) {
      const { rows: [filter] } = await db.query<{ w: string }>('SELECT private.lead_filter($1, $2, null, null, $3, null, null) AS w', args);
      const plan = (await db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT l.* FROM public.inbox_leads l WHERE ${filter!.w} ORDER BY l.created_at DESC, l.id DESC LIMIT 50 OFFSET 100`,
      )).rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan, plan).toMatch(/Index Scan/);
      expect(plan, plan).not.toMatch(/Seq Scan/);
    }

    for (const filters of [{ p_status: 'booked' }, { p_kind: 'discount' }, { p_query: 'client1' }, { p_status: 'new', p_query: '555 01' }, { p_from: '2026-10-31T20:00:00Z' }]) {
      const all: Lead[] = [];
      for (let offset = 0; ; offset += 200) {
        const page = await search({ ...filters, p_limit: 200, p_offset: offset });
        all.push(...page);
        if (page.length < 200) break;
      }
      expect(all.length, JSON.stringify(filters)).toBeGreaterThan(0);
      expect(await count(filters), JSON.stringify(filters)).toBe(all.length);
    }
    expect(await count({ p_status: 'booked' })).toBe(100);
    expect(await count({ p_query: 'client1' })).toBe(1 + 10 + 100); // clients 1, 10-19 and 100-199
  });

  it.each([
    ['p_limit 0', { p_limit: 0 }],
    ['p_limit 201', { p_limit: 201 }],
    ['a negative p_offset', { p_offset: -1 }],
    ['a search over 200 characters', { p_query: 'a'.repeat(201) }],
    ['an unknown status', { p_status: 'won' }],
    ['an unknown kind', { p_kind: 'lead' }],
  ])('refuses %s', async (_what, args) => {
    const err = await refusal(search(args));
    expect(['22023', '23514']).toContain(err.code);
  });
});

describe('inbox_stats', () => {
  /** Monday 00:00 UTC of the week of `d`, as YYYY-MM-DD. */
  const mondayOf = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7))).toISOString().slice(0, 10);

  it('counts the 24-hour promise, the median first response of 30 days and 12 weeks by source', async () => {
    const ago = (interval: string) => `now() - interval '${interval}'`;
    // [table, created, status, first response after, landing, referrer, page, notify failed]
    const fixture: [string, string, string, string | null, string | null, string | null, string, boolean][] = [
      ['leads', '1 hour', 'new', null, '/locations/deep-cleaning-san-jose-ca', '/contact', 'contact', false],
      ['leads', '21 hours', 'new', null, null, '/pricing', 'contact', true],
      ['discount_leads', '23 hours', 'new', null, null, null, '/deep-cleaning', false],
      ['leads', '25 hours', 'new', null, null, null, 'contact', false],
      ['discount_leads', '40 days', 'new', null, '/locations/deep-cleaning-san-jose-ca', null, '/', false],
      ['leads', '2 days', 'contacted', '1 hour', '/locations/deep-cleaning-san-jose-ca', null, 'contact', true],
      ['leads', '3 days', 'quoted', '3 hours', null, null, 'contact', false],
      ['leads', '5 days', 'booked', '2 hours', '/locations/deep-cleaning-san-jose-ca', null, 'contact', false],
      ['leads', '40 days', 'lost', '10 hours', null, null, 'contact', false],
      ['leads', '20 days', 'booked', '30 minutes', null, null, 'contact', false], // median: 30 min, 1 h, 2 h, 3 h → 1.5 h
      ['discount_leads', '9 days', 'spam', null, null, null, '/', false],
      ['leads', '100 days', 'booked', '1 hour', null, null, 'contact', false], // before the 12 weeks
    ];
    for (const [table, created, status, response, landing, referrer, page, failed] of fixture) {
      const person = table === 'leads' ? `'Maria', 'Lopez', 'maria@example.com', '(408) 555-0199', 'Clean, please', ` : `'sam@example.com', '4085550100', `;
      const cols = table === 'leads' ? 'first_name, last_name, email, phone, message, ' : 'email, phone, ';
      await db.query(
        `INSERT INTO public.${table} (${cols}page, status, created_at, first_response_at, landing_path, referrer_path, notify_failed_at)
         VALUES (${person}$1, $2, ${ago(created)}, ${response ? `${ago(created)} + interval '${response}'` : 'null'}, $3, $4, ${failed ? 'now()' : 'null'})`,
        [page, status, landing, referrer],
      );
    }
    const [{ stats }] = (await staff<{ stats: Record<string, unknown> }>('SELECT public.inbox_stats() AS stats')) as [{ stats: Record<string, unknown> }];
    expect(stats).toMatchObject({ new: 5, dueSoon: 2, overdue: 2, medianResponseSeconds: 5400, notifyFailed: 1 });

    // the weeks, worked out here from the stored rows
    const { rows } = await db.query<{ created_at: Date; status: string; source: string; now: Date }>(
      `SELECT created_at, status, now() AS now, coalesce(landing_path, referrer_path, CASE WHEN kind = 'discount' THEN page END, '/contact') AS source FROM public.inbox_leads`,
    );
    const thisMonday = new Date(`${mondayOf(rows[0]!.now)}T00:00:00Z`);
    const weeks = Array.from({ length: 12 }, (_, i) => ({
      week: new Date(thisMonday.getTime() - (11 - i) * 7 * 86_400_000).toISOString().slice(0, 10),
      total: 0,
      booked: 0,
      sources: {} as Record<string, number>,
    }));
    for (const row of rows) {
      const week = weeks.find((w) => w.week === mondayOf(row.created_at));
      if (!week) continue;
      week.total++;
      if (row.status === 'booked') week.booked++;
      week.sources[row.source] = (week.sources[row.source] ?? 0) + 1;
    }
    expect(stats.weeks).toEqual(weeks);
    expect(weeks.reduce((n, w) => n + w.total, 0)).toBe(fixture.length - 1); // all but the 100-day-old lead
    expect(weeks.filter((w) => w.total === 0).length).toBeGreaterThan(0); // empty weeks are listed too
  });

  it('answers null for the median and twelve empty weeks when there are no leads', async () => {
    const [{ stats }] = (await staff<{ stats: { medianResponseSeconds: unknown; new: number; weeks: { total: number; sources: object }[] } }>('SELECT public.inbox_stats() AS stats')) as [
      { stats: { medianResponseSeconds: unknown; new: number; weeks: { total: number; sources: object }[] } },
    ];
    expect(stats.medianResponseSeconds).toBeNull();
    expect(stats.new).toBe(0);
    expect(stats.weeks).toHaveLength(12);
    expect(stats.weeks.every((w) => w.total === 0 && Object.keys(w.sources).length === 0)).toBe(true);
  });
});

describe('the export', () => {
  it('leaves an event with the count and the filters, never the search text', async () => {
    await staff(`SELECT public.log_export(42, $1)`, [JSON.stringify({ status: 'new', kind: null, from: '2026-11-01', to: '', search: true, query: 'Maria Lopez', extra: 'x' })]);
    const events = await history();
    expect(events).toMatchObject([{ action: 'exported', lead_kind: null, lead_id: null, actor: STAFF.id, actor_email: STAFF.email }]);
    expect(events[0]?.detail).toEqual({ count: 42, filters: { status: 'new', from: '2026-11-01', to: '', search: true } });
    expect(JSON.stringify(events)).not.toContain('Maria');
  });

  it('refuses a negative count or filters that are not an object', async () => {
    expect((await refusal(staff(`SELECT public.log_export(-1, '{}')`))).code).toBe('22023');
    expect((await refusal(staff(`SELECT public.log_export(1, '[1]')`))).code).toBe('22023');
  });
});

describe('the notification (service role)', () => {
  const visitor = { 'x-forwarded-for': '203.0.113.50' };
  const claim = async (args: unknown[], client = '203.0.113.50') =>
    (await run<{ c: unknown }>('service_role', 'SELECT public.claim_lead_for_notification($1, $2, $3, $4, $5, $6, $7) AS c', [client, ...args]))[0]!.c;
  const quoteArgs = [QUOTE.page, QUOTE.email, QUOTE.phone, QUOTE.first_name, QUOTE.last_name, QUOTE.message];
  const discountArgs = [DISCOUNT.page, DISCOUNT.email, DISCOUNT.phone, null, null, null];

  it('claims the lead a visitor just sent, once, and says which it was', async () => {
    await run('anon', ...insertSql('public.leads', QUOTE), visitor);
    await run('anon', ...insertSql('public.discount_leads', DISCOUNT), visitor);
    const [quote] = (await db.query<{ id: string }>('SELECT id FROM public.leads')).rows;
    const [discount] = (await db.query<{ id: string }>('SELECT id FROM public.discount_leads')).rows;
    expect(await claim(quoteArgs)).toEqual({ kind: 'quote', id: quote!.id });
    expect(await claim(quoteArgs)).toBeNull(); // a replayed call finds nothing
    expect(await claim(discountArgs)).toEqual({ kind: 'discount', id: discount!.id });
    expect(await claim([...quoteArgs.slice(0, 5), 'another message'])).toBeNull();
  });

  it('claims nothing older than ten minutes, and the old claim says the same as a boolean', async () => {
    await insertAsOwner(db, 'leads', { ...QUOTE, created_at: new Date(Date.now() - 11 * 60_000) });
    expect(await claim(quoteArgs)).toBeNull();
    const old = await run<{ c: boolean }>('service_role', 'SELECT public.claim_lead_notification($1, $2, $3, $4, $5, $6, $7) AS c', ['203.0.113.50', ...quoteArgs]);
    expect(old[0]?.c).toBe(false);
    await insertAsOwner(db, 'leads', QUOTE);
    const fresh = await run<{ c: boolean }>('service_role', 'SELECT public.claim_lead_notification($1, $2, $3, $4, $5, $6, $7) AS c', ['203.0.113.50', ...quoteArgs]);
    expect(fresh[0]?.c).toBe(true);
  });

  it('refuses a client replaying the call past the notify limit (PT429)', async () => {
    const { rows } = await db.query<{ per_client: number }>(`SELECT per_client FROM private.rate_limits WHERE bucket = 'notify'`);
    const max = rows[0]!.per_client;
    for (let i = 0; i < max; i++) expect(await claim(discountArgs, '203.0.113.51')).toBeNull();
    expect((await refusal(claim(discountArgs, '203.0.113.51'))).code).toBe('PT429');
  });

  it('records a failed message on the lead, in the history and in the figures', async () => {
    const id = await insertAsOwner(db, 'leads', QUOTE);
    await run('service_role', `SELECT public.record_notification_failure('quote', $1)`, [id]);
    const [lead] = await staff<Lead>(`SELECT * FROM public.inbox_leads WHERE id = $1`, [id]);
    expect(lead?.notify_failed_at).toBeInstanceOf(Date);
    expect(await history()).toMatchObject([{ lead_kind: 'quote', lead_id: id, action: 'notify_failed', actor: null, note: null }]);
    const [{ stats }] = (await staff<{ stats: { notifyFailed: number } }>('SELECT public.inbox_stats() AS stats')) as [{ stats: { notifyFailed: number } }];
    expect(stats.notifyFailed).toBe(1);
    expect((await refusal(run('service_role', `SELECT public.record_notification_failure('quote', $1)`, [crypto.randomUUID()]))).code).toBe('P0002');
    expect((await refusal(run('service_role', `SELECT public.record_notification_failure('lead', $1)`, [id]))).code).toBe('22023');
  });
});

describe('the staff list (service role)', () => {
  it('adds, lists and removes staff; a removed member sees no lead any more', async () => {
    await insertAsOwner(db, 'leads', QUOTE);
    const list = () => run<{ user_id: string; email: string; added_at: Date }>('service_role', 'SELECT * FROM public.staff_list()');
    expect((await list()).map((s) => s.email)).toEqual([STAFF.email]);

    await run('service_role', 'SELECT public.staff_add($1, $2)', [NON_STAFF.id, NON_STAFF.email.toUpperCase()]);
    expect((await list()).map((s) => s.user_id).sort()).toEqual([STAFF.id, NON_STAFF.id].sort());
    expect(await run('non-staff', 'SELECT id FROM public.leads')).toHaveLength(1);

    await run('service_role', 'SELECT public.staff_remove($1)', [NON_STAFF.id]);
    expect(await run('non-staff', 'SELECT id FROM public.leads')).toEqual([]);
    expect((await refusal(run('service_role', 'SELECT public.staff_remove($1)', [NON_STAFF.id]))).code).toBe('P0002');
  });

  it('refuses a user that does not exist or an email that is not theirs', async () => {
    expect((await refusal(run('service_role', 'SELECT public.staff_add($1, $2)', [crypto.randomUUID(), 'ghost@example.com']))).code).toBe('22023');
    expect((await refusal(run('service_role', 'SELECT public.staff_add($1, $2)', [NON_STAFF.id, 'someone.else@example.com']))).code).toBe('22023');
  });
});

describe("the visitor's new columns", () => {
  const send = (row: Record<string, unknown>, table = 'public.leads') => run('anon', ...insertSql(table, row), { 'x-forwarded-for': '198.51.100.7' });

  it('stores where the visit began and the page before /contact', async () => {
    await send({ ...QUOTE, landing_path: '/locations/deep-cleaning-san-jose-ca', referrer_path: '/services/move-out-cleaning' });
    await send({ ...DISCOUNT, landing_path: '/', referrer_path: null }, 'public.discount_leads');
    const { rows } = await db.query('SELECT kind, landing_path, referrer_path, status FROM public.inbox_leads ORDER BY kind');
    expect(rows).toEqual([
      { kind: 'discount', landing_path: '/', referrer_path: null, status: 'new' },
      { kind: 'quote', landing_path: '/locations/deep-cleaning-san-jose-ca', referrer_path: '/services/move-out-cleaning', status: 'new' },
    ]);
  });

  it.each([
    ['a full URL', 'https://www.example.com/pricing'],
    ['a query string', '/pricing?utm_source=mail&email=maria@example.com'],
    ['a fragment', '/pricing#top'],
    ['a path over 200 characters', `/${'a'.repeat(200)}`],
    ['upper case', '/Pricing'],
  ])('refuses %s as a path', async (_what, path) => {
    expect((await refusal(send({ ...QUOTE, landing_path: path }))).code).toBe('23514');
    expect((await refusal(send({ ...DISCOUNT, referrer_path: path }, 'public.discount_leads'))).code).toBe('23514');
  });

  it.each(['status', 'first_response_at', 'notify_failed_at', 'notified_at'])('does not let a visitor set %s', async (column) => {
    const value = column === 'status' ? 'booked' : '2026-01-01T00:00:00Z';
    expect((await refusal(send({ ...QUOTE, [column]: value }))).code).toBe('42501');
    expect((await refusal(send({ ...DISCOUNT, [column]: value }, 'public.discount_leads'))).code).toBe('42501');
  });
});
