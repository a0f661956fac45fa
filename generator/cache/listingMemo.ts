/**
 * What the last build wrote of the collections' listings (their index and tag pages, planned from
 * the cards), kept in .cache/listings/: each page's page-cache key under a digest of the inputs it
 * was planned from (what its planner gives the plan memo: its cards, its texts, the number of
 * pages). A warm build of 10,000 articles planned and keyed its 3,000 list pages again (0.4 s of
 * its 2.7 s, all on its one busy thread) only to find each in the page cache. A list page whose
 * inputs are the last build's, in a build whose everything else is too (the memo's `version`: the
 * collection memo's, code, the rest of the model, the layout, the plan options), is not planned: it
 * is linked from the page cache.
 */
import type { WrittenPage } from '../../contracts/pages.js';
import { VersionedStore } from './store.js';

/** A list page as the last build wrote it, and the digest of the inputs it was planned from. */
export interface KnownListPage {
  digest: string;
  written: WrittenPage;
  key: string;
}

export class ListingMemo {
  private constructor(private readonly store: VersionedStore<KnownListPage>) {}

  static async open(cacheDir: string, version: string, lang?: string): Promise<ListingMemo> {
    return new ListingMemo(await VersionedStore.open<KnownListPage>(cacheDir, lang ? `listings-${lang}` : 'listings', version));
  }

  /** The page at `route` when the last build planned it from inputs of this `digest` and the page cache still has it (`cached`). */
  page(route: string, digest: string, cached: (key: string) => boolean): KnownListPage | undefined {
    const known = this.store.get(route);
    if (!known || known.digest !== digest || !cached(known.key)) return undefined;
    this.store.use(route, known);
    return known;
  }

  /** What this build wrote at `route`, for the next. */
  learn(route: string, page: KnownListPage): void {
    this.store.use(route, page);
  }

  save(): Promise<void> {
    return this.store.save();
  }
}
