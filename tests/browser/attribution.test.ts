/**
 * Which marketing brought a lead (issue 31), in Chromium on the built site: an ad click lands on a
 * city page with UTM parameters and a gclid, the visitor reads two more pages and sends the quote
 * form, and the row the owner reads back holds both touches; a second visit days later (the first
 * visit's clock injected days back) from a search engine keeps the first touch and records the new
 * last one; a value the database would refuse never costs the lead. Nothing is sent before the form.
 */
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkContent } from '../../generator/build.js';
import type { SiteModel } from '../../contracts/content.js';
import { collectConsole, islandHydrated, type ConsoleLog } from '../../tools/browser.js';
import { sendDiscountPopup, sendQuoteForm } from '../helpers/forms.js';
import { resetRateLimits, useBrowser, useSite } from '../helpers/site.js';

const site = useSite();
const browser = useBrowser();
let model: SiteModel;
beforeAll(async () => { model = (await checkContent({ root: process.cwd() })).model; });

const CITY = '/locations/deep-cleaning-san-jose-ca';
const GCLID = 'Cj0KCQiA_x-Y1_test';
const AD = `${CITY}?utm_source=google&utm_medium=cpc&utm_campaign=spring-deep-clean&utm_term=deep+cleaning+san+jose&utm_content=ad-a&gclid=${GCLID}`;
const DAY = 86_400_000;

const contexts: BrowserContext[] = [];
let log: ConsoleLog[] = [];

beforeEach(async () => { await resetRateLimits(site.backend); });
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close();
  for (const l of log.splice(0)) expect(l.errors, 'console errors').toEqual([]);
});

/** A tab of a new browser (or one that keeps `state`'s localStorage: the same browser, a new visit). */
async function visit(state?: Awaited<ReturnType<BrowserContext['storageState']>>, popupClosedBefore = true): Promise<{ context: BrowserContext; page: Page; requests: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...(state && { storageState: state }) });
  contexts.push(context);
  await context.route(model.site.reviews.scriptUrl, (route) => route.abort()); // no internet
  if (popupClosedBefore) await context.addInitScript((key) => sessionStorage.setItem(key, 'true'), model.forms.discount.sessionFlag);
  const page = await context.newPage();
  log.push(collectConsole(page));
  const requests: string[] = [];
  page.on('request', (r) => { if (r.method() !== 'GET') requests.push(`${r.method()} ${r.url()}`); });
  return { context, page, requests };
}

async function follow(page: Page, path: string): Promise<void> {
  await page.locator(`a[href="${path}"]:visible`).first().click();
  await page.waitForURL(`${site.url}${path}`);
}


