/** axe-core on every page, on a phone and on a desktop, after the islands have hydrated: no violations. */
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { startTestSite, type TestSite } from '../helpers/site.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const ROUTES = [
  '/', '/services', '/locations', '/checklist', '/contact', '/customer-login', '/book-online', '/privacy-policy', '/terms-of-service',
  '/deep-cleaning-san-francisco', '/routine-cleaning-bay-area', '/move-in-out-cleaning', '/post-construction-cleaning', '/commercial-janitorial-services',
  ...['atherton', 'belmont', 'brisbane', 'burlingame', 'campbell', 'colma', 'cupertino', 'daly-city', 'san-jose', 'palo-alto'].map((c) => `/locations/deep-cleaning-${c}-ca`),
  '/no-such-page',
];

let site: TestSite;
let browser: Browser;
beforeAll(async () => {
  site = await startTestSite();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

interface Violation { id: string; impact: string; help: string; nodes: { target: string[] }[] }

describe.each([375, 1280])('axe at %ipx', (width) => {
  it.each(ROUTES)('%s has no violations', async (route) => {
    // bypassCSP: axe is injected as an inline script, which the site's policy rightly refuses.
    const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    // The discount popup is an accessible dialog of its own (tested with the forms); keep it closed here.
    await context.addInitScript(() => sessionStorage.setItem('discount-popup-shown', 'true'));
    const page = await context.newPage();
    await page.goto(site.url + route, { waitUntil: 'networkidle' });
    await page.evaluate(() => new Promise((r) => requestIdleCallback(r, { timeout: 2000 })));
    await page.addScriptTag({ path: AXE });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Violation[] }> } }).axe;
      const result = await axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
    });
    expect(violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await context.close();
  });
});
