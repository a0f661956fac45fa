/**
 * Each asset as the build gets it: from .cache/ when its inputs are unchanged, else made first by
 * its job in the asset helper process (helper/client.ts; the jobs are css.ts, fonts.ts, images.ts and
 * islands.ts, which never load in the build's own process).
 *
 * The island bundle depends only on src/, contracts/, the lockfile and the build settings: it is
 * built once per distinct input and kept in .cache/islands/<digest>/; Vite is not even loaded on a hit.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CacheKey, cachedOutput } from '../cache/store.js';
import { cacheFileOf } from './css.js';
import { FAMILY, FONT_FILE, fontDirs, fontSource, WEIGHTS, type FontAsset } from './fonts.js';
import { contentHash } from './hash.js';
import { cacheOnly, describeImages } from './images.js';
import type { IslandBundleOptions, IslandBundle } from './islands.js';
import { runInAssetHelper } from './helper/client.js';
import { findAsset, type AssetDirs } from './prebuilt.js';

function inputDigest(opts: IslandBundleOptions): string {
  return new CacheKey()
    // Everything the islands import: the lead rules live with the edge function they share.
    .files(opts.root, ['src', 'contracts', 'supabase/functions/_shared'])
    .lockfile(opts.root)
    .add(readFileSync(path.join(opts.root, 'generator/assets/islands.ts')), readFileSync(path.join(opts.root, 'generator/assets/viteBundle.ts')))
    .add(JSON.stringify([opts.supabaseUrl ?? '', opts.supabaseAnonKey ?? '', opts.webhookUrl ?? '']))
    .digest(24);
}

export function bundleIslandsCached(opts: IslandBundleOptions): Promise<IslandBundle> {
  const cacheDir = path.join(opts.root, '.cache', 'islands', inputDigest(opts));
  return cachedOutput(cacheDir, opts.outDir, (filesDir) => bundleInAssetHelper({ ...opts, outDir: filesDir }));
}

/** Vite and its native bundler take memory that the build would keep while it renders. */
function bundleInAssetHelper(opts: IslandBundleOptions): Promise<IslandBundle> {
  return runInAssetHelper({ job: 'bundleIslands', args: [opts], what: 'island bundle', cwd: opts.root });
}

/** The stylesheet: from the cache, else compiled in a process of its own (Tailwind's memory stays out of the build). */
export async function compileCss(root: string, fontFaceCss: string): Promise<string> {
  const cacheFile = cacheFileOf(root, fontFaceCss);
  const cached = await readFile(cacheFile, 'utf8').catch(() => undefined);
  if (cached !== undefined) return cached;
  await runInAssetHelper({ job: 'compileCssIntoCache', args: [root, fontFaceCss], what: 'stylesheet', cwd: root });
  return readFile(cacheFile, 'utf8');
}

let font: Promise<FontAsset> | undefined;

/**
 * The font file and how pages add it. Cutting it costs much processor time: the cut is
 * committed in prebuilt/font/ (prebuilt.ts), else kept in .cache/font/ once made.
 */
export function loadFont(root: string): Promise<FontAsset> {
  font ??= (async () => {
    const source = await readFile(fontSource());
    const dirs = fontDirs(root, source);
    let file = await findAsset(dirs, FONT_FILE);
    if (!file) {
      // HarfBuzz (WebAssembly) outside the build, which would keep its memory.
      file = path.join(dirs.cache, FONT_FILE);
      await runInAssetHelper({ job: 'subsetFontInto', args: [fontSource(), file], what: 'font subsetting', cwd: root });
    }
    const bytes = await readFile(file);
    const src = `/assets/inter-latin-${contentHash(bytes)}.woff2`;
    const weight = `${WEIGHTS.min} ${WEIGHTS.max}`;
    const faceCss = `@font-face{font-family:"${FAMILY}";font-style:normal;font-display:swap;font-weight:${weight};src:url(${src}) format("woff2-variations")}`;
    return { bytes, face: { family: FAMILY, src, weight, faceCss } };
  })();
  font.catch(() => { font = undefined; });
  return font;
}

/** The images as the pages refer to them, encoded where needed (in the helper of the build of root). */
export async function processImages(root: string, contentDir: string, dirs: AssetDirs, names: readonly string[]) {
  const misses: string[] = [];
  const described = await describeImages(contentDir, names, cacheOnly(dirs, misses));
  if (!misses.length) return described;
  await runInAssetHelper({ job: 'encodeImages', args: [contentDir, dirs, names], what: 'image encoding', cwd: root });
  return describeImages(contentDir, names, cacheOnly(dirs, []));
}