type Row = Record<string, string | null>;
async function stored(email: string): Promise<Row> {
  const { rows } = await site.backend.db.query<Row>(
    `SELECT landing_path, referrer_path,
            first_utm_source, first_utm_medium, first_utm_campaign, first_utm_term, first_utm_content, first_gclid, first_msclkid,
            first_referrer_host, first_landing_path, first_touch_at::text AS first_touch_at,
            last_utm_source, last_utm_medium, last_utm_campaign, last_utm_term, last_utm_content, last_gclid, last_msclkid,
            last_referrer_host, last_landing_path, last_touch_at::text AS last_touch_at, created_at::text AS created_at
       FROM public.leads WHERE email = $1`, [email]);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

const AD_TOUCH = {
  utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'spring-deep-clean', utm_term: 'deep cleaning san jose', utm_content: 'ad-a',
  gclid: GCLID, msclkid: null, referrer_host: 'www.google.com', landing_path: CITY,
};
const touch = (row: Row, which: 'first' | 'last') => Object.fromEntries(Object.keys(AD_TOUCH).map((k) => [k, row[`${which}_${k}`]]));

describe('a lead says which marketing brought it', () => {
  it('an ad click to a city page, two more pages, the quote form: both touches stored with the lead, sent only with the form', async () => {
    const { page, requests } = await visit();
    await page.goto(`${site.url}${AD}`, { referer: 'https://www.google.com/' });
    await follow(page, '/services');
    const scripts: Promise<number>[] = [];
    page.on('response', (r) => { if (/\.m?js(\?|$)/.test(r.url())) scripts.push(r.body().then((b) => gzipSync(b, { level: 9 }).length)); });
    await follow(page, '/contact');
    await islandHydrated(page, 'ContactForm');
    await page.waitForLoadState('networkidle');
    // The form's page as it loads, up to a form ready to type in: within 75 KB gzipped (what the
    // form loads once used, the rules with the attribution reader and supabase-js, comes later).
    const gzipped = (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
    expect(gzipped).toBeGreaterThan(0);
    expect(gzipped).toBeLessThanOrEqual(75 * 1024);
    expect(requests, 'nothing is sent before the form').toEqual([]);
    expect(await page.context().cookies(), 'no cookie').toEqual([]);
    await sendQuoteForm(page, 'ad-click@example.com');
    const row = await stored('ad-click@example.com');
    expect(touch(row, 'first')).toEqual(AD_TOUCH);
    expect(touch(row, 'last')).toEqual(AD_TOUCH);
    expect(row).toMatchObject({ landing_path: CITY, referrer_path: '/services' });
    expect(Math.abs(Date.parse(row.first_touch_at!) - Date.parse(row.created_at!))).toBeLessThan(5 * 60_000);
  });

  it('a second visit days later from a search engine keeps the first touch and records the new last touch', async () => {
    const clicked = Date.now() - 6 * DAY;
    const first = await visit();
    await first.page.clock.setFixedTime(clicked); // the ad click, six days ago
    await first.page.goto(`${site.url}${AD}`, { referer: 'https://www.google.com/' });
    await follow(first.page, '/services');
    const state = await first.context.storageState(); // the browser's localStorage, not the visit's sessionStorage

    const second = await visit(state);
    await second.page.goto(`${site.url}/`, { referer: 'https://duckduckgo.com/' });
    await follow(second.page, '/contact');
    await sendQuoteForm(second.page, 'came-back@example.com');
    const row = await stored('came-back@example.com');
    expect(touch(row, 'first')).toEqual(AD_TOUCH);
    expect(Date.parse(row.first_touch_at!)).toBe(clicked);
    expect(touch(row, 'last')).toEqual({
      utm_source: null, utm_medium: null, utm_campaign: null, utm_term: null, utm_content: null,
      gclid: null, msclkid: null, referrer_host: 'duckduckgo.com', landing_path: '/',
    });
    expect(Date.parse(row.last_touch_at!)).toBeGreaterThan(clicked + 5 * DAY);
  });

  it('values the database refuses (over-long, control characters, a script) are left out and the lead is stored', async () => {
    const { page } = await visit();
    const bad = `utm_source=${'x'.repeat(300)}&utm_medium=cpc%07&utm_campaign=%3Cscript%3Ealert(1)%3C/script%3E&utm_term=ok&gclid=not%20an%20id&msclkid=f894f652ea334e739002f7167ab8f8e3`;
    await page.goto(`${site.url}/contact?${bad}`);
    await sendQuoteForm(page, 'bad-tags@example.com');
    const row = await stored('bad-tags@example.com');
    expect(touch(row, 'last')).toEqual({
      utm_source: null, utm_medium: null, utm_campaign: null, utm_term: 'ok', utm_content: null,
      gclid: null, msclkid: 'f894f652ea334e739002f7167ab8f8e3', referrer_host: null, landing_path: '/contact',
    });
  });

  it('a discount sign-up from a newsletter link stores its touches too, and counts as Email', async () => {
    const { page } = await visit(undefined, false);
    await page.clock.install();
    await page.goto(`${site.url}${CITY}?utm_source=newsletter&utm_medium=email&utm_campaign=november-offer`);
    await sendDiscountPopup(page, model.forms.discount, 'newsletter@example.com');
    const { rows } = await site.backend.db.query(
      `SELECT first_utm_campaign, last_utm_source, last_utm_medium, last_utm_campaign, last_landing_path, channel, campaign
         FROM public.inbox_leads WHERE email = $1`, ['newsletter@example.com']);
    expect(rows).toEqual([{ first_utm_campaign: 'november-offer', last_utm_source: 'newsletter', last_utm_medium: 'email',
      last_utm_campaign: 'november-offer', last_landing_path: CITY, channel: 'email', campaign: 'november-offer' }]);
  });
});
