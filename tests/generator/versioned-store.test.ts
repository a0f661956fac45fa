/**
 * The stores of .cache/ that a warm build reads whole (the cards, the memo of collection files):
 * a build that changed a few entries writes only those beside the store's file. What the next
 * build reads must be exactly what the last one kept, however many builds wrote deltas in between;
 * a wrong entry there is a stale page.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VersionedStore } from '../../generator/cache/store.js';
import { useTempDir } from '../helpers/content.js';

type Entry = { digest: string; card: { slug: string } };
const entry = (n: number, digest = `d${n}`): Entry => ({ digest, card: { slug: `entry-${n}` } });

/** A build: opens the store, keeps what `keep` returns for each key it asks about, saves. */
async function build(cacheDir: string, version: string, keep: (known: ReadonlyMap<string, Entry>) => Map<string, Entry>) {
  const store = await VersionedStore.open<Entry>(cacheDir, 'cards', version);
  const known = new Map(store.entries());
  for (const [key, value] of keep(known)) store.use(key, value);
  await store.save();
}

const read = async (cacheDir: string, version: string) => new Map((await VersionedStore.open<Entry>(cacheDir, 'cards', version)).entries());

describe('a versioned store of the build cache', () => {
  const tmp = useTempDir('versioned-store-');

  it('after builds that change a few entries, the next build reads what the last one kept; many changes rewrite the file', async () => {
    const cacheDir = path.join(tmp.dir, 'cache');
    const first = new Map(Array.from({ length: 1000 }, (_, n) => [`articles/${n}.md`, entry(n)]));
    await build(cacheDir, 'v1', () => first);
    const file = path.join(cacheDir, 'cards', 'v1.v8');
    const written = await readFile(file);

    // One entry changed, one gone, one new: the file stays, the delta holds the three.
    let expected = new Map(first);
    await build(cacheDir, 'v1', (known) => {
      const kept = new Map(known);
      kept.set('articles/5.md', entry(5, 'changed'));
      kept.delete('articles/6.md');
      kept.set('articles/new.md', entry(1000));
      expected = kept;
      return kept;
    });
    expect(await readFile(file)).toEqual(written);
    expect((await readdir(path.join(cacheDir, 'cards'))).sort()).toEqual(['v1.v8', 'v1.v8.delta']);
    expect(await read(cacheDir, 'v1')).toEqual(expected);

    // A second small change adds to the delta: the first one's changes are still read.
    await build(cacheDir, 'v1', (known) => {
      const kept = new Map(known);
      kept.set('articles/7.md', entry(7, 'changed too'));
      expected = kept;
      return kept;
    });
    expect(await readFile(file)).toEqual(written);
    const afterTwo = await read(cacheDir, 'v1');
    expect(afterTwo).toEqual(expected);
    expect(afterTwo.get('articles/5.md')?.digest).toBe('changed');
    expect(afterTwo.has('articles/6.md')).toBe(false);

    // Past the delta's bound, the file is written whole and the delta goes.
    await build(cacheDir, 'v1', (known) => {
      const kept = new Map([...known].map(([key, value]) => [key, { ...value, digest: `${value.digest}+` }]));
      expected = kept;
      return kept;
    });
    expect(await readFile(file)).not.toEqual(written);
    expect(await readdir(path.join(cacheDir, 'cards'))).toEqual(['v1.v8']);
    expect(await read(cacheDir, 'v1')).toEqual(expected);
  });

  it('a new version writes its own file and removes the other versions and their deltas', async () => {
    const cacheDir = path.join(tmp.dir, 'versions');
    await build(cacheDir, 'v1', () => new Map([['a.md', entry(1)]]));
    await build(cacheDir, 'v1', () => new Map([['a.md', entry(1, 'changed')]]));
    expect((await readdir(path.join(cacheDir, 'cards'))).sort()).toEqual(['v1.v8', 'v1.v8.delta']);
    // Another version starts from nothing, even with a small change: its file is whole.
    await build(cacheDir, 'v2', (known) => {
      expect(known.size).toBe(0);
      return new Map([['b.md', entry(2)]]);
    });
    expect(await readdir(path.join(cacheDir, 'cards'))).toEqual(['v2.v8']);
    expect(await read(cacheDir, 'v2')).toEqual(new Map([['b.md', entry(2)]]));
  });
});
