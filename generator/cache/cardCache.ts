/**
 * The cards of the last build's collection files whose pages list other entries (the articles), in
 * .cache/cards/: each file's digest and card. Such a collection's cards are all read before any of
 * its pages is planned; a warm build of 10,000 articles spent seconds parsing every front matter
 * again to find the same cards. A file whose bytes are the last build's gives its card from here;
 * the others are read. `version` is a digest of what a card is made from besides its file (the
 * code that reads it, the time zone its dates are read in).
 */
import { readdir, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { writeAtomic } from './store.js';

export interface KnownCard { digest: string; card: { slug: string } }

export class CardCache {
  private readonly used = new Map<string, KnownCard>();

  private constructor(private readonly dir: string, private readonly file: string, private readonly known: ReadonlyMap<string, KnownCard>) {}

  static async open(cacheDir: string, version: string): Promise<CardCache> {
    const dir = path.join(cacheDir, 'cards');
    const file = path.join(dir, `${version}.v8`);
    const known = await readFile(file).then((b) => deserialize(b) as Map<string, KnownCard>, () => new Map<string, KnownCard>());
    return new CardCache(dir, file, known);
  }

  /** Whether the last build knew any file: a first build has nothing to look up. */
  get empty(): boolean {
    return this.known.size === 0;
  }

  /** The card of a file (a path in the content folder) whose bytes have this digest, if the last build read it. */
  get(rel: string, digest: string): { slug: string } | undefined {
    const known = this.known.get(rel);
    if (known?.digest !== digest) return undefined;
    this.used.set(rel, known);
    return known.card;
  }

  learn(rel: string, known: KnownCard): void {
    this.used.set(rel, known);
  }

  /** Keep exactly this build's cards, under this version only. */
  async save(): Promise<void> {
    await writeAtomic(this.file, serialize(this.used));
    for (const name of await readdir(this.dir).catch(() => [])) {
      if (name.endsWith('.v8') && path.join(this.dir, name) !== this.file) await unlink(path.join(this.dir, name)).catch(() => undefined);
    }
  }
}
