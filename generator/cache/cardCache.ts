/**
 * The cards of the last build's collection files whose pages list other entries (the articles), in
 * .cache/cards/: each file's digest and card. Such a collection's cards are all read before any of
 * its pages is planned; a warm build of 10,000 articles spent seconds parsing every front matter
 * again to find the same cards. A file whose bytes are the last build's gives its card from here;
 * the others are read. `version` is a digest of what a card is made from besides its file (the
 * code that reads it, the time zone its dates are read in).
 */
import { VersionedStore } from './store.js';

export interface KnownCard { digest: string; card: { slug: string } }

export class CardCache {
  private constructor(private readonly store: VersionedStore<KnownCard>) {}

  static async open(cacheDir: string, version: string, lang?: string): Promise<CardCache> {
    return new CardCache(await VersionedStore.open<KnownCard>(cacheDir, lang ? `cards-${lang}` : 'cards', version));
  }

  /** Whether the last build knew any file: a first build has nothing to look up. */
  get empty(): boolean {
    return this.store.empty;
  }

  /** The card of a file (a path in the content folder) whose bytes have this digest, if the last build read it. */
  get(rel: string, digest: string): { slug: string } | undefined {
    const known = this.store.get(rel);
    if (known?.digest !== digest) return undefined;
    this.store.use(rel, known);
    return known.card;
  }

  learn(rel: string, known: KnownCard): void {
    this.store.use(rel, known);
  }

  save(): Promise<void> {
    return this.store.save();
  }
}
