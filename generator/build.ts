/**
 * The whole build: content → model → plan → render → write, into a temporary folder that replaces
 * dist/ only when everything succeeded. A failed build leaves the previous dist/ exactly as it was.
 */
import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildCss } from './assets/css.js';
import { loadFont } from './assets/fonts.js';
import { contentHash } from './assets/hash.js';
import { listImages, processImages } from './assets/images.js';
import { buildIslands } from './assets/islands.js';
import { loadContent } from './content.js';
import { planChrome, planPages } from './plan/plan.js';
import type { Chrome } from './plan/types.js';
import { renderPages } from './render/pool.js';
import { ContentErrors } from './validate/errors.js';
import { headersFile, redirectsFile, robotsTxt, sitemapXml } from './write/hostFiles.js';
import { brokenLinks } from './write/links.js';

export interface BuildOptions {
  root: string;
  contentDir?: string;
  outDir?: string;
  /** Production origin; defaults to SITE_URL, then site.yaml's siteUrl. */
  siteUrl?: string;
  supabaseUrl?: string;
  supabaseAnonKey?: string;
  webhookUrl?: string;
  threads?: number;
  /** Skip the island bundle (content-only builds in tests and benchmarks). */
  skipIslands?: boolean;
}

export interface BuildResult {
  pages: number;
  ms: number;
  outDir: string;
  htmlBytes: number;
}

export async function build(opts: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const root = opts.root;
  const contentDir = opts.contentDir ?? path.join(root, 'content');
  const outDir = opts.outDir ?? path.join(root, 'dist');
  const cacheDir = path.join(root, '.cache');

  const { model, docs } = await loadContent({ root, contentDir });
  const origin = (opts.siteUrl ?? model.site.siteUrl).replace(/\/+$/, '');

  const tmp = `${outDir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(path.join(tmp, 'assets', 'img'), { recursive: true });
  try {
    const [images, font, islands, scripts] = await Promise.all([
      listImages(contentDir).then((names) => processImages(contentDir, path.join(cacheDir, 'images'), names)),
      loadFont(),
      opts.skipIslands ? undefined : buildIslands({
        root, outDir: path.join(tmp, 'assets'),
        ...(opts.supabaseUrl && { supabaseUrl: opts.supabaseUrl }),
        ...(opts.supabaseAnonKey && { supabaseAnonKey: opts.supabaseAnonKey }),
        ...(opts.webhookUrl && { webhookUrl: opts.webhookUrl }),
      }),
      copyScripts(root, tmp),
    ]);
    const css = await buildCss(root, font.fontFaceCss);
    const cssUrl = `/assets/site-${contentHash(css)}.css`;
    await Promise.all([
      writeFile(path.join(tmp, cssUrl), css),
      writeFile(path.join(tmp, font.url), font.bytes),
      ...images.files.map((f) => cp(f.sourcePath, path.join(tmp, f.url))),
      cp(path.join(contentDir, 'static'), tmp, { recursive: true }).catch(() => undefined),
    ]);

    const assets: Chrome['assets'] = { css: cssUrl, font: font.url, ...scripts, ...(islands && { entry: islands.entry }) };
    const planOptions = { origin, images: images.refs, assets, year: buildYear() };
    const chrome = planChrome(model, planOptions);
    const pages = planPages(model, planOptions);
    for (const dir of new Set(pages.map((p) => path.dirname(p.file)))) await mkdir(path.join(tmp, dir), { recursive: true });
    const rendered = await renderPages(pages, chrome, tmp, opts.threads);

    const routes = new Set(pages.map((p) => p.route));
    const assetFiles = new Set<string>([cssUrl, font.url, ...images.files.map((f) => f.url), ...Object.values(scripts), ...(islands?.files.map((f) => f.path) ?? [])]);
    const staticFiles = await listStatic(contentDir);
    const exists = (url: string) => routes.has(url) || assetFiles.has(url) || staticFiles.has(url);
    const linkErrors = brokenLinks(new Map(rendered.refs), exists, docs.map((d) => ({ file: d.file, text: d.yaml, lineOffset: d.lineOffset })));
    if (linkErrors.length) throw new ContentErrors(linkErrors);

    const hostConfig = {
      origin,
      reviewsScriptUrl: model.site.reviews.scriptUrl,
      frameUrls: [model.site.booking.bookingUrl, model.site.booking.loginPortalUrl],
      connectUrls: [opts.supabaseUrl, opts.webhookUrl].filter((u): u is string => Boolean(u)),
    };
    await Promise.all([
      writeFile(path.join(tmp, 'sitemap.xml'), await sitemapXml(pages, origin)),
      writeFile(path.join(tmp, 'robots.txt'), robotsTxt(origin)),
      writeFile(path.join(tmp, '_headers'), headersFile(hostConfig)),
      writeFile(path.join(tmp, '_redirects'), redirectsFile(pages)),
    ]);

    await swap(tmp, outDir);
    return { pages: pages.length, ms: performance.now() - started, outDir, htmlBytes: rendered.bytes };
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** Same input, same output: the copyright year comes from SOURCE_DATE_EPOCH when set. */
function buildYear(): number {
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  return (Number.isFinite(epoch) && epoch > 0 ? new Date(epoch * 1000) : new Date()).getUTCFullYear();
}

/** Tiny page scripts (hero blur, 404 logging), copied under content-hashed names. */
async function copyScripts(root: string, outDir: string): Promise<{ heroBlur: string; notFound: string }> {
  const copy = async (name: string) => {
    const text = await readFile(path.join(root, 'src/scripts', `${name}.js`), 'utf8');
    const url = `/assets/${name}-${contentHash(text)}.js`;
    await writeFile(path.join(outDir, url), text);
    return url;
  };
  const [heroBlur, notFound] = await Promise.all([copy('hero-blur'), copy('not-found')]);
  return { heroBlur, notFound };
}

async function listStatic(contentDir: string): Promise<Set<string>> {
  const { readdir } = await import('node:fs/promises');
  const dir = path.join(contentDir, 'static');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return new Set(entries.filter((e) => e.isFile()).map((e) => '/' + path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')));
}

/** Replace outDir by the finished build in two renames; the old output is removed afterwards. */
async function swap(tmp: string, outDir: string): Promise<void> {
  const old = `${outDir}.old-${process.pid}`;
  const hadOld = await rename(outDir, old).then(() => true, (e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return false;
    throw e;
  });
  await rename(tmp, outDir);
  if (hadOld) await rm(old, { recursive: true, force: true });
}
