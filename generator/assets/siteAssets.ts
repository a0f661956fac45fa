/**
 * The site's assets, written to outDir: stylesheet, font, images, island bundle, page scripts and
 * static files. Every job starts at once: none waits for another (the stylesheet needs the font's
 * fallback, not the font).
 */
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageRef, Layout } from '../../contracts/pages.js';
import { settleAll } from '../runtime/settle.js';
import { fallbackFontFace } from './fonts.js';
import { bundleIslandsCached, compileCss, loadFont, processImages } from './fromCache.js';
import { contentHash } from './hash.js';
import { imageDirs, listImages } from './images.js';

export interface SiteAssets {
  assets: Layout['assets'];
  images: ReadonlyMap<string, ImageRef>;
  /** Every URL path outside the pages that exists: assets and static files. */
  files: ReadonlySet<string>;
}

export interface AssetOptions {
  root: string;
  contentDir: string;
  /** The island bundle's settings; undefined: no island bundle (content-only builds in tests and benchmarks). */
  islands?: { supabaseUrl?: string; supabaseAnonKey?: string; webhookUrl?: string };
}

export async function siteAssets(outDir: string, { root, contentDir, islands }: AssetOptions): Promise<SiteAssets> {
  await mkdir(path.join(outDir, 'assets', 'img'), { recursive: true });
  const [images, font, css, bundle, scripts, staticFiles] = await settleAll([
    listImages(contentDir).then((names) => processImages(root, contentDir, imageDirs(root), names)),
    loadFont(root),
    compileCss(root, fallbackFontFace()),
    islands && bundleIslandsCached({ root, outDir: path.join(outDir, 'assets'), ...islands }),
    copyScripts(root, outDir),
    copyStatic(contentDir, outDir),
  ] as const);
  const cssUrl = `/assets/site-${contentHash(css)}.css`;
  await settleAll([
    writeFile(path.join(outDir, cssUrl), css),
    writeFile(path.join(outDir, font.face.src), font.bytes),
    ...images.files.map((f) => cp(f.sourcePath, path.join(outDir, f.url))),
  ]);
  const { fontLoader, ...scriptUrls } = scripts;
  const assets: Layout['assets'] = { css: cssUrl, font: { ...font.face, loader: fontLoader }, ...scriptUrls, ...(bundle && { entry: bundle.entry }) };
  const files = new Set<string>([
    cssUrl, font.face.src, ...images.files.map((f) => f.url), ...Object.values(scriptUrls), ...(bundle?.files.map((f) => f.path) ?? []), ...staticFiles,
  ]);
  return { assets, images: images.refs, files };
}

/** Tiny page scripts (hero blur, 404 logging) copied under content-hashed names; the font loader's text, to inline. */
async function copyScripts(root: string, outDir: string): Promise<{ heroBlur: string; notFound: string; fontLoader: string }> {
  const read = (name: string) => readFile(path.join(root, 'src/scripts', `${name}.js`), 'utf8');
  const copy = async (name: string) => {
    const text = await read(name);
    const url = `/assets/${name}-${contentHash(text)}.js`;
    await writeFile(path.join(outDir, url), text);
    return url;
  };
  // Inlined in every page: its whole-line comments stay in the source.
  const inline = async (name: string) => (await read(name)).replace(/^\s*\/\/.*\n/gm, '');
  const [heroBlur, notFound, fontLoader] = await settleAll([copy('hero-blur'), copy('not-found'), inline('font-loader')]);
  if (/<\/script/i.test(fontLoader)) throw new Error('src/scripts/font-loader.js: "</script" would end the inline script early');
  return { heroBlur, notFound, fontLoader };
}

/** content/static/ is copied to the site root as it is (favicon and the like). */
async function copyStatic(contentDir: string, outDir: string): Promise<string[]> {
  const dir = path.join(contentDir, 'static');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  if (files.length) await cp(dir, outDir, { recursive: true });
  return files.map((f) => `/${f}`);
}
