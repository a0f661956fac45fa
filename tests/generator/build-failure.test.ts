/**
 * A build that fails while writing assets or host files reports the writer's own error, and
 * removes its temporary folder only once no other writer still writes into it.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { build } from '../../generator/build.js';
import type { IslandBundleOptions } from '../../generator/assets/islands.js';
import { tempDir, treeDigest } from '../helpers/content.js';
import { projectCopy } from './projectCopy.js';

const injected = vi.hoisted(() => ({ fontFails: false, sitemapFails: false, slowWriter: Promise.resolve() }));

// One writer fails at once, while another (standing in for the island bundle) is still writing
// files for a while.
vi.mock('../../generator/assets/fromCache.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../generator/assets/fromCache.js')>();
  return {
    ...real,
    loadFont: async (root: string) => {
      if (injected.fontFails) throw new Error('injected: the font file cannot be read');
      return real.loadFont(root);
    },
    bundleIslandsCached: (opts: IslandBundleOptions) => {
      const writing = (async () => {
        for (let i = 0; i < 20; i++) {
          await sleep(15);
          await mkdir(opts.outDir, { recursive: true });
          await writeFile(path.join(opts.outDir, `chunk-${i}.js`), `export const n = ${i};\n`);
        }
      })();
      injected.slowWriter = writing;
      return writing.then(() => ({ entry: '/assets/chunk-0.js', files: [{ path: '/assets/chunk-0.js' }] }));
    },
  };
});

// The sitemap is written beside the feeds and the back office's pages (build.ts): its failure must still fail the build.
vi.mock('../../generator/write/hostFiles.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../generator/write/hostFiles.js')>();
  return {
    ...real,
    sitemapFiles: (...args: Parameters<typeof real.sitemapFiles>) => {
      if (injected.sitemapFails) throw new Error('injected: the sitemap cannot be made');
      return real.sitemapFiles(...args);
    },
  };
});

describe('a failing asset writer', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let root: string;
  beforeAll(async () => {
    tmp = await tempDir('build-failure-');
    root = await projectCopy(path.join(tmp.dir, 'project'), { lockfile: true });
  });
  afterAll(() => tmp.remove());

  it("fails with that writer's own error, leaves no temporary folder and the previous dist/ as it was", async () => {
    const outDir = path.join(tmp.dir, 'dist');
    injected.fontFails = false;
    await build({ root, outDir });
    const previous = await treeDigest(outDir);

    injected.fontFails = true;
    const error = await build({ root, outDir }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('injected: the font file cannot be read');
    // Whatever the other writer still had to do is done by now: nothing may have been left behind.
    await injected.slowWriter;
    await sleep(50);
    expect((await readdir(tmp.dir)).sort()).toEqual(['dist', 'project']);
    expect(await treeDigest(outDir)).toEqual(previous);
  });

  it('fails with the sitemap\'s error when the host files cannot be written', async () => {
    const outDir = path.join(tmp.dir, 'dist');
    injected.fontFails = false;
    const previous = await treeDigest(outDir);
    injected.sitemapFails = true;
    try {
      const error = await build({ root, outDir }).then(() => undefined, (e: unknown) => e);
      expect((error as Error | undefined)?.message).toBe('injected: the sitemap cannot be made');
    } finally {
      injected.sitemapFails = false;
    }
    expect((await readdir(tmp.dir)).sort()).toEqual(['dist', 'project']);
    expect(await treeDigest(outDir)).toEqual(previous);
  });
});
