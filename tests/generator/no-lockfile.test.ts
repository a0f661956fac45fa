/** A project without package-lock.json (pnpm, yarn, a zip download) builds like any other. */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../generator/build.js';
import { tempDir } from '../helpers/content.js';
import { projectCopy } from './projectCopy.js';

describe('a project without package-lock.json', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    tmp = await tempDir('no-lockfile-');
  });
  afterAll(() => tmp.remove());

  it('builds the whole site, islands included', async () => {
    const root = await projectCopy(path.join(tmp.dir, 'project'), { lockfile: false });
    const outDir = path.join(tmp.dir, 'dist');
    const result = await build({ root, outDir, siteUrl: 'https://www.bayshinecleaning.com' });
    expect(result.pages).toBeGreaterThan(20);
    const assets = await readdir(path.join(outDir, 'assets'));
    expect(assets.some((f) => /^entry-[\w-]+\.js$/.test(f))).toBe(true);
    expect(assets.some((f) => /^site-\w+\.css$/.test(f))).toBe(true);
    expect((await readdir(tmp.dir)).sort()).toEqual(['dist', 'project']);
  });
});
