/**
 * Every collection's listings for a build (Collection.listings: its index and tag pages, planned
 * from its cards, and its feed). A list page whose inputs (what its planner gives the plan memo:
 * its cards, its texts, the number of pages) are those the last build planned it from, in a build
 * whose everything else is the same (cache/listingMemo.ts), is linked from the page cache instead of
 * planned again; the others are planned, and remembered for the next build once written. An edit
 * of one entry's card plans again the few list pages that show it, not the thousands of a large
 * collection.
 */
import { createHash } from 'node:crypto';
import type { SiteModel } from '../../contracts/content.js';
import { writtenPage, type PagePlan, type WrittenPage } from '../../contracts/pages.js';
import type { ListingMemo } from '../cache/listingMemo.js';
import type { PageCache } from '../cache/pageCache.js';
import type { AnyCollection } from '../collections/collection.js';
import { COLLECTIONS } from '../collections/index.js';
import { PlanContext, type PlanOptions } from '../plan/context.js';
import type { Memo } from '../plan/memo.js';
import type { FeedSink } from '../plan/plan.js';
import { isPlaced, type PlacedPage } from './renderSite.js';

export interface ListingOptions {
  /** A card's entry in full, for a collection's feed (the model holds only cards). */
  full: (collection: AnyCollection) => (card: never) => unknown;
  /** The memo of the last build's list pages, and the page cache their pages are in: absent, every page is planned. */
  memo?: { listings: ListingMemo; cache: PageCache };
}

export class ListingPages {
  private readonly ctx: PlanContext;
  private readonly remembered: RememberedPages | undefined;
  /** The list pages planned here: what the sitemap keeps of each, and its key as rendering finds it. */
  private readonly written = new Map<string, WrittenPage>();
  private readonly keys = new Map<string, string>();

  constructor(model: SiteModel, plan: PlanOptions, private readonly opts: ListingOptions) {
    this.remembered = opts.memo && new RememberedPages(opts.memo.listings, opts.memo.cache);
    this.ctx = new PlanContext(model, { ...plan, ...(this.remembered && { memo: this.remembered }) });
  }

  /** Each collection's list pages in order, placed or planned; `feeds` is given each feed. */
  *pages(feeds: FeedSink): Generator<PagePlan | PlacedPage> {
    for (const collection of COLLECTIONS) {
      if (!collection.listings) continue;
      const listings = collection.listings(this.ctx, this.opts.full(collection) as never);
      if (listings.feed) feeds(listings.feed);
      for (const page of listings.pages as Iterable<PagePlan | PlacedPage>) {
        if (!isPlaced(page)) this.written.set(page.route, writtenPage(page));
        yield page;
      }
    }
  }

  /** For renderSite: each page's key in the page cache. */
  readonly keyed = (route: string, key: string): void => {
    if (this.written.has(route)) this.keys.set(route, key);
  };

  /** Once every page is written: the list pages planned here, remembered for the next build. */
  learn(): void {
    if (!this.remembered) return;
    for (const [route, written] of this.written) {
      const key = this.keys.get(route);
      const digest = this.remembered.digests.get(route);
      if (key && digest) this.opts.memo!.listings.learn(route, { digest, written, key });
    }
  }
}

/**
 * The plan memo the listings are planned with in a build: a page whose inputs are those the last
 * build planned it from is not made, and what stands for its plan is the page in the page cache
 * (a PlacedPage, which ListingPages hands on as it is: no planner looks into what it yields).
 */
class RememberedPages implements Memo {
  /** The digest of each planned page's inputs. */
  readonly digests = new Map<string, string>();
  /** Each input object's digest: the same objects (the site's settings, a card) are inputs of many pages. */
  private readonly objects = new WeakMap<object, string>();

  constructor(private readonly known: ListingMemo, private readonly cache: PageCache) {}

  plan(route: string, inputs: readonly unknown[], make: () => PagePlan): PagePlan {
    const digest = this.digest(route, inputs);
    const known = this.known.page(route, digest, (key) => this.cache.has(key));
    if (known) {
      const placed: PlacedPage = { placed: known.written, key: known.key, plan: make };
      return placed as unknown as PagePlan;
    }
    this.digests.set(route, digest);
    return make();
  }

  retain(): void {}

  private digest(route: string, inputs: readonly unknown[]): string {
    const hash = createHash('sha256').update(route);
    for (const input of inputs) hash.update('\n').update(typeof input === 'object' && input !== null ? this.objectDigest(input) : `${typeof input} ${String(input)}`);
    return hash.digest('base64');
  }

  private objectDigest(value: object): string {
    let digest = this.objects.get(value);
    if (digest === undefined) {
      digest = createHash('sha256').update(JSON.stringify(value, (_key, v: unknown) => (v instanceof Map ? [...v] : v))).digest('base64');
      this.objects.set(value, digest);
    }
    return digest;
  }
}
