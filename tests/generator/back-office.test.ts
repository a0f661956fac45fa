/**
 * The content manager's page (/admin) and the lead inbox (/leads): `npm start` adds them to dist/
 * after the pages, with the same files a build that waits for them writes; and their bundles, like
 * the islands', are rebuilt only when code they are made from changes, never for a content edit.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../generator/build.js';
import { tempDir, treeDigest } from '../helpers/content.js';
import { projectCopy } from './projectCopy.js';

const siteUrl = 'https://www.bayshinecleaning.com';

describe('the back office pages', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let root: string;
  beforeAll(async () => {
    tmp = await tempDir('back-office-');
    root = await projectCopy(path.join(tmp.dir, 'project'), { lockfile: true });
  });
  afterAll(() => tmp.remove());

  it('are added after the pages (npm start) with the same files as a build that waits for them', async () => {
    const whole = path.join(tmp.dir, 'dist-whole');
    // One "now" for both: it is in /build.json and in the article preview's dates.
    const now = '2026-11-29T09:00';
    await build({ root, outDir: whole, siteUrl, now });
    const later = path.join(tmp.dir, 'dist-later');
    const result = await build({ root, outDir: later, siteUrl, backOfficeAfter: true, now });
    expect(existsSync(path.join(later, 'index.html'))).toBe(true);
    await result.backOffice;
    expect(await treeDigest(later)).toEqual(await treeDigest(whole));
    expect(existsSync(path.join(later, 'admin.html')) && existsSync(path.join(later, 'leads.html'))).toBe(true);
    expect((await readdir(tmp.dir)).sort()).toEqual(['dist-later', 'dist-whole', 'project']);
  });

  it('keep their bundles (and the islands\') through a content edit; the admin script is rebuilt when its code changes', async () => {
    const outDir = path.join(tmp.dir, 'dist-edits');
    /** Each bundle cache's entries, with when each was made. */
    const bundles = async () => Object.fromEntries(await Promise.all(['admin', 'inbox', 'islands'].map(async (name) => {
      const dir = path.join(root, '.cache', name);
      const entries = (await readdir(dir)).sort();
      return [name, await Promise.all(entries.map(async (e) => `${e} ${(await stat(path.join(dir, e, 'result.json'))).mtimeMs}`))] as const;
    })));
    await build({ root, outDir, siteUrl });
    const before = await bundles();
    expect(before.admin).toHaveLength(1);

    const city = path.join(root, 'content/cities/colma.yaml');
    const text = await readFile(city, 'utf8');
    await writeFile(city, text.replace(/tagline: .*/, 'tagline: Edited for the cache test.'));
    await build({ root, outDir, siteUrl });
    expect(await readFile(path.join(outDir, 'locations/deep-cleaning-colma-ca.html'), 'utf8')).toContain('Edited for the cache test.');
    expect(await bundles()).toEqual(before);

    const settings = path.join(root, 'cms/app/settings.ts');
    await writeFile(settings, `${await readFile(settings, 'utf8')}\n// a change to the admin script's code\n`);
    await build({ root, outDir, siteUrl });
    const after = await bundles();
    expect(after.admin).toHaveLength(2);
    expect(after.inbox).toEqual(before.inbox);
  });
});
