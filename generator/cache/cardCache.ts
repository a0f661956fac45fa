/**
 * The cards of the last build's collection files whose pages list other entries (the articles), in
 * .cache/cards/: each file's digest and card. Such a collection's cards are all read before any of
 * its pages is planned; a warm build of 10,000 articles spent seconds parsing every front matter
 * again to find the same cards. A file whose bytes are the last build's gives its card from here;
 * the others are read. `version` is a digest of what a card is made from besides its file (the
 * code that reads it, the time zone its dates are read in).
 */
import { readFileSync, statSync } from 'node:fs';
import { fileDigest } from './collectionMemo.js';
import { VersionedStore } from './store.js';

/**
 * What a file's status said just before its bytes were read (`at`: when): while the file shows the
 * same, its bytes are those, unless it was changed within RACY_MS of that reading, when a second
 * change can keep the timestamps a coarse clock gave the first (git's "racily clean" entries).
 */
export interface FileStamp { size: number; mtimeMs: number; ctimeMs: number; ino: number; at: number }

/** How close to its reading a file's last change must not be for its status to vouch for its bytes. */
export const RACY_MS = 2000;

/** The status of a file, taken before its bytes are read (so a change in between shows next time). */
export function stampOf(file: string): FileStamp {
  const { size, mtimeMs, ctimeMs, ino } = statSync(file);
  return { size, mtimeMs, ctimeMs, ino, at: Date.now() };
}

/** Whether a file whose status was `before` when read and is `now` still has the bytes read then. */
export const vouches = (before: FileStamp, now: FileStamp) =>
  before.size === now.size && before.mtimeMs === now.mtimeMs && before.ctimeMs === now.ctimeMs && before.ino === now.ino
  && Math.max(before.mtimeMs, before.ctimeMs) < before.at - RACY_MS;

export interface KnownCard { digest: string; card: { slug: string }; stamp?: FileStamp }

export class CardCache {
  private constructor(private readonly store: VersionedStore<KnownCard>) {}

  static async open(cacheDir: string, version: string, lang?: string): Promise<CardCache> {
    return new CardCache(await VersionedStore.open<KnownCard>(cacheDir, lang ? `cards-${lang}` : 'cards', version));
  }

  /** Whether the last build knew any file: a first build has nothing to look up. */
  get empty(): boolean {
    return this.store.empty;
  }

  /**
   * The digest of a file (`rel` in the content folder, at `file`) and, when its bytes are the last
   * build's, its card: a file whose status is as it was when the last build read it is not read
   * again (10,000 articles read and hashed took a warm build 0.2 s).
   */
  find(rel: string, file: string): { digest: string; card?: { slug: string } } {
    const known = this.store.get(rel);
    const stamp = stampOf(file);
    if (known?.stamp && vouches(known.stamp, stamp)) {
      this.store.use(rel, known);
      return known;
    }
    const digest = fileDigest(readFileSync(file));
    if (known?.digest !== digest) return { digest };
    this.store.use(rel, { ...known, stamp });
    return known;
  }

  learn(rel: string, known: KnownCard): void {
    this.store.use(rel, known);
  }

  save(): Promise<void> {
    return this.store.save();
  }
}
