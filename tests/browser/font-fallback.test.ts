/**
 * The web font swaps in after the first paint (generator/assets/fonts.ts): the fallback it replaces
 * is drawn to Inter's widths weight by weight, so that on Lighthouse's phone (Moto G Power, 412x823)
 * the first screen of each key page keeps its lines (issue 33; a rewrapped intro on /locations
 * measured CLS 0.024). The layout shifts are the browser's own (Layout Instability
 * API), on a first visit: the fallback paints, then Inter arrives.
 */
import { describe, expect, it } from 'vitest';
import { LIGHTHOUSE_PAGES } from '../../tools/lighthouse.js';
import { useBrowser, useSite } from '../helpers/site.js';

declare global {
  interface Window { shifts?: { value: number; sources: string[] }[] }
}

const site = useSite();
const browser = useBrowser();

describe('the web font swaps in without moving the first screen', () => {
  it.each(LIGHTHOUSE_PAGES)('%s at 412x823: no line added or lost as Inter replaces the fallback', async (route) => {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
    await context.addInitScript(() => {
      window.shifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; sources?: { node?: Node | null }[] }[]) {
          window.shifts!.push({ value: entry.value, sources: (entry.sources ?? []).map((s) => `${s.node?.nodeName} “${(s.node?.textContent ?? '').trim().slice(0, 40)}”`) });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const page = await context.newPage();
    await page.goto(site.url + route);
    // The fallback painted first (a first visit), then the loader added Inter.
    await page.waitForFunction(() => [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'Inter Variable' && f.status === 'loaded'));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const shifts = await page.evaluate(() => window.shifts!);
    await context.close();
    // No line added or lost (the rewrapped intro of /locations was 0.024). Centred text whose first
    // line comes out a few pixels narrower or wider in Inter still moves sideways (/checklist: 0.002).
    const total = shifts.reduce((sum, s) => sum + s.value, 0);
    expect(total, JSON.stringify(shifts)).toBeLessThan(0.005);
  });
});
