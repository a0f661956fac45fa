/**
 * Which marketing brings booked jobs (issue 31), in the database with the real migrations: the one
 * channel rule table (private.touch_channel) case by case, its keys named by the inbox, the
 * lead's channel and campaign (last non-direct touch), the report by channel and campaign, the
 * value of a booked job and its trace in the history, the offline conversions of a date range with
 * their trace, the touch times the database alone can judge, and deleting a lead deleting its touches.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHANNELS, type Channel } from '../../staff/inbox/model.js';
import { as, type InboxDb, insertAsOwner, openInboxDbOn, QUOTE, DISCOUNT, refusal } from './inboxDb.js';

let db: InboxDb;
beforeAll(async () => { db = await openInboxDbOn('pglite'); });
afterAll(async () => { await db?.close(); });

interface TouchCase { source?: string; medium?: string; campaign?: string; gclid?: string; gbraid?: string; wbraid?: string; fbclid?: string; msclkid?: string; host?: string; landing?: string }

async function channelOf(t: TouchCase | null): Promise<Channel | null> {
  const touched = t === null ? null : new Date().toISOString();
  const { rows } = await db.query<{ c: Channel | null }>(
    'SELECT private.touch_channel($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) AS c',
    t === null ? Array(11).fill(null) : [t.source ?? null, t.medium ?? null, t.campaign ?? null, t.gclid ?? null, t.gbraid ?? null, t.wbraid ?? null,
      t.fbclid ?? null, t.msclkid ?? null, t.host ?? null, t.landing ?? '/', touched],
  );
  return rows[0]!.c;
}

// The rule table, as docs/inbox.md explains it to the owner: first match wins.
const CASES: [string, TouchCase | null, Channel | null][] = [
  ['nothing recorded', null, null],
  ['typed in or a bookmark', {}, 'direct'],
  ['the Business Profile link', { source: 'google', medium: 'organic', campaign: 'gbp', host: 'www.google.com' }, 'google_business_profile'],
  ['the Business Profile link, any case', { source: 'Google', medium: 'Organic', campaign: 'GBP' }, 'google_business_profile'],
  ['a Google Ads click (auto-tagging)', { gclid: 'Cj0KCQ', host: 'www.google.com' }, 'google_ads'],
  ['a Google Ads click from iOS (gbraid)', { gbraid: '0AAAAA' }, 'google_ads'],
  ['a Google Ads click from iOS (wbraid)', { wbraid: 'CkQKCQ' }, 'google_ads'],
  ['Google cpc tagged by hand', { source: 'google', medium: 'cpc', campaign: 'spring' }, 'google_ads'],
  ['a Microsoft Ads click', { msclkid: 'f894f652ea334e739002f7167ab8f8e3', host: 'www.bing.com' }, 'microsoft_ads'],
  ['Bing cpc tagged by hand', { source: 'bing', medium: 'cpc' }, 'microsoft_ads'],
  ['a Meta ad: fbclid and a paid medium', { fbclid: 'IwAR3', source: 'fb', medium: 'paid_social' }, 'meta_ads'],
  ['an Instagram ad tagged by hand', { source: 'instagram', medium: 'cpc' }, 'meta_ads'],
  ['a Facebook share: fbclid without a paid medium', { fbclid: 'IwAR3', host: 'l.facebook.com' }, 'referral'],
  ['Nextdoor paid', { source: 'nextdoor', medium: 'paid' }, 'other_paid'],
  ['Yelp ads', { source: 'yelp', medium: 'cpc' }, 'other_paid'],
  ['a newsletter', { source: 'newsletter', medium: 'email', campaign: 'november' }, 'email'],
  ['an e-mail medium', { source: 'past-customers', medium: 'E-mail' }, 'email'],
  ['Google search', { host: 'www.google.com' }, 'organic_search'],
  ['Google search abroad', { host: 'www.google.co.uk' }, 'organic_search'],
  ['Bing search', { host: 'www.bing.com' }, 'organic_search'],
  ['DuckDuckGo', { host: 'duckduckgo.com' }, 'organic_search'],
  ['organic tagged by hand', { source: 'bing', medium: 'organic' }, 'organic_search'],
  ['not a search engine: a look-alike host', { host: 'google.com.evil.example' }, 'referral'],
  ['a Yelp listing tagged organic', { source: 'yelp', medium: 'organic', host: 'www.yelp.com' }, 'other_campaign'],
  ['a flyer QR code', { source: 'flyer', medium: 'print', campaign: 'spring' }, 'other_campaign'],
  ['another site', { host: 'www.nextdoor.com' }, 'referral'],
];

describe('the channel rule table', () => {
  it.each(CASES)('%s', async (_, touch, channel) => {
    expect(await channelOf(touch)).toBe(channel);
  });

  it('the inbox names exactly the channels the database may answer', async () => {
    const { rows } = await db.query<{ def: string }>(`SELECT pg_get_constraintdef(c.oid) AS def FROM pg_constraint c JOIN pg_type t ON t.oid = c.contypid WHERE t.typname = 'lead_channel'`);
    const keys = [...rows[0]!.def.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
    expect(keys.sort()).toEqual([...CHANNELS].sort());
    expect(new Set(CASES.map(([, , c]) => c).filter(Boolean))).toEqual(new Set(CHANNELS));
  });
});

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
const staff = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  as(db, 'staff@aal2', async (tx) => (await tx.query<T>(sql, params)).rows, { commit: true });

/** A quote lead with touches, stored `age` days ago (as the owner, who may set created_at). */
async function lead(email: string, age: number, touches: Record<string, unknown>): Promise<string> {
  return insertAsOwner(db, 'leads', { ...QUOTE, email, created_at: daysAgo(age), ...touches });
}

