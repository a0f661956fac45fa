/**
 * Asset jobs run outside the build's process (generator/assets/helper/client.ts), side by side in one
 * helper: each job gets its own result or its own error, and a failing job leaves the others be.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInAssetHelper } from '../../generator/assets/helper/client.js';
import { ROOT, tempDir } from '../helpers/content.js';

describe('asset jobs in a helper process', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    tmp = await tempDir('own-process-');
  });
  afterAll(() => tmp.remove());
  // No committed files to find: every image is encoded into `cache`.
  const encodeInto = (cache: string) => ({ prebuilt: path.join(tmp.dir, 'no-prebuilt'), cache });

  it('answers each job with its own result or error, side by side', async () => {
    const cacheDir = path.join(tmp.dir, 'images');
    const [encoded, failed] = await Promise.allSettled([
      runInAssetHelper({ job: 'encodeImages', args: [path.join(ROOT, 'content'), encodeInto(cacheDir), ['home/hero.svg']], what: 'image encoding', cwd: ROOT }),
      runInAssetHelper({ job: 'compileCssIntoCache', args: [path.join(tmp.dir, 'no-project'), ''], what: 'stylesheet', cwd: ROOT }),
    ]);
    expect(encoded.status).toBe('fulfilled');
    expect((await readdir(cacheDir)).some((f) => /^home-hero-\w+-blur\.webp$/.test(f))).toBe(true);
    expect(failed.status).toBe('rejected');
    expect(String((failed as PromiseRejectedResult).reason)).toMatch(/^Error: stylesheet failed: ENOENT: no such file or directory.*no-project/);
  });

  it('runs the font on a thread beside the other jobs, its error coming back as its own', async () => {
    const font = path.join(ROOT, 'node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2');
    const out = path.join(tmp.dir, 'font.woff2');
    const cacheDir = path.join(tmp.dir, 'images-beside');
    const [subset, encoded, missing] = await Promise.allSettled([
      runInAssetHelper({ job: 'subsetFontInto', args: [font, out], what: 'font subsetting', cwd: ROOT }),
      runInAssetHelper({ job: 'encodeImages', args: [path.join(ROOT, 'content'), encodeInto(cacheDir), ['home/hero.svg']], what: 'image encoding', cwd: ROOT }),
      runInAssetHelper({ job: 'subsetFontInto', args: [path.join(tmp.dir, 'no-such.woff2'), path.join(tmp.dir, 'never.woff2')], what: 'font subsetting', cwd: ROOT }),
    ]);
    expect(subset.status).toBe('fulfilled');
    expect((await readFile(out)).subarray(0, 4).toString('latin1')).toBe('wOF2');
    expect(encoded.status).toBe('fulfilled');
    expect(missing.status).toBe('rejected');
    expect(String((missing as PromiseRejectedResult).reason)).toMatch(/^Error: font subsetting failed: ENOENT: no such file or directory.*no-such\.woff2/);
  });

  it('starts a new helper for a job asked for after the last one ended', async () => {
    await runInAssetHelper({ job: 'encodeImages', args: [path.join(ROOT, 'content'), encodeInto(path.join(tmp.dir, 'images-first')), ['home/about.svg']], what: 'image encoding', cwd: ROOT });
    const cacheDir = path.join(tmp.dir, 'images-again');
    await runInAssetHelper({ job: 'encodeImages', args: [path.join(ROOT, 'content'), encodeInto(cacheDir), ['home/about.svg']], what: 'image encoding', cwd: ROOT });
    expect(existsSync(cacheDir)).toBe(true);
  });
});
