/**
 * What the last build learnt of each valid collection file (generator/collections/), kept in
 * .cache/collections/: the file's digest, its card, its page's route and page-cache key. A warm
 * build of a large site spent most of its time reading, validating and planning files again only
 * to find their pages in the page cache. A file whose bytes are those of the last build, in a build
 * whose everything else its page depends on is the same (the code, the rest of the content's
 * model, the layout and the plan options: the memo's `version`), is not parsed, validated or
 * planned: the build hashes its bytes and links its page from the page cache, and only the other
 * files go to the render workers, which start only when there are enough of them. A file with
 * problems is never kept, so its problems are found and reported on every build.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { WrittenPage } from '../../contracts/pages.js';
import { fileForRoute } from '../../contracts/routes.js';
import { cachedPageFile } from './pageCache.js';
import { linkFileSync, VersionedStore } from './store.js';

/** A file the last build found valid. */
export interface MemoEntry {
  digest: string;
  card: { slug: string };
  written: WrittenPage;
  /** Its page's key in the page cache. */
  key: string;
  /** The content files besides it that its page was made from (its picture), which must still be there. */
  needs: readonly string[];
  /** A digest of what its page took from other entries' cards (an article's related ones), which must be the same. */
  depends?: string;
}

/** Where a build puts the known pages: its output folder and the page cache's folder and keys. */
export interface PlaceOptions {
  contentDir: string; outDir: string; pagesDir: string; cachedKeys: ReadonlySet<string>;
  /** What a file's page takes from other entries' cards now (MemoEntry.depends), given what it took last time. */
  depends?: (rel: string, before: string | undefined) => string | undefined;
  /** Digests of files' bytes this build already read. */
  digests?: ReadonlyMap<string, string> | undefined;
}

/** A file's digest (its bytes as read). */
export const fileDigest = (bytes: Uint8Array): string => createHash('sha1').update(bytes).digest('base64');

/** What an entry's page takes from other entries' cards (Collection.listedInputs), as an entry's `depends`. */
export const dependsDigest = (listed: string): string => createHash('sha1').update(listed).digest('base64');

export class CollectionMemo {
  private constructor(private readonly store: VersionedStore<MemoEntry>) {}

  /** The memo of builds with this `version` (a digest of what every page depends on besides its file). */
  static async open(cacheDir: string, version: string, lang?: string): Promise<CollectionMemo> {
    return new CollectionMemo(await VersionedStore.open<MemoEntry>(cacheDir, lang ? `collections-${lang}` : 'collections', version));
  }

  /**
   * The files (paths in the content folder) that are as the last build knew them, their pages
   * linked from the page cache into outDir; the others are left to be read. A known file's page
   * missing from the cache, or a file it needs gone, makes it one to read.
   */
  place(rels: readonly string[], opts: PlaceOptions): { placed: Map<string, MemoEntry>; rest: string[] } {
    const placed = new Map<string, MemoEntry>();
    const rest: string[] = [];
    const dirs = new Set<string>();
    for (const rel of rels) {
      const entry = this.store.get(rel);
      if (entry && placeKnown(rel, entry, opts, dirs)) {
        placed.set(rel, entry);
        this.store.use(rel, entry);
      } else {
        rest.push(rel);
      }
    }
    return { placed, rest };
  }

  /** What the last build knew of each file. */
  known(): Iterable<[string, MemoEntry]> {
    return this.store.entries();
  }

  learn(rel: string, entry: MemoEntry): void {
    this.store.use(rel, entry);
  }

  /** Keep exactly this build's entries, under this build's version only. */
  save(): Promise<void> {
    return this.store.save();
  }
}

/** A known file's page linked into outDir (`dirs`: the folders made so far); false when the file, a file it needs or its cached page is not as the entry says. */
function placeKnown(rel: string, { digest, key, needs, written, depends }: MemoEntry, { contentDir, outDir, pagesDir, cachedKeys, depends: dependsNow, digests }: PlaceOptions, dirs: Set<string>): boolean {
  if (!cachedKeys.has(key) || depends !== dependsNow?.(rel, depends)) return false;
  if ((digests?.get(rel) ?? fileDigest(readFileSync(path.join(contentDir, rel)))) !== digest) return false;
  // The one rule of a valid file that looks beyond it (its fileRules): what it names must exist.
  if (!needs.every((need) => existsSync(path.join(contentDir, need)))) return false;
  const file = path.join(outDir, fileForRoute(written.route));
  const dir = path.dirname(file);
  if (!dirs.has(dir)) {
    mkdirSync(dir, { recursive: true });
    dirs.add(dir);
  }
  try {
    linkFileSync(cachedPageFile(pagesDir, key), file);
    return true;
  } catch {
    return false; // removed from the cache meanwhile
  }
}
