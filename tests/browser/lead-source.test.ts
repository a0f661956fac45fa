/**
 * Which page brought a lead (issue 20), in Chromium on the built site: a visitor moves through the
 * site by its links, sends a form, and the row the owner reads back has the visit's first page
 * (landing_path, noted by the inline font loader) and the page before the form's
 * (referrer_path), as site paths only.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkContent } from '../../generator/build.js';
import type { SiteModel } from '../../contracts/content.js';
import { collectConsole, type ConsoleLog } from '../../tools/browser.js';
import { sendDiscountPopup, sendQuoteForm } from '../helpers/forms.js';
import { resetRateLimits, useBrowser, useSite } from '../helpers/site.js';

const site = useSite();
const browser = useBrowser();
let model: SiteModel;
beforeAll(async () => { model = (await checkContent({ root: process.cwd() })).model; });

const CITY = '/locations/deep-cleaning-san-jose-ca';

let context: BrowserContext;
let page: Page;
let log: ConsoleLog;

beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route(model.site.reviews.scriptUrl, (route) => route.abort()); // no internet
  page = await context.newPage();
  log = collectConsole(page);
  await resetRateLimits(site.backend);
});

afterEach(async () => {
  if (!context) return;
  await context.close();
  expect(log.errors, 'console errors').toEqual([]);
});

/** A visitor who closed the discount popup earlier in the session: it never covers the links. */
async function popupClosedBefore(): Promise<void> {
  const flag = model.forms.discount.sessionFlag;
  await context.addInitScript((key) => sessionStorage.setItem(key, 'true'), flag);
}

/** Follows the page's first visible link to `path`, as a visitor clicks it. */
async function follow(path: string): Promise<void> {
  await page.locator(`a[href="${path}"]:visible`).first().click();
  await page.waitForURL(`${site.url}${path}`);
}

/** The stored source of the lead sent with `email`, read as the database owner. */
async function storedSource(table: 'leads' | 'discount_leads', email: string) {
  const { rows } = await site.backend.db.query<{ page: string; landing_path: string | null; referrer_path: string | null }>(
    `SELECT page, landing_path, referrer_path FROM public.${table} WHERE email = $1`, [email],
  );
  return rows;
}

/** The quote form sent once it is ready (tests/helpers/forms.ts). */
const sendQuote = (email: string) => sendQuoteForm(page, email);

describe('a quote request says which page brought it', () => {
  it('a visit that began on a city page and came to /contact from /services', async () => {
    await popupClosedBefore();
    await page.goto(`${site.url}${CITY}?utm_source=newsletter#top`);
    await follow('/services');
    await follow('/contact');
    await sendQuote('city-visit@example.com');
    expect(await storedSource('leads', 'city-visit@example.com')).toEqual([{ page: 'contact', landing_path: CITY, referrer_path: '/services' }]);
  });

  it('a first visit straight to /contact: landing there, no referrer', async () => {
    await page.goto(`${site.url}/contact`);
    await sendQuote('straight@example.com');
    expect(await storedSource('leads', 'straight@example.com')).toEqual([{ page: 'contact', landing_path: '/contact', referrer_path: null }]);
  });

  it('a visit from another site keeps only the site side: the first page here, no referrer', async () => {
    await page.goto(`${site.url}/contact`, { referer: 'https://search.example/?q=deep+cleaning+san+jose' });
    expect(await page.evaluate(() => document.referrer)).toMatch(/^https:\/\/search\.example\//); // the page does see it
    await sendQuote('from-search@example.com');
    expect(await storedSource('leads', 'from-search@example.com')).toEqual([{ page: 'contact', landing_path: '/contact', referrer_path: null }]);
  });
});

describe('a discount sign-up says which page brought it', () => {
  it('shown on a city page the visitor reached from /services, where the visit began', async () => {
    await page.clock.install();
    await page.goto(`${site.url}/services`);
    // As a link click does (the popup may already cover the links on a slow machine).
    await page.evaluate((path) => { location.href = path; }, CITY);
    await page.waitForURL(`${site.url}${CITY}`);
    await sendDiscountPopup(page, model.forms.discount, 'popup@example.com');
    expect(await storedSource('discount_leads', 'popup@example.com')).toEqual([{ page: CITY, landing_path: '/services', referrer_path: '/services' }]);
  });
});
