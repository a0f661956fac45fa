/**
 * Stage render for a build: the pages as they are planned → HTML files in outDir. A page the cache
 * holds is hard-linked from it; the others go in batches to the render workers (a small site is
 * rendered on this thread). A plan is dropped once its page is written: what stays per page is its
 * route, canonical URL and whether it is indexed (for the sitemap and the host files), and the
 * link check's lists are shared between pages. So the memory a build needs does not grow with the
 * plans of its pages.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { writtenPage, type Layout, type PagePlan, type WrittenPage } from '../../contracts/pages.js';
import { fileForRoute } from '../../contracts/routes.js';
import type { Keyed, PageCache } from '../cache/pageCache.js';
import { PageLinks } from './pageLinks.js';
import { BATCH_PAGES, PARALLEL_THRESHOLD, RenderPool } from './pool.js';
import { Slots } from './slots.js';
import type { BatchResult } from './renderAndWrite.js';

/**
 * A page whose plan is larger than this (JSON characters) renders on this thread, whose heap is
 * not capped. No page lists a whole collection (its cards are paginated), so the size of a
 * collection never brings a plan near it (the largest plans, of service pages, stay far below it). What still could is one
 * content file of megabytes (no file has a size limit), and a worker whose capped heap runs out
 * would fail the build.
 */
const WORKER_PAGE_MAX_JSON = 3_000_000;
/** File operations (links into and out of the cache) in flight at once: enough to keep the disk busy. */
export const FILE_OPS = 32;

export interface RenderedSite {
  /** Every page, in the order planned (the sitemap's). */
  pages: WrittenPage[];
  links: PageLinks;
  /** The length of the HTML rendered (the other pages came from the cache). */
  bytes: number;
}

interface ToRender { page: PagePlan; keyed: Keyed }

/**
 * A page the last build wrote from the same inputs (a listing's: render/listingPages.ts): linked
 * from the page cache under `key`, never planned, unless the cache lost it: `plan` makes it then.
 */
export interface PlacedPage { placed: WrittenPage; key: string; plan: () => PagePlan }

export const isPlaced = <T extends object>(page: T | PlacedPage): page is PlacedPage => 'placed' in page;

export interface RenderOptions {
  /** The page cache; saved by the caller once every page is in place. */
  cache: PageCache;
  /** Workers already running with this layout (not closed here); else started when there is enough to render. */
  pool?: RenderPool;
  threads?: number;
  /** Told each page's key in the page cache, as the pages come. */
  onKeyed?: (route: string, key: string) => void;
}

export async function renderSite(plans: Iterable<PagePlan | PlacedPage>, layout: Layout, outDir: string, opts: RenderOptions): Promise<RenderedSite> {
  const { cache } = opts;
  let pool = opts.pool;
  const site: RenderedSite = { pages: [], links: new PageLinks(), bytes: 0 };
  const files = new Slots(FILE_OPS);
  const dirs = new Set<string>();
  /** Pages to render not yet handed out, and those too large for a worker. */
  const queued: ToRender[] = [];
  const onMain: ToRender[] = [];
  /** Pages the cache named but could not give (removed meanwhile). */
  const lost: (ToRender | PlacedPage)[] = [];

  // Only the keys are kept while a batch renders: the plans die young, in the space V8 sweeps often.
  const written = (batch: readonly Keyed[]) => (result: BatchResult) => {
    site.bytes += result.bytes;
    batch.forEach((keyed, i) => cache.remember(keyed.key, site.links.add(keyed.route, result.lists[result.pages[i]!]!)));
  };
  const into = (batch: readonly ToRender[]) => ({ pagesDir: cache.pagesDir, keys: batch.map((p) => p.keyed.key) });
  const handOut = async (all: boolean) => {
    while (queued.length >= (all ? 1 : BATCH_PAGES)) {
      const batch = queued.splice(0, BATCH_PAGES);
      await pool!.submit(batch.map((p) => p.page), outDir, written(batch.map((p) => p.keyed)), into(batch));
    }
  };
  const render = async (page: ToRender) => {
    if (page.keyed.size > WORKER_PAGE_MAX_JSON) {
      onMain.push(page);
      return;
    }
    queued.push(page);
    if (!pool && queued.length >= PARALLEL_THRESHOLD) pool = await RenderPool.start(layout, opts.threads);
    if (pool) await handOut(false);
  };

  try {
    const routes = new Set<string>();
    for (const page of plans) {
      const written = isPlaced(page) ? page.placed : writtenPage(page);
      // Planners cannot give two pages one route (plan/plan.ts checks its own); listings come from elsewhere.
      if (routes.has(written.route)) throw new Error(`two pages were planned at ${written.route}`);
      routes.add(written.route);
      site.pages.push(written);
      const file = isPlaced(page) ? fileForRoute(written.route) : page.file;
      const dir = path.dirname(file);
      if (!dirs.has(dir)) {
        mkdirSync(path.join(outDir, dir), { recursive: true });
        dirs.add(dir);
      }
      const keyed = isPlaced(page) ? { key: page.key, route: written.route, file, size: 0 } : cache.keyed(page);
      opts.onKeyed?.(keyed.route, keyed.key);
      if (isPlaced(page) || cache.has(keyed.key)) {
        await files.run(async () => {
          const refs = await cache.restore(keyed, outDir);
          if (refs) site.links.add(keyed.route, refs, true);
          else lost.push(isPlaced(page) ? page : { page, keyed });
        });
        continue;
      }
      await render({ page, keyed });
    }
    await files.idle();
    for (const page of lost) {
      if (!isPlaced(page)) {
        await render(page);
        continue;
      }
      const plan = page.plan();
      const keyed = cache.keyed(plan);
      opts.onKeyed?.(keyed.route, keyed.key);
      await render({ page: plan, keyed });
    }
    if (pool) {
      await handOut(true);
      await pool.drain();
    } else {
      onMain.unshift(...queued.splice(0));
    }
    if (onMain.length) {
      // Loaded only here: a large build renders on workers, and this thread need not hold React.
      const { renderAndWrite } = await import('./renderAndWrite.js');
      written(onMain.map((p) => p.keyed))(renderAndWrite(onMain.map((p) => p.page), layout, outDir, into(onMain)));
    }
    await files.idle();
    return site;
  } finally {
    if (pool !== opts.pool) await pool?.close();
    await files.idle().catch(() => undefined);
  }
}
