/**
 * Every collection's listings for a build (Collection.listings: its index and tag pages, planned
 * from its cards, and its feed): a listing the last build planned from the same cards, in a build
 * whose everything else is the same (cache/listingMemo.ts), is linked from the page cache instead of
 * planned again; the others are planned, and remembered for the next build once written.
 */
import { createHash } from 'node:crypto';
import type { SiteModel } from '../../contracts/content.js';
import type { FeedInput } from '../../contracts/feeds.js';
import { writtenPage, type PagePlan, type WrittenPage } from '../../contracts/pages.js';
import type { KnownListing, ListingMemo } from '../cache/listingMemo.js';
import type { PageCache } from '../cache/pageCache.js';
import type { AnyCollection } from '../collections/collection.js';
import { COLLECTIONS } from '../collections/index.js';
import { PlanContext, type PlanOptions } from '../plan/context.js';
import type { PlacedPage } from './renderSite.js';

export interface ListingOptions {
  /** A card's entry in full, for a collection's feed (the model holds only cards). */
  full: (collection: AnyCollection) => (card: never) => unknown;
  /** The memo of the last build's listings, and the page cache their pages are in: absent, every listing is planned. */
  memo?: { listings: ListingMemo; cache: PageCache };
}

export class ListingPages {
  private readonly ctx: PlanContext;
  /** The cards every listing is planned from: what the memo must have seen (its version holds the rest). */
  private readonly digest: string | undefined;
  /** The pages of each listing planned here, in order, and their keys as rendering finds them. */
  private readonly planned = new Map<string, WrittenPage[]>();
  private readonly keys = new Map<string, string>();

  constructor(model: SiteModel, plan: PlanOptions, private readonly opts: ListingOptions) {
    this.ctx = new PlanContext(model, plan);
    // Every collection's cards, not only the listed one's: what a listing reads of the model besides them is in the memo's version.
    this.digest = opts.memo && createHash('sha256').update(JSON.stringify(COLLECTIONS.map((c) => c.entries(model)))).digest('base64');
  }

  /** Each collection's listing pages in order, placed or planned; `feeds` is given each feed. */
  *pages(feeds: (feed: FeedInput) => void): Generator<PagePlan | PlacedPage> {
    for (const collection of COLLECTIONS) {
      if (!collection.listings) continue;
      const listings = collection.listings(this.ctx, this.opts.full(collection) as never);
      if (listings.feed) feeds(listings.feed);
      const { memo } = this.opts;
      const known = memo && memo.listings.pages(collection.kind, this.digest!, (key) => memo.cache.has(key));
      if (known) {
        yield* this.placed(collection, known);
        continue;
      }
      const written: WrittenPage[] = [];
      this.planned.set(collection.kind, written);
      for (const page of listings.pages) {
        written.push(writtenPage(page));
        yield page;
      }
    }
  }

  /** For renderSite: each page's key in the page cache. */
  readonly keyed = (route: string, key: string): void => {
    this.keys.set(route, key);
  };

  /** Once every page is written: the listings planned here, remembered for the next build. */
  learn(): void {
    const { memo } = this.opts;
    if (!memo) return;
    for (const [kind, written] of this.planned) {
      const pages = written.map((w) => ({ written: w, key: this.keys.get(w.route)! }));
      if (pages.every((p) => p.key)) memo.listings.learn(kind, { digest: this.digest!, pages });
    }
  }

  /** A listing's pages as the last build wrote them; one the page cache lost meanwhile is planned again. */
  private *placed(collection: AnyCollection, known: KnownListing['pages']): Generator<PlacedPage> {
    let plans: Map<string, PagePlan> | undefined;
    const plan = (route: string) => {
      plans ??= new Map([...collection.listings!(this.ctx, this.opts.full(collection) as never).pages].map((p) => [p.route, p]));
      const page = plans.get(route);
      if (!page) throw new Error(`the listing of ${collection.kind} has no page at ${route} any more`);
      return page;
    };
    for (const { written, key } of known) yield { placed: written, key, plan: () => plan(written.route) };
  }
}
