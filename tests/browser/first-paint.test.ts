/**
 * Nothing but the page and its stylesheet before the first paint (issue 12): the web font and the
 * islands' code are requested after it, yet the page ends up in Inter; the next page in the same
 * tab has Inter at its first paint (no swap); without JavaScript the <noscript> rule brings it.
 */
import { describe, expect, it } from 'vitest';
import { useBrowser, useSite } from '../helpers/site.js';

declare global {
  interface Window { fontAtPaint?: string[] }
}

const site = useSite();
const browser = useBrowser();

/** Recorded in each page before its own scripts run: the web font's state when the page first painted. */
const recordFontAtFirstPaint = () => {
  new PerformanceObserver((_, observer) => {
    observer.disconnect();
    window.fontAtPaint = [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'Inter Variable').map((f) => f.status);
  }).observe({ type: 'paint', buffered: true });
};

describe('before the first paint, only the page and its stylesheet', () => {
  it('the font and React are fetched after the first paint, the text ends up in Inter, and the next page paints in Inter at once', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    await context.addInitScript(recordFontAtFirstPaint);
    const page = await context.newPage();
    // On a phone the stylesheet may come after the scripts: the first paint waits for it, they must too.
    await page.route(/\/assets\/site-[^/]+\.css$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto(`${site.url}/contact`);
    // React comes when the contact form hydrates (on idle); the font once the page has painted.
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((r) => /\/assets\/react-/.test(r.name)));
    await page.evaluate(() => document.fonts.ready);
    const first = await page.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]!.startTime;
      const started = (re: RegExp) => performance.getEntriesByType('resource').filter((r) => re.test(r.name)).map((r) => r.startTime);
      return {
        fcp, font: started(/\/assets\/inter-latin-[^/]+\.woff2$/), react: started(/\/assets\/react-/),
        atPaint: window.fontAtPaint,
        inter: document.fonts.check('400 16px "Inter Variable"') && [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'Inter Variable' && f.status === 'loaded'),
      };
    });
    expect(first.font).toHaveLength(1);
    expect(first.font[0]).toBeGreaterThanOrEqual(first.fcp);
    expect(first.react.length).toBeGreaterThan(0);
    for (const start of first.react) expect(start).toBeGreaterThanOrEqual(first.fcp);
    expect(first.atPaint).toEqual([]);
    expect(first.inter).toBe(true);

    // Same tab, next page: the font is in the cache and added before the page first paints (it
    // has loaded by then, unless the machine is very busy: then the text waits up to 0.1 s for it).
    await page.goto(`${site.url}/services`);
    await page.waitForFunction(() => 'fontAtPaint' in window);
    const atPaint = await page.evaluate(() => window.fontAtPaint);
    expect(atPaint).toHaveLength(1);
    expect(['loaded', 'loading']).toContain(atPaint![0]);
    await context.close();
  });

  it('without JavaScript the page is in Inter too', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const fonts: string[] = [];
    page.on('requestfinished', (r) => { if (r.url().endsWith('.woff2')) fonts.push(r.url()); });
    await page.goto(`${site.url}/checklist`, { waitUntil: 'networkidle' });
    expect(fonts).toHaveLength(1);
    expect(await page.evaluate(() => document.fonts.check('400 16px "Inter Variable"') && [...document.fonts].some((f) => f.status === 'loaded'))).toBe(true);
    await context.close();
  });
});
