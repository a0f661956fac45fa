/**
 * A warm build takes an unchanged article's card from .cache/cards/ without reading the file when
 * the file's status is as it was when the last build read it. An edit must never hide behind that:
 * a changed size, modification or status-change time or inode reads the file again, and so does a
 * file changed so shortly before it was read that a second change could keep its timestamps.
 */
import { readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CardCache, RACY_MS, stampOf, vouches, type FileStamp } from '../../generator/cache/cardCache.js';
import { fileDigest } from '../../generator/cache/collectionMemo.js';
import { useTempDir } from '../helpers/content.js';

const settled: FileStamp = { size: 120, mtimeMs: 1_000_000, ctimeMs: 1_000_000, ino: 42, at: 1_000_000 + RACY_MS + 1 };

describe("a file's status as a stand-in for its bytes", () => {
  it('vouches only for the same size, times and inode, last changed well before it was read', () => {
    const now = { ...settled, at: settled.at + 60_000 };
    expect(vouches(settled, now)).toBe(true);
    expect(vouches(settled, { ...now, size: 121 })).toBe(false);
    expect(vouches(settled, { ...now, mtimeMs: now.mtimeMs + 1 })).toBe(false);
    expect(vouches(settled, { ...now, ctimeMs: now.ctimeMs + 1 })).toBe(false);
    expect(vouches(settled, { ...now, ino: 43 })).toBe(false);
    // Changed within RACY_MS of its reading: a second change could have kept these timestamps.
    expect(vouches({ ...settled, at: settled.mtimeMs + RACY_MS - 1 }, now)).toBe(false);
    expect(vouches({ ...settled, ctimeMs: settled.at - 1 }, now)).toBe(false);
  });

  const tmp = useTempDir('card-cache-');

  it('gives the card of a file unchanged since, and reads an edited file of the same size again', async () => {
    const cacheDir = path.join(tmp.dir, 'cache');
    const file = path.join(tmp.dir, 'article.md');
    await writeFile(file, 'title: First\n');
    // Last modified ten minutes ago: the edit below gets another modification time, however coarse the clock.
    const old = new Date(Date.now() - 600_000);
    await utimes(file, old, old);
    const stamp = stampOf(file);
    const bytes = await readFile(file);
    const first = await CardCache.open(cacheDir, 'v1');
    // As if the last build read it long after its last change.
    first.learn('articles/a.md', { digest: fileDigest(bytes), card: { slug: 'first' }, stamp: { ...stamp, at: stamp.at + 60_000 } });
    await first.save();

    const warm = await CardCache.open(cacheDir, 'v1');
    expect(warm.find('articles/a.md', file)).toMatchObject({ digest: fileDigest(bytes), card: { slug: 'first' } });

    await writeFile(file, 'title: Other\n');
    const edited = await CardCache.open(cacheDir, 'v1');
    const found = edited.find('articles/a.md', file);
    expect(found.card).toBeUndefined();
    expect(found.digest).toBe(fileDigest(await readFile(file)));
  });
});