describe('the lead\'s channel, the report and the conversions', () => {
  let ad: string; let cameBack: string; let search: string; let gbp: string; let stale: string; let bing: string;

  beforeEach(async () => {
    await db.exec('TRUNCATE public.leads, public.discount_leads, public.lead_events, private.chat_outbox');
    // An ad click, booked; a visitor who clicked an ad and came back typing the address, booked;
    // an organic search lead, contacted; a Business Profile discount sign-up; an ad click 100 days old.
    ad = await lead('ad@example.com', 10, { last_utm_source: 'google', last_utm_medium: 'cpc', last_utm_campaign: 'spring-deep-clean', last_gclid: 'Cj0_ad', last_touch_at: daysAgo(10), first_gclid: 'Cj0_ad', first_touch_at: daysAgo(10) });
    cameBack = await lead('back@example.com', 8, { first_gclid: 'Cj0_first', first_utm_campaign: 'move-out', first_touch_at: daysAgo(12), last_landing_path: '/', last_touch_at: daysAgo(8) });
    search = await lead('search@example.com', 5, { last_referrer_host: 'www.google.com', last_landing_path: '/', last_touch_at: daysAgo(5) });
    gbp = await insertAsOwner(db, 'discount_leads', { ...DISCOUNT, created_at: daysAgo(4), last_utm_source: 'google', last_utm_medium: 'organic', last_utm_campaign: 'gbp', last_touch_at: daysAgo(4) });
    bing = await lead('bing@example.com', 3, { last_msclkid: 'f894f652ea334e739002f7167ab8f8e3', last_touch_at: daysAgo(3) });
    stale = await lead('stale@example.com', 2, { first_gclid: 'Cj0_stale', first_touch_at: daysAgo(92) });
    await db.exec(`UPDATE public.leads SET created_at = now() - interval '2 days' WHERE id = '${stale}'`);
    for (const [id, value] of [[ad, 450], [cameBack, 300.5], [bing, null], [stale, 120]] as const) {
      await staff(`SELECT public.set_lead_status('quote', $1, 'booked', null, $2)`, [id, value]);
    }
    await staff(`SELECT public.set_lead_status('quote', $1, 'contacted')`, [search]);
  });

  it('each lead has the channel and campaign of its last touch, or of its first when the last came direct', async () => {
    const rows = await staff<{ id: string; channel: string | null; campaign: string | null; first_channel: string | null; last_channel: string | null }>(
      'SELECT id, channel, campaign, first_channel, last_channel FROM public.search_leads()');
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(byId[ad]).toMatchObject({ channel: 'google_ads', campaign: 'spring-deep-clean' });
    expect(byId[cameBack]).toMatchObject({ channel: 'google_ads', campaign: 'move-out', first_channel: 'google_ads', last_channel: 'direct' });
    expect(byId[search]).toMatchObject({ channel: 'organic_search', campaign: null });
    expect(byId[gbp]).toMatchObject({ channel: 'google_business_profile', campaign: 'gbp' });
  });

  it('filters the list by channel and campaign (any case), and counts the same', async () => {
    const ids = async (args: string) => (await staff<{ id: string }>(`SELECT id FROM public.search_leads(${args})`)).map((r) => r.id).sort();
    expect(await ids(`p_channel => 'google_ads'`)).toEqual([ad, cameBack, stale].sort());
    expect(await ids(`p_channel => 'google_ads', p_campaign => 'Spring-Deep-Clean'`)).toEqual([ad]);
    expect(await ids(`p_campaign => 'gbp'`)).toEqual([gbp]);
    expect(await staff(`SELECT public.count_leads(p_channel => 'organic_search') AS n`)).toEqual([{ n: 1 }]);
    expect((await refusal(staff(`SELECT public.count_leads(p_channel => 'tiktok')`))).code).toBe('23514');
  });

  it('the report counts leads, contacted, booked, the median first response and the booked value per channel and campaign', async () => {
    const { report } = (await staff<{ report: { channels: Record<string, unknown>[]; campaigns: Record<string, unknown>[] } }>(
      'SELECT public.attribution_report($1, $2) AS report', [daysAgo(30), new Date().toISOString()]))[0]!;
    const google = report.channels.find((c) => c['channel'] === 'google_ads')!;
    expect(google).toMatchObject({ leads: 3, contacted: 3, booked: 3, bookedValue: 870.5 });
    expect(google['medianResponseSeconds']).toBeGreaterThan(0);
    expect(report.channels.find((c) => c['channel'] === 'organic_search')).toMatchObject({ leads: 1, contacted: 1, booked: 0, bookedValue: 0 });
    expect(report.campaigns).toContainEqual(expect.objectContaining({ channel: 'google_ads', campaign: 'spring-deep-clean', leads: 1, booked: 1, bookedValue: 450 }));
    // a date range leaves out what came in before it
    const { recent } = (await staff<{ recent: { channels: { channel: string; leads: number }[] } }>('SELECT public.attribution_report($1) AS recent', [daysAgo(6)]))[0]!;
    expect(recent.channels.map((c) => c.channel).sort()).toEqual(['google_ads', 'google_business_profile', 'microsoft_ads', 'organic_search']);
  });

  it('the job\'s value is in the history, whoever sets it; out of range is refused', async () => {
    const events = await staff<{ action: string; to_status: string | null; detail: unknown }>(
      `SELECT action, to_status, detail FROM public.lead_events WHERE lead_id = $1 ORDER BY id`, [ad]);
    expect(events).toEqual([
      { action: 'status', to_status: 'booked', detail: null },
      { action: 'note', to_status: null, detail: { booked_value: 450, previous_value: null } },
    ]);
    await staff('UPDATE public.leads SET booked_value = 500 WHERE id = $1', [ad]);
    expect((await staff<{ detail: unknown }>(`SELECT detail FROM public.lead_events WHERE lead_id = $1 ORDER BY id DESC LIMIT 1`, [ad]))[0]!.detail)
      .toEqual({ booked_value: 500, previous_value: 450 });
    expect((await refusal(staff(`SELECT public.set_lead_status('quote', $1, null, null, -1)`, [ad]))).code).toBe('23514');
    expect((await refusal(staff(`SELECT public.set_lead_status('quote', $1, null, null, 1000000.01)`, [ad]))).code).toBe('23514');
  });

  it('the conversions of a date range: booked, with that platform\'s click id from the last 90 days, and a trace in the history', async () => {
    const google = await staff<{ click_id: string; booked_value: string | null; booked_at: string }>(`SELECT * FROM public.ad_conversions('google_ads', $1, $2)`, [daysAgo(1), new Date(Date.now() + 60_000).toISOString()]);
    // the returning visitor's first-touch click counts; the 92-day-old click does not
    expect(google.map((c) => [c.click_id, Number(c.booked_value)]).sort()).toEqual([['Cj0_ad', 450], ['Cj0_first', 300.5]]);
    const microsoft = await staff<{ click_id: string; booked_value: string | null }>(`SELECT * FROM public.ad_conversions('microsoft_ads')`);
    expect(microsoft).toEqual([expect.objectContaining({ click_id: 'f894f652ea334e739002f7167ab8f8e3', booked_value: null })]);
    const trace = await staff<{ detail: { count: number; filters: Record<string, string> } }>(`SELECT detail FROM public.lead_events WHERE action = 'exported' ORDER BY id`);
    expect(trace.map((t) => [t.detail.count, t.detail.filters['format']])).toEqual([[2, 'google_ads'], [1, 'microsoft_ads']]);
    expect((await refusal(staff(`SELECT * FROM public.ad_conversions('meta')`))).code).toBe('22023');
  });

  it('deleting a lead on request deletes its touches with it', async () => {
    await staff('DELETE FROM public.leads WHERE id = $1', [ad]);
    const { rows } = await db.query(`SELECT 1 FROM public.leads WHERE 'Cj0_ad' IN (first_gclid, last_gclid)
      UNION ALL SELECT 1 FROM public.lead_events WHERE detail::text LIKE '%Cj0_ad%'`);
    expect(rows).toEqual([]);
  });
});

describe('the touch times the database alone can judge', () => {
  beforeEach(async () => { await db.exec('DELETE FROM private.rate_events'); }); // the leads above counted too
  const visitor = (touchAt: string) => as(db, 'anon', (tx) => tx.query(
    `INSERT INTO public.leads (first_name, last_name, email, phone, message, page, first_gclid, first_touch_at) VALUES ('Ana', 'Ruiz', 'ana@example.com', '408 555 0111', 'Hi', 'contact', 'Cj0', $1)`, [touchAt]));

  it('takes a touch up to 90 days old', async () => {
    await expect(visitor(daysAgo(89))).resolves.toBeDefined();
  });

  it.each([['older than the import window', 100], ['days ahead of the lead', -3]])('refuses a touch %s', async (_, age) => {
    expect((await refusal(visitor(daysAgo(age)))).code).toBe('23514');
  });
});
