/**
 * The build's cache in .cache/, one for every stage and collection: the parsed documents
 * (parseCache.ts), the rendered pages (pageCache.ts), what the last build learnt of each
 * collection file (collectionMemo.ts), each collection's listings (listingMemo.ts) and the cards read before pages (cardCache.ts). A store is opened when the build gets to it (the pages are
 * keyed by the layout, known once the content is); all are saved together, once the build got
 * through: a failed build leaves the cache as the last good build left it.
 */
import path from 'node:path';
import type { Layout } from '../../contracts/pages.js';
import type { Lang } from '../../contracts/languages.js';
import { CardCache } from './cardCache.js';
import { CollectionMemo } from './collectionMemo.js';
import { ListingMemo } from './listingMemo.js';
import { PageCache, renderCodeVersion } from './pageCache.js';
import { ParseCache } from './parseCache.js';

export class BuildCache {
  private readonly stores: { save(): Promise<void> }[] = [];
  readonly dir: string;

  constructor(readonly root: string) {
    this.dir = path.join(root, '.cache');
  }

  private parsed: Promise<ParseCache> | undefined;

  /** One cache of parsed documents for every language's files. */
  documents(): Promise<ParseCache> {
    return (this.parsed ??= this.keep(ParseCache.open(this.dir)));
  }

  pages(layout: Layout): Promise<PageCache> {
    return this.keep(PageCache.open(this.dir, renderCodeVersion(this.root), layout));
  }

  /** The memo of builds whose every input but the collection files is `version`'s; a translation's apart (`lang`). */
  collections(lang: Lang | undefined, version: string): Promise<CollectionMemo> {
    return this.keep(CollectionMemo.open(this.dir, version, lang));
  }

  /** What the last build wrote of each collection's listings, for builds whose every input but the cards is `version`'s; a translation's apart. */
  listings(lang: Lang | undefined, version: string): Promise<ListingMemo> {
    return this.keep(ListingMemo.open(this.dir, version, lang));
  }

  /** The cards of the collections read before their pages, for builds whose card code and time zone are `version`'s; a translation's apart. */
  cards(lang: Lang | undefined, version: string): Promise<CardCache> {
    return this.keep(CardCache.open(this.dir, version, lang));
  }

  /** Every store opened so far, saved. */
  async save(): Promise<void> {
    await Promise.all(this.stores.map((s) => s.save()));
  }

  private async keep<T extends { save(): Promise<void> }>(opening: Promise<T>): Promise<T> {
    const store = await opening;
    this.stores.push(store);
    return store;
  }
}
