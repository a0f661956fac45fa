/**
 * Accessibility a keyboard or screen-reader visitor would notice, on every page at 375px and 1280px:
 * headings in order, axe-core on the page as the server sends it (the site's scripts blocked, as when
 * they fail or have not loaded yet; axe itself needs the page's event loop, so JavaScript stays on)
 * and again once the islands have hydrated, a skip link that works, and a focus ring that can be seen
 * on every background. Inside the open widgets (forms with errors, the popup, the tabs) axe runs in
 * islands.test.ts.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../../tools/browser.js';
import { siteRoutes } from '../helpers/routes.js';
import { keepPopupShut, useBrowser, useSite } from '../helpers/site.js';

const ROUTES = [...(await siteRoutes()).all, '/no-such-page', '/es/no-existe'];
const WIDTHS = [375, 1280] as const;

const site = useSite();
const browser = useBrowser(keepPopupShut);

async function open(route: string, width: number, siteScripts = true): Promise<Page> {
  const page = await browser.tab({ viewport: { width, height: width < 500 ? 800 : 900 }, blockScripts: !siteScripts });
  await page.goto(site.url + route);
  return page;
}

/** Waits until the islands a visitor gets without doing anything (on idle, or visible in the first screen) are hydrated. */
async function hydratedAsLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLElement>('[data-island]')].every((el) => {
    const child = el.firstElementChild;
    if (!child) return true;
    const box = child.getBoundingClientRect();
    const due = el.dataset.hydrate === 'idle' || (el.dataset.hydrate === 'visible' && box.top < innerHeight && box.bottom > 0);
    return !due || Object.keys(child).some((k) => k.startsWith('__reactFiber'));
  }));
  await page.evaluate(() => new Promise((r) => requestIdleCallback(r, { timeout: 2000 })));
}


describe.each(WIDTHS)('at %ipx', (width) => {
  it.each(ROUTES)('%s hydrated: one h1 first, headings that never skip a level, no axe-core violations', async (route) => {
    const page = await open(route, width);
    await hydratedAsLoaded(page);
    const levels = await page.locator('h1, h2, h3, h4, h5, h6').evaluateAll((els) => els.map((h) => ({ level: Number(h.tagName[1]), text: (h.textContent ?? '').trim().slice(0, 40) })));
    expect(levels.filter((h) => h.level === 1)).toHaveLength(1);
    expect(levels[0]?.level).toBe(1);
    const skips = levels.slice(1).filter((h, i) => h.level > levels[i]!.level + 1).map((h) => `h${h.level} "${h.text}"`);
    expect(skips).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
  });

  it.each(ROUTES)('%s as served, before any script runs: no axe-core violations', async (route) => {
    const page = await open(route, width, false);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('keyboard', () => {
  it.each(WIDTHS)('the first Tab shows the skip link at %ipx; Enter moves focus to the main content', async (width) => {
    const page = await open('/locations', width);
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    // Out of sight until focused.
    expect(await skip.evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThanOrEqual(0);
    await page.keyboard.press('Tab');
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    // Where it ends up once its slide-in is over: the transition jumped to its end, not waited for.
    await skip.evaluate((el) => el.getAnimations().forEach((a) => { if (a instanceof CSSTransition) a.finish(); }));
    const box = (await skip.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.height).toBeGreaterThanOrEqual(44);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
    // The next Tab continues inside the page content, not back in the header.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);
  });

  it.each(['/', '/services', '/contact', '/locations/deep-cleaning-san-jose-ca'])('%s: every element Tab reaches shows a focus ring of two colours', async (route) => {
    const page = await open(route, 1280);
    const seen: string[] = [];
    const unringed: string[] = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const focus = await page.evaluate(async () => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        // What the visitor sees once the element's transitions have run (jumped to their end:
        // waiting for them took 40 tabs × their duration).
        el.getAnimations().forEach((a) => { if (a instanceof CSSTransition) a.finish(); });
        const s = getComputedStyle(el);
        return {
          what: `${el.tagName.toLowerCase()} "${(el.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 30)}"`,
          outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2,
          inner: s.boxShadow.includes('rgb(21, 27, 38)'),
        };
      });
      if (!focus) break;
      seen.push(focus.what);
      if (!focus.outline || !focus.inner) unringed.push(focus.what);
    }
    expect(seen.length).toBeGreaterThan(5);
    expect(unringed).toEqual([]);
  });

  it('the drawer is reachable and usable from the keyboard on a phone', async () => {
    const page = await open('/', 375);
    const menu = page.getByRole('button', { name: 'Open menu' });
    await menu.focus();
    await page.keyboard.press('Enter');
    const drawer = page.locator('#site-drawer');
    await expect.poll(() => drawer.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.isVisible()).toBe(false);
  });
});
