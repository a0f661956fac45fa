/**
 * What the last build wrote of each collection's listings (its index and tag pages, planned from
 * the cards), kept in .cache/listings/: the pages in order, each with its page-cache key, under a
 * digest of the cards. A warm build of 10,000 articles planned and keyed their 3,000 list pages
 * again (0.4 s of its 2.7 s, all on its one busy thread) only to find each in the page cache. A
 * listing whose cards are the last build's, in a build whose everything else is too (the memo's
 * `version`: the collection memo's, code, the rest of the model, the layout, the plan options), is
 * not planned: its pages are linked from the page cache.
 */
import type { WrittenPage } from '../../contracts/pages.js';
import { VersionedStore } from './store.js';

/** A listing's pages as the last build wrote them, and the digest of the cards they were planned from. */
export interface KnownListing {
  digest: string;
  pages: { written: WrittenPage; key: string }[];
}

export class ListingMemo {
  private constructor(private readonly store: VersionedStore<KnownListing>) {}

  static async open(cacheDir: string, version: string, lang?: string): Promise<ListingMemo> {
    return new ListingMemo(await VersionedStore.open<KnownListing>(cacheDir, lang ? `listings-${lang}` : 'listings', version));
  }

  /** The pages of listing `name` when the last build planned them from cards of this `digest`, each still in the page cache (`cached`). */
  pages(name: string, digest: string, cached: (key: string) => boolean): KnownListing['pages'] | undefined {
    const known = this.store.get(name);
    if (!known || known.digest !== digest || !known.pages.every((p) => cached(p.key))) return undefined;
    this.store.use(name, known);
    return known.pages;
  }

  /** What this build wrote of listing `name`, for the next. */
  learn(name: string, listing: KnownListing): void {
    this.store.use(name, listing);
  }

  save(): Promise<void> {
    return this.store.save();
  }
}
