/**
 * What a crawler reads from each page of the served site: head tags, every URL the page refers to,
 * element ids, JSON-LD and the visible text. Pages are loaded in Chromium with JavaScript off, so
 * this is the server HTML exactly as parsed by a browser, with the stylesheet applied.
 */
import type { Browser } from 'playwright-core';


export interface PageRef {
  /** `a[href]`, `img[srcset]`, `meta[property="og:image"]`, … */
  where: string;
  /** the attribute value as written */
  raw: string;
}

export interface PageFacts {
  route: string;
  status: number;
  titles: string[];
  descriptions: string[];
  canonicals: string[];
  robots: string | null;
  ids: string[];
  refs: PageRef[];
  jsonLd: string[];
  /** document.body.innerText: what a visitor sees */
  text: string;
  telLinks: string[];
}

export async function collectPageFacts(browser: Pick<Browser, 'newContext'>, baseUrl: string, routes: readonly string[]): Promise<PageFacts[]> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const facts: PageFacts[] = [];
    for (const route of routes) {
      const response = await page.goto(baseUrl + route, { waitUntil: 'load' });
      const dom = await page.evaluate(() => {
        const attr = (selector: string, name: string) => [...document.querySelectorAll(selector)].map((el) => ({ where: `${el.tagName.toLowerCase()}[${name}]`, raw: el.getAttribute(name) ?? '' }));
        const srcset = (selector: string) => [...document.querySelectorAll(selector)].flatMap((el) =>
          (el.getAttribute('srcset') ?? '').split(',').map((c) => c.trim().split(/\s+/)[0] ?? '').filter(Boolean).map((raw) => ({ where: `${el.tagName.toLowerCase()}[srcset]`, raw })));
        return {
          titles: [...document.querySelectorAll('head title')].map((t) => t.textContent ?? ''),
          descriptions: [...document.querySelectorAll('meta[name="description"]')].map((m) => m.getAttribute('content') ?? ''),
          canonicals: [...document.querySelectorAll('link[rel="canonical"]')].map((l) => l.getAttribute('href') ?? ''),
          robots: document.querySelector('meta[name="robots"]')?.getAttribute('content') ?? null,
          ids: [...document.querySelectorAll('[id]')].map((el) => el.id),
          refs: [
            ...attr('a[href]', 'href'), ...attr('area[href]', 'href'), ...attr('link[href]:not([rel="canonical"])', 'href'),
            ...attr('img[src]', 'src'), ...attr('script[src]', 'src'), ...attr('iframe[src]', 'src'), ...attr('source[src]', 'src'),
            ...attr('video[poster]', 'poster'), ...attr('form[action]', 'action'),
            ...srcset('img[srcset]'), ...srcset('source[srcset]'),
            ...attr('meta[property="og:image"]', 'content'), ...attr('meta[property="og:url"]', 'content'),
          ],
          jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => s.textContent ?? ''),
          text: document.body.innerText,
          telLinks: [...document.querySelectorAll('a[href^="tel:"]')].map((a) => a.getAttribute('href') ?? ''),
        };
      });
      facts.push({ route, status: response?.status() ?? 0, ...dom });
    }
    return facts;
  } finally {
    await context.close();
  }
}
