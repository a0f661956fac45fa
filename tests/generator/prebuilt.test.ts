/**
 * prebuilt/ (generator/assets/prebuilt.ts): the font's cut and the encoded images, committed so a
 * fresh clone's build does not make them. It must hold exactly what this commit's cold build would
 * otherwise make, byte for byte, and the build must take them from there without starting a job.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { FONT_FILE, fontDirs, fontSource, subsetFontInto } from '../../generator/assets/fonts.js';
import { cacheOnly, describeImages, encodeImages, imageDirs, listImages } from '../../generator/assets/images.js';
import { loadFont, processImages } from '../../generator/assets/fromCache.js';
import { PREBUILT_DIR } from '../../generator/assets/prebuilt.js';
import { writePrebuilt } from '../../cli/authoring/prebuilt.js';
import { ROOT, useTempDir } from '../helpers/content.js';

// Any asset job asked for here fails the test: what prebuilt/ holds is never made again.
const jobs = vi.hoisted(() => ({ asked: [] as string[] }));
vi.mock('../../generator/assets/helper/client.js', () => ({
  runInAssetHelper: async ({ job }: { job: string }) => {
    jobs.asked.push(job);
    throw new Error(`no asset job was expected, ${job} was asked for`);
  },
}));

const CONTENT = path.join(ROOT, 'content');
const HINT = 'prebuilt/ is not current: run `npm run prebuilt` and commit what it writes';

/** Every file of prebuilt/ as the repository has it, relative to the root. */
async function committedFiles(root: string): Promise<string[]> {
  const dir = path.join(root, PREBUILT_DIR);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/')).sort();
}

/** What a build of the content would look for: the font's cut and each image's file names. */
async function expectedFiles(): Promise<string[]> {
  const font = path.join(fontDirs(ROOT, await readFile(fontSource())).prebuilt, FONT_FILE);
  const dirs = imageDirs(ROOT);
  const names: string[] = [];
  const lookup = cacheOnly(dirs, []);
  await describeImages(CONTENT, await listImages(CONTENT), { ensure: (name, make) => (names.push(name), lookup.ensure(name, make)) });
  return [font, ...names.map((n) => path.join(dirs.prebuilt, n))].map((f) => path.relative(ROOT, f).split(path.sep).join('/')).sort();
}

describe('prebuilt/', () => {
  const tmp = useTempDir('prebuilt-');

  it('holds exactly the font cut and the encoded images this commit builds with', async () => {
    const expected = await expectedFiles();
    expect(await committedFiles(ROOT), HINT).toEqual([`${PREBUILT_DIR}/README.md`, ...expected].sort());
  });

  it('holds what the tools make of those inputs, byte for byte', async () => {
    const source = await readFile(fontSource());
    const cut = path.join(tmp.dir, 'font.woff2');
    await subsetFontInto(fontSource(), cut);
    expect((await readFile(cut)).equals(await readFile(path.join(fontDirs(ROOT, source).prebuilt, FONT_FILE))), HINT).toBe(true);

    // Encoded afresh: no committed folder to find them in.
    const fresh = { prebuilt: path.join(tmp.dir, 'none'), cache: path.join(tmp.dir, 'images') };
    const names = await encodeImages(CONTENT, fresh, ['home/hero.svg', 'cities/san-jose.svg']);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect((await readFile(path.join(fresh.cache, name))).equals(await readFile(path.join(imageDirs(ROOT).prebuilt, name))), `${name}: ${HINT}`).toBe(true);
    }
  });

  it('is where a cold build takes the font and the images from: no job is started, nothing is made', async () => {
    const emptyCache = path.join(tmp.dir, 'cold-cache');
    const images = await processImages(ROOT, CONTENT, { prebuilt: imageDirs(ROOT).prebuilt, cache: emptyCache }, await listImages(CONTENT));
    expect(images.refs.get('home/hero.svg')?.blurredSrc).toMatch(/^data:image\/webp;base64,/);
    expect(existsSync(emptyCache)).toBe(false);
    const font = await loadFont(ROOT);
    expect(font.bytes.equals(await readFile(path.join(fontDirs(ROOT, await readFile(fontSource())).prebuilt, FONT_FILE)))).toBe(true);
    expect(jobs.asked).toEqual([]);
  });

  it('is found under a name that changes with what the file is made from', async () => {
    const source = await readFile(fontSource());
    const other = Buffer.concat([source, Buffer.from([0])]);
    expect(fontDirs(ROOT, other).prebuilt).not.toBe(fontDirs(ROOT, source).prebuilt);
    expect(fontDirs(tmp.dir, source).prebuilt).toBe(path.join(tmp.dir, path.relative(ROOT, fontDirs(ROOT, source).prebuilt)));
  });

  it('is rewritten by `npm run prebuilt`: what is missing is made, what no build uses is removed', async () => {
    const root = path.join(tmp.dir, 'project');
    const stale = path.join(root, PREBUILT_DIR, 'images', '0000000000000000', 'home-hero-old-blur.webp');
    await mkdir(path.dirname(stale), { recursive: true });
    await writeFile(stale, 'an encoding of settings no build has any more');
    await writeFile(path.join(root, PREBUILT_DIR, 'README.md'), 'kept');

    const first = await writePrebuilt(root, CONTENT);
    const expected = (await expectedFiles()).map((f) => path.join(root, f));
    expect(first.written.map((f) => path.join(root, f)).sort()).toEqual(expected);
    expect(first.removed).toEqual([`${PREBUILT_DIR}/images/0000000000000000/home-hero-old-blur.webp`]);
    expect(existsSync(path.dirname(stale))).toBe(false);
    expect(await committedFiles(root)).toEqual(await committedFiles(ROOT));
    for (const file of await committedFiles(ROOT)) {
      if (!file.endsWith('README.md')) expect((await readFile(path.join(root, file))).equals(await readFile(path.join(ROOT, file))), file).toBe(true);
    }

    expect(await writePrebuilt(root, CONTENT)).toEqual({ written: [], removed: [] });
  });
});
