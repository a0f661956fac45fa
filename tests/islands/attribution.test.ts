/**
 * Which marketing brought a lead (issue 31), in the browser's part: the inline font loader notes
 * the touches as a page runs it (here in a VM with fake storage, an address, a referrer and an
 * injected clock, so its storage keys and the forms' cannot drift apart), the forms' reader holds
 * every value to the database's rule and drops what breaks it, and a lead the database refuses
 * with its attribution is sent again without it.
 */
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanTouch, currentAttribution, FIRST_TOUCH_KEY, TOUCH_KEY } from '../../src/lib/attribution.js';
import { submitContactLead, submitDiscountLead, type LeadApi } from '../../src/lib/leads.js';
import type { LeadSource } from '../../src/lib/leadSource.js';
import { discountTexts, fakeStorage } from './fixtures.js';

const ORIGIN = 'https://www.bayshinecleaning.com';
const DAY = 86_400_000;
const START = Date.parse('2026-09-01T16:00:00Z');
const CITY = '/locations/deep-cleaning-san-jose-ca';
const AD = `${CITY}?utm_source=google&utm_medium=cpc&utm_campaign=spring-deep-clean&utm_term=deep+cleaning&gclid=Cj0KCQiA_x-Y1&email=maria@example.com`;

/** A Date whose "now" is `ms`, as an injected clock gives the page. */
function clockAt(ms: number): DateConstructor {
  return class extends Date {
    constructor(...args: unknown[]) {
      if (args.length) super(...(args as [string]));
      else super(ms);
    }
    static override now() { return ms; }
  } as DateConstructor;
}

/** A browser: localStorage lives on, sessionStorage is one visit's. */
class Browser {
  local = fakeStorage();
  session = fakeStorage();
  newVisit() { this.session = fakeStorage(); }

  /** Opens `address` (a path with its query) as the font loader sees it, at time `ms`. */
  open(address: string, ms: number, referrer = ''): void {
    const url = new URL(address, ORIGIN);
    runInNewContext(readFileSync('src/scripts/font-loader.js', 'utf8'), {
      location: url, document: { referrer, currentScript: { dataset: {} } }, addEventListener() {},
      sessionStorage: this.session, localStorage: this.local, URL, URLSearchParams, Date: clockAt(ms),
    });
  }

