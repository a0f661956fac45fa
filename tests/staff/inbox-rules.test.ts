import { describe, expect, it } from 'vitest';
import { filterParams } from '../../staff/inbox/api.js';
import { NO_FILTERS } from '../../staff/inbox/model.js';
import { leadHash, parseLeadHash } from '../../staff/inbox/route.js';
import { formatDuration, promiseState, timeAgo } from '../../staff/inbox/time.js';
import { chartSeries } from '../../staff/inbox/WeeksChart.js';

const ID = '0b7c8f1e-1111-4222-8333-944445555666';
const now = new Date('2026-11-23T12:00:00Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600_000).toISOString();

describe('the 24-hour promise', () => {
  it('highlights a new lead past 20 hours and marks it overdue past 24', () => {
    expect(promiseState({ status: 'new', created_at: hoursAgo(19.9) }, now)).toBeUndefined();
    expect(promiseState({ status: 'new', created_at: hoursAgo(20) }, now)).toBe('dueSoon');
    expect(promiseState({ status: 'new', created_at: hoursAgo(23.99) }, now)).toBe('dueSoon');
    expect(promiseState({ status: 'new', created_at: hoursAgo(24) }, now)).toBe('overdue');
  });

  it('never calls a lead that was answered late', () => {
    expect(promiseState({ status: 'contacted', created_at: hoursAgo(100) }, now)).toBeUndefined();
    expect(promiseState({ status: 'spam', created_at: hoursAgo(100) }, now)).toBeUndefined();
  });

  it('says how long ago and how long a response took in words', () => {
    expect(timeAgo(new Date(hoursAgo(0.001)), now)).toBe('just now');
    expect(timeAgo(new Date(hoursAgo(0.5)), now)).toBe('30 min ago');
    expect(timeAgo(new Date(hoursAgo(3)), now)).toBe('3 h ago');
    expect(timeAgo(new Date(hoursAgo(49)), now)).toBe('2 days ago');
    expect(formatDuration(45 * 60)).toBe('45 min');
    expect(formatDuration(3 * 3600 + 20 * 60)).toBe('3 h 20 min');
    expect(formatDuration(26 * 3600)).toBe('1 day 2 h');
  });
});

describe("a lead's address", () => {
  it('round-trips /leads#lead/<kind>/<id>', () => {
    expect(parseLeadHash(leadHash({ kind: 'discount', id: ID }))).toEqual({ kind: 'discount', id: ID });
    expect(parseLeadHash(`#lead/quote/${ID.toUpperCase()}`)).toEqual({ kind: 'quote', id: ID });
  });

  it.each(['', '#', '#lead', `#lead/other/${ID}`, '#lead/quote/not-a-uuid', `#lead/quote/${ID}/extra`, `#x/quote/${ID}`])('ignores %j', (hash) => {
    expect(parseLeadHash(hash)).toBeUndefined();
  });
});

describe('filters as the RPCs take them', () => {
  it('sends null for what is not filtered and whole days for a date range', () => {
    expect(filterParams(NO_FILTERS)).toEqual({ p_status: null, p_kind: null, p_from: null, p_to: null, p_query: null, p_channel: null, p_campaign: null, p_lang: null });
    const p = filterParams({ status: 'new', kind: 'quote', from: '2026-11-01', to: '2026-11-20', query: '  ana ', channel: 'google_ads', campaign: ' spring ', lang: 'es' });
    expect(p.p_query).toBe('ana');
    expect([p.p_channel, p.p_campaign, p.p_lang]).toEqual(['google_ads', 'spring', 'es']);
    expect(new Date(p.p_to!).getTime() - new Date(p.p_from!).getTime()).toBeGreaterThanOrEqual(20 * 24 * 3600_000 - 3600_000);
    expect(new Date(p.p_from!).getDate()).toBe(1);
  });
});

describe('the weekly chart', () => {
  it('gives the four busiest pages a colour each and sums the rest', () => {
    const sources = { '/a': 5, '/b': 4, '/c': 3, '/d': 2, '/e': 1, '/f': 1 };
    expect(chartSeries([{ week: '2026-11-16', total: 16, booked: 2, sources }])).toEqual(['/a', '/b', '/c', '/d', 'Other pages']);
    expect(chartSeries([{ week: '2026-11-16', total: 3, booked: 0, sources: { '/a': 1, '/b': 2 } }])).toEqual(['/b', '/a']);
  });
});