  /** What a form sent at `ms` would store. */
  attribution(ms: number) {
    vi.stubGlobal('window', { localStorage: this.local, sessionStorage: this.session });
    return currentAttribution(new Date(ms));
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('first and last touch', () => {
  it('an ad click to a city page, two more pages, the form: both touches are the ad, only the known parameters', () => {
    const browser = new Browser();
    browser.open(AD, START, 'https://www.google.com/');
    browser.open('/services', START + 60_000, `${ORIGIN}${CITY}`);
    browser.open('/contact', START + 120_000, `${ORIGIN}/services`);
    const at = new Date(START).toISOString();
    const touch = { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'spring-deep-clean', utm_term: 'deep cleaning', gclid: 'Cj0KCQiA_x-Y1', referrer_host: 'www.google.com', landing_path: CITY, touch_at: at };
    const sent = browser.attribution(START + 180_000);
    for (const [field, value] of Object.entries(touch)) {
      expect(sent[`first_${field}` as keyof typeof sent], field).toBe(value);
      expect(sent[`last_${field}` as keyof typeof sent], field).toBe(value);
    }
    expect(sent.first_msclkid).toBeNull();
    // The address's other parameters (here an email) are never kept.
    expect(JSON.stringify([browser.local, browser.session])).not.toContain('maria');
  });

  it('a second visit days later from a search engine keeps the first touch and records the new last touch', () => {
    const browser = new Browser();
    browser.open(AD, START, 'https://www.google.com/');
    browser.newVisit();
    const later = START + 5 * DAY;
    browser.open('/', later, 'https://duckduckgo.com/');
    browser.open('/contact', later + 60_000, `${ORIGIN}/`);
    const sent = browser.attribution(later + 120_000);
    expect(sent).toMatchObject({
      first_gclid: 'Cj0KCQiA_x-Y1', first_utm_campaign: 'spring-deep-clean', first_landing_path: CITY, first_touch_at: new Date(START).toISOString(),
      last_gclid: null, last_utm_campaign: null, last_referrer_host: 'duckduckgo.com', last_landing_path: '/', last_touch_at: new Date(later).toISOString(),
    });
  });

  it('a visit typed in (no parameters, no referrer) is a direct touch of its own, and does not replace the first', () => {
    const browser = new Browser();
    browser.open(AD, START);
    browser.newVisit();
    browser.open('/pricing', START + DAY);
    const sent = browser.attribution(START + DAY);
    expect(sent).toMatchObject({ first_gclid: 'Cj0KCQiA_x-Y1', last_landing_path: '/pricing', last_referrer_host: null, last_utm_source: null });
  });

  it('a tagged link opened during a visit becomes its last touch', () => {
    const browser = new Browser();
    browser.open('/', START);
    browser.open('/deep-cleaning?utm_source=newsletter&utm_medium=email&utm_campaign=november', START + 1000, `${ORIGIN}/`);
    expect(browser.attribution(START + 2000)).toMatchObject({ first_utm_source: null, first_landing_path: '/', last_utm_campaign: 'november', last_utm_medium: 'email' });
  });

  it('after 90 days the first touch expires: the reader drops it, and the next visit becomes the first', () => {
    const browser = new Browser();
    browser.open(AD, START);
    browser.newVisit();
    expect(browser.attribution(START + 89 * DAY).first_gclid).toBe('Cj0KCQiA_x-Y1');
    expect(browser.attribution(START + 90 * DAY).first_gclid).toBeNull();
    browser.open('/?utm_source=yelp&utm_medium=referral', START + 91 * DAY, 'https://www.yelp.com/');
    expect(browser.attribution(START + 91 * DAY)).toMatchObject({ first_gclid: null, first_utm_source: 'yelp', first_referrer_host: 'www.yelp.com' });
  });

  it('blocked storage: the loader goes on and the form sends no attribution', () => {
    const blocked = { get localStorage(): Storage { throw new DOMException('The operation is insecure.', 'SecurityError'); },
      get sessionStorage(): Storage { throw new DOMException('The operation is insecure.', 'SecurityError'); } };
    expect(() => runInNewContext(readFileSync('src/scripts/font-loader.js', 'utf8'), Object.defineProperties(
      { location: new URL(AD, ORIGIN), document: { referrer: '', currentScript: { dataset: {} } }, URL, URLSearchParams, addEventListener() {} },
      Object.getOwnPropertyDescriptors(blocked)))).not.toThrow();
    vi.stubGlobal('window', blocked);
    expect(Object.values(currentAttribution(new Date(START))).every((v) => v === null)).toBe(true);
  });
});

describe('the reader holds each value to the database rule', () => {
  const now = new Date(START);
  const stored = (touch: object) => JSON.stringify({ landing_path: '/', touch_at: new Date(START - DAY).toISOString(), ...touch });

  it('drops what breaks the rule and keeps the rest', () => {
    expect(cleanTouch(stored({
      utm_source: ' google ', utm_medium: 'cpc\u0007', utm_campaign: 'x'.repeat(201), utm_term: '<script>alert(1)</script>',
      utm_content: 'ad 1', gclid: 'Cj0 KCQ', msclkid: 'f894f652ea334e739002f7167ab8f8e3', fbclid: 42, referrer_host: 'WWW.Bing.COM',
    }), now)).toEqual({ utm_source: 'google', utm_content: 'ad 1', msclkid: 'f894f652ea334e739002f7167ab8f8e3', referrer_host: 'www.bing.com', landing_path: '/', touch_at: new Date(START - DAY).toISOString() });
  });

  it.each([['not JSON', '{'], ['an array', '[1]'], ['a string', '"gclid"'], ['nothing', null]])('%s is no touch', (_, raw) => {
    expect(cleanTouch(raw, now)).toBeNull();
  });

  it('a time ahead of the clock is dropped, and a first touch without a time has no age: dropped', () => {
    const ahead = stored({ gclid: 'abc', touch_at: new Date(START + DAY).toISOString() });
    expect(cleanTouch(ahead, now)).toEqual({ gclid: 'abc', landing_path: '/' });
    expect(cleanTouch(ahead, now, 90)).toBeNull();
  });
});

describe('a refused attribution never costs the lead', () => {
  const contact = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '408 555 0186', message: 'Deep clean please' };
  const source: LeadSource = { landing_path: '/contact', referrer_path: null, last_gclid: 'Cj0KCQiA_x-Y1', last_touch_at: '2020-01-01T00:00:00.000Z' };

  function api(refusal: { code: string; message: string }) {
    const rows: Record<string, unknown>[] = [];
    const fake = {
      insert: async (_table: string, row: Record<string, unknown>) => {
        rows.push(row);
        return { error: row['last_gclid'] ? refusal : null };
      },
      notify: async () => ({ error: null }),
      webhook: async () => {},
    } as unknown as LeadApi;
    return { fake, rows };
  }

  it('a value the database refuses (23514): the quote is sent again without its attribution, and stored', async () => {
    const { fake, rows } = api({ code: '23514', message: 'violates check constraint "leads_last_touch_at_near"' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(submitContactLead(contact, source, fake)).resolves.toEqual({ ok: true });
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '408 555 0186', message: 'Deep clean please', page: 'contact', landing_path: '/contact', referrer_path: null });
    expect(warn).toHaveBeenCalledOnce();
  });

  it('the discount sign-up too', async () => {
    const { fake, rows } = api({ code: '22007', message: 'invalid input syntax for type timestamp' });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(submitDiscountLead({ email: 'sam@example.com', phone: '4085550100' }, '/', source, discountTexts.notification, fake, '')).resolves.toEqual({ ok: true });
    expect(rows.map((r) => 'last_gclid' in r)).toEqual([true, false]);
  });

  it('a refusal that is not about a value (the rate limit) is not sent twice', async () => {
    const { fake, rows } = api({ code: 'PT429', message: 'Too many submissions' });
    await expect(submitContactLead(contact, source, fake)).resolves.toMatchObject({ ok: false });
    expect(rows).toHaveLength(1);
  });
});
