/**
 * The pipeline: content (load, validate, model) → plan → render → write. `build` runs it once into
 * a temporary folder that replaces dist/ only when everything succeeded (a failed build leaves the
 * previous dist/ exactly as it was); `npm run dev` (dev.ts) drives the same Pipeline incrementally.
 */
import { readFileSync, rmSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CityEntry, SiteModel } from '../contracts/content.js';
import type { ContentError } from '../contracts/errors.js';
import { fileForRoute } from '../contracts/routes.js';
import type { ValidDoc } from '../contracts/documents.js';
import type { ImageRef, Layout, PagePlan, WrittenPage } from '../contracts/pages.js';
import { dropPrestartedAssetHelper } from './assetHelper.mjs';
import { fallbackFontFace } from './assets/fonts.js';
import { contentHash } from './assets/hash.js';
import { imageDirs, listImages } from './assets/images.js';
import { CacheKey } from './cache.js';
import { bundleIslandsCached, compileCss, loadFont, processImages } from './assets/fromCache.js';
import type { CityBatchResult, CitySetup } from './cityPages.js';
import { CityMemo } from './cityMemo.js';
import { checkContent, checkSiteContent, type SiteContent } from './content.js';
import { repeatedCityNames, withCities } from './model/assemble.js';
import { PageCache, renderCodeVersion } from './render/pageCache.js';
import { PageLinks } from './render/pageLinks.js';
import { BATCH_PAGES, PARALLEL_THRESHOLD, RenderPool } from './render/pool.js';
import { Slots } from './render/slots.js';
import { locator } from '../contracts/validate/locate.js';
import type { Memo } from './plan/memo.js';
import { planEachPage, planLayout, type PlanOptions } from './plan/plan.js';
import { FILE_OPS, renderSite } from './render/renderSite.js';
import { adminAssets, inboxAssets, writeAdminPage, writeInboxPage, type AdminAssets, type InboxAssets } from './backOffice.js';
import { ContentErrors, sortErrors } from '../contracts/validate/errors.js';
import { headersFile, redirectsFile, robotsTxt, sitemapFiles } from './write/hostFiles.js';
import { brokenLinks } from './write/links.js';
import { writeBuildInfo } from './write/buildInfo.js';
import { OFFICE_HOURS_FILE, officeHoursJson } from './write/officeHours.js';

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
  /**
   * `npm start`: dist/ is swapped in as soon as the site's pages are written, and the content
   * manager's and the lead inbox's pages (their bundles take seconds when not cached) are added to
   * it afterwards; BuildResult.backOffice settles once they are.
   */
  backOfficeAfter?: boolean;
}

export interface BuildResult {
  pages: number;
  ms: number;
  /** Milliseconds per stage: content, assets, plan, render, write. */
  stages: Record<string, number>;
  outDir: string;
  htmlBytes: number;
  /** Settles when /admin and /leads are in outDir: at once, unless built with backOfficeAfter. */
  backOffice: Promise<void>;
}

const originOf = (opts: BuildOptions, model: SiteModel) => (opts.siteUrl ?? model.site.siteUrl).replace(/\/+$/, '');

export async function build(opts: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const lap = stageTimer();
  const outDir = opts.outDir ?? path.join(opts.root, 'dist');
  const tmp = `${outDir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await removeAbandoned(outDir);
  // Every step below settles all it started before it fails, so nothing writes into tmp any more
  // when it is removed, and the error is the failed step's own (the content's first).
  try {
    const pipeline = new Pipeline(opts, tmp);
    // The assets do not depend on the content's model: they are started first, so their processes
    // (generator/assets/ownProcess.ts: the other core) work while the content is read and checked.
    // The 'assets' stage time is what is left to wait for after the content.
    const assets = pipeline.assets();
    const checked = checkSiteContent(opts).finally(() => lap('content'));
    // A small site's cities are drawn on this thread: its render code (React, the templates) is
    // loaded while the assets are still being made, not after.
    checked.then((c) => { if (c.cityFiles.length < PARALLEL_THRESHOLD) import('./cityPages.js').catch(() => undefined); }, () => undefined);
    const [site, content] = await settleAll([assets, checked]);
    lap('assets');
    const layout = content.model && pipeline.layout(content.model, site);
    const cache = layout && await PageCache.open(path.join(opts.root, '.cache'), renderCodeVersion(opts.root), layout);
    // The render workers read the city files (cityPages.ts): started once it is known that there
    // are enough city files to read (a warm build's are mostly known: cityMemo.ts).
    let pool: RenderPool | undefined;
    try {
      const startPool = async () => (pool ??= await RenderPool.start(layout, opts.threads));
      const cities = await readCities(content, site, pipeline, tmp, { root: opts.root, layout, cache, startPool });
      lap('cities');
      const errors = [...content.errors, ...cities.errors];
      if (errors.length || !content.model || !layout || !cache) throw new ContentErrors(sortErrors(errors));
      // The model's cities are their cards: the city pages are written already, and the planners
      // plan none (a city's page is planned where its page texts are: in cityPages.ts).
      const model = withCities(content.model, cities.cards);
      // Every page in sitemap order: the city pages come last (generator/plan/pages.ts PAGE_KINDS).
      const cityPages = model.cities.flatMap((c) => cities.pages.get(c.slug) ?? []);
      // Pages are planned as the render stage takes them: no list of every plan is ever held. The
      // sitemap and _redirects need only their addresses: written while the workers still render
      // (a second of this thread at 50,000 pages).
      const rendered = await renderSite(pipeline.pages(model, site), layout, tmp, {
        cache, ...(pool && { pool }), ...(opts.threads && { threads: opts.threads }),
        whileRendering: (planned) => pipeline.writeHostFiles(model, [...planned, ...cityPages]),
      });
      await cache.save();
      lap('render');
      for (const [route, refs] of cities.links.lists()) rendered.links.add(route, refs);
      const pages = [...rendered.pages, ...cityPages];
      // The content files are read again only to say where a broken link was written.
      await pipeline.checkLinks(rendered.links, pages, site, async () => (await checkContent(opts)).docs);
      await swap(tmp, outDir);
      lap('write');
      const backOffice = opts.backOfficeAfter ? pipeline.addBackOffice(model, outDir) : Promise.resolve();
      return { pages: pages.length, ms: performance.now() - started, stages: lap.stages, outDir, htmlBytes: rendered.bytes + cities.bytes, backOffice };
    } finally {
      await pool?.close();
    }
  } catch (err) {
    // A clean-up that fails too must not hide why the build failed.
    await rm(tmp, { recursive: true, force: true, maxRetries: 3 }).catch((cleanup: unknown) => console.error(`Could not remove ${tmp}:`, cleanup));
    throw err;
  }
}

/** Promise.all that waits for every promise before it rejects (with the first failure). */
async function settleAll<T extends readonly unknown[]>(promises: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/** Times each stage; GENERATOR_TIMINGS=1 also prints them with the memory in use (for profiling). */
function stageTimer() {
  let last = performance.now();
  const stages: Record<string, number> = {};
  const lap = (stage: string) => {
    const now = performance.now();
    stages[stage] = now - last;
    // Under node --expose-gc, the heap figure is what is still in use, not garbage yet to be collected.
    if (process.env.GENERATOR_TIMINGS) (globalThis as { gc?: () => void }).gc?.();
    if (process.env.GENERATOR_TIMINGS) console.error(`  ${stage}: ${Math.round(now - last)} ms (rss ${Math.round(process.memoryUsage.rss() / 2 ** 20)} MiB, heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MiB)`);
    last = now;
  };
  return Object.assign(lap, { stages });
}

interface CitiesRead {
  /** The valid cities without their page texts, in file order. */
  cards: CityEntry[];
  errors: ContentError[];
  /** The city pages written, by the city's slug. */
  pages: Map<string, WrittenPage>;
  links: PageLinks;
  bytes: number;
}

/**
 * Every city file through the whole pipeline: those the last build knew are placed from the memo
 * (cityMemo.ts), the others go to the render workers when there are enough of them (else they are
 * read on this thread): checked, and, when the rest of the content is valid (`cache` given), their
 * pages planned and put in place. What comes back is each city's card, problems, page and links;
 * the rule across cities (one name, one file) is checked here.
 */
async function readCities(
  content: SiteContent, site: SiteAssets, pipeline: Pipeline, outDir: string,
  { root, layout, cache, startPool }: { root: string; layout: Layout | undefined; cache: PageCache | undefined; startPool: () => Promise<RenderPool> },
): Promise<CitiesRead> {
  const read: CitiesRead = { cards: [], errors: [], pages: new Map(), links: new PageLinks(), bytes: 0 };
  /** The file of each card, as messages name it. */
  const cardFiles: string[] = [];
  const files = new Slots(FILE_OPS);
  const relOf = (file: string) => file.slice(content.displayPrefix.length);
  const plan = content.model && pipeline.planOptions(content.model, site);
  const memo = plan && cache && await CityMemo.open(path.join(root, '.cache'), new CacheKey()
    // Everything a city's card and page depend on besides its file: the code that reads, checks and
    // plans it (the render code and the layout are in the page cache's prefix), the rest of the model.
    .add(cache.keyPrefix).files(root, ['generator'])
    .add(JSON.stringify(content.model), JSON.stringify({ ...plan, images: [...plan.images] }))
    .digest(32));
  const setup: CitySetup = {
    contentDir: content.contentDir, displayPrefix: content.displayPrefix,
    ...(content.model && plan && layout && cache && {
      render: { model: content.model, plan, outDir, pagesDir: cache.pagesDir, keyPrefix: cache.keyPrefix, cachedKeys: cache.keys() },
    }),
  };
  const take = (batch: CityBatchResult) => {
    read.bytes += batch.bytes;
    for (const city of batch.cities) {
      if (city.errors) read.errors.push(...city.errors);
      if (city.card) {
        read.cards.push(city.card);
        cardFiles.push(city.file);
      }
      const page = city.page;
      if (!page || !city.card) continue;
      if (city.memo) memo!.learn(relOf(city.file), { ...city.memo, key: page.key, card: city.card, written: page.written });
      read.pages.set(city.card.slug, page.written);
      const keyed = { key: page.key, route: page.written.route, file: fileForRoute(page.written.route) };
      const refs = page.list === undefined ? cache!.adopt(page.key) : batch.lists[page.list]!;
      if (!refs) throw new Error(`the page cache lost ${page.key} (${page.written.route})`);
      const kept = read.links.add(keyed.route, refs);
      // A failure is kept by `files` and thrown by its idle(); this promise must not go unhandled.
      if (page.list !== undefined) files.run(() => cache!.store(keyed, outDir, kept)).catch(() => undefined);
    }
  };
  const { placed, rest } = memo && setup.render
    ? memo.place(content.cityFiles, { contentDir: content.contentDir, outDir, pagesDir: cache!.pagesDir, cachedKeys: new Set(setup.render.cachedKeys) })
    : { placed: new Map(), rest: content.cityFiles };
  take({
    cities: [...placed].map(([rel, { card, written, key }]) => ({ file: content.displayPrefix + rel, card, page: { written, key } })),
    lists: [], bytes: 0,
  });
  if (rest.length >= PARALLEL_THRESHOLD) {
    const pool = await startPool();
    await pool.broadcast({ citySetup: setup });
    for (let i = 0; i < rest.length; i += BATCH_PAGES) {
      await pool.ask<CityBatchResult>({ cityFiles: rest.slice(i, i + BATCH_PAGES) }, take);
    }
    await pool.drain();
  } else if (rest.length) {
    // Loaded only here: a large site reads its cities in the workers, and this thread need not hold React.
    const { CityPages } = await import('./cityPages.js');
    take(new CityPages(setup, layout).run(rest));
  }
  await files.idle();
  await memo?.save();
  read.errors.push(...repeatedCityNames(
    read.cards.map((c, i) => ({ name: c.name, file: cardFiles[i]! })),
    (file) => locator(readFileSync(path.join(content.contentDir, relOf(file)), 'utf8'), 0).value(['name']),
  ));
  return read;
}

export interface SiteAssets {
  assets: Layout['assets'];
  images: ReadonlyMap<string, ImageRef>;
  /** Every URL path outside the pages that exists: assets and static files. */
  files: ReadonlySet<string>;
}

/** The steps after the content, writing into outDir: `build` runs each once, dev.ts as content or code changes. */
export class Pipeline {
  private readonly contentDir: string;
  /** The content manager's scripts (cms/), and the assets its previews use. */
  private admin: AdminAssets | undefined;
  /** The lead inbox's script and stylesheet (staff/). */
  private inbox: InboxAssets | undefined;
  private site: SiteAssets | undefined;

  constructor(private readonly opts: BuildOptions, readonly outDir: string, private readonly extraAssets: Pick<Partial<Layout['assets']>, 'devReload'> = {}) {
    this.contentDir = opts.contentDir ?? path.join(opts.root, 'content');
  }

  /**
   * Stylesheet, font, images, island bundle, page scripts, static files and (unless added later,
   * backOfficeAfter) the content manager's and the inbox's bundles, written to outDir. Every job
   * starts at once: none waits for another (the stylesheet needs the font's fallback, not the font).
   */
  async assets(): Promise<SiteAssets> {
    const { opts, contentDir, outDir, extraAssets } = this;
    const { root } = opts;
    await mkdir(path.join(outDir, 'assets', 'img'), { recursive: true });
    const backOffice = !opts.skipIslands && !opts.backOfficeAfter;
    const [images, font, css, islands, scripts, staticFiles, admin, inbox] = await settleAll([
      listImages(contentDir).then((names) => processImages(root, contentDir, imageDirs(root), names)),
      loadFont(root),
      compileCss(root, fallbackFontFace()),
      opts.skipIslands ? undefined : bundleIslandsCached({
        root, outDir: path.join(outDir, 'assets'),
        ...(opts.supabaseUrl && { supabaseUrl: opts.supabaseUrl }),
        ...(opts.supabaseAnonKey && { supabaseAnonKey: opts.supabaseAnonKey }),
        ...(opts.webhookUrl && { webhookUrl: opts.webhookUrl }),
      }),
      copyScripts(root, outDir),
      copyStatic(contentDir, outDir),
      backOffice ? adminAssets(root, outDir) : undefined,
      backOffice ? inboxAssets(this.inboxOptions(outDir)) : undefined,
    ] as const).finally(dropPrestartedAssetHelper);
    const cssUrl = `/assets/site-${contentHash(css)}.css`;
    await settleAll([
      writeFile(path.join(outDir, cssUrl), css),
      writeFile(path.join(outDir, font.face.src), font.bytes),
      ...images.files.map((f) => cp(f.sourcePath, path.join(outDir, f.url))),
    ]);
    const { fontLoader, ...scriptUrls } = scripts;
    const assets: Layout['assets'] = { css: cssUrl, font: { ...font.face, loader: fontLoader }, ...scriptUrls, ...(islands && { entry: islands.entry }), ...extraAssets };
    const files = new Set<string>([
      cssUrl, font.face.src, ...images.files.map((f) => f.url), ...Object.values(scriptUrls), ...(islands?.files.map((f) => f.path) ?? []), ...staticFiles,
      ...Object.values(extraAssets), ...(admin?.files ?? []), ...(inbox?.files ?? []),
    ]);
    this.admin = admin;
    this.inbox = inbox;
    this.site = { assets, images: images.refs, files };
    return this.site;
  }

  private inboxOptions(outDir: string) {
    const { root, supabaseUrl, supabaseAnonKey } = this.opts;
    return { root, outDir, supabaseUrl, supabaseAnonKey };
  }

  /**
   * The content manager's and the inbox's files, added to `intoDir` (the served dist/) after the
   * site's: built beside it, then moved in file by file, so a request never finds one half written.
   */
  async addBackOffice(model: SiteModel, intoDir: string): Promise<void> {
    const staging = `${intoDir}.back-office-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    // npm start stopped (Ctrl+C) meanwhile: the half-built folder goes with the process.
    const removeStaging = () => {
      try {
        // Copies under way in Node's thread pool may still add files: retried until they are done.
        rmSync(staging, { recursive: true, force: true, maxRetries: 20, retryDelay: 25 });
      } catch (err) {
        console.error(`Could not remove ${staging}:`, err);
      }
    };
    process.once('exit', removeStaging);
    try {
      // Made before both copy into it: two copies creating it at once can fail (EEXIST).
      await mkdir(path.join(staging, 'assets'), { recursive: true });
      const [admin, inbox] = await settleAll([adminAssets(this.opts.root, staging), inboxAssets(this.inboxOptions(staging))]);
      await this.writeBackOfficePages(staging, model, admin, inbox);
      await moveInto(staging, intoDir);
    } finally {
      process.off('exit', removeStaging);
      await rm(staging, { recursive: true, force: true });
    }
  }

  private writeBackOfficePages(outDir: string, model: SiteModel, admin: AdminAssets | undefined, inbox: InboxAssets | undefined) {
    const site = this.site;
    if (!site) throw new Error('the back office pages are written after the assets (the previews use the stylesheet)');
    return settleAll([
      admin && writeAdminPage({
        outDir, model, admin, plan: this.planOptions(model, site),
      }),
      inbox && writeInboxPage(outDir, inbox, model.site.brand.name),
    ]);
  }

  planOptions(model: SiteModel, site: SiteAssets, memo?: Memo): PlanOptions {
    return { origin: originOf(this.opts, model), images: site.images, assets: site.assets, year: buildYear(), ...(memo && { memo }) };
  }

  layout(model: SiteModel, site: SiteAssets): Layout {
    return planLayout(model, this.planOptions(model, site));
  }

  /** The pages one at a time, planned as they are taken. */
  pages(model: SiteModel, site: SiteAssets, memo?: Memo): Iterable<PagePlan> {
    return planEachPage(model, this.planOptions(model, site, memo));
  }

  async makeDirs(pages: readonly PagePlan[]): Promise<void> {
    for (const dir of new Set(pages.map((p) => path.dirname(p.file)))) await mkdir(path.join(this.outDir, dir), { recursive: true });
  }

  /**
   * Every internal link and asset reference in the rendered pages must resolve. `docs` is asked
   * for only when a link is broken, to name the file that wrote it.
   */
  async checkLinks(links: PageLinks, pages: readonly WrittenPage[], site: SiteAssets, docs: () => Promise<readonly ValidDoc[]>): Promise<void> {
    const routes = new Set(pages.map((p) => p.route));
    const exists = (url: string) => routes.has(url) || site.files.has(url);
    const errors = await brokenLinks(links.lists(), exists, async () => (await docs()).map((d) => ({ file: d.file, text: d.yaml, lineOffset: d.lineOffset })));
    if (errors.length) throw new ContentErrors(errors);
  }

  async writeHostFiles(model: SiteModel, pages: readonly WrittenPage[]): Promise<void> {
    const { opts, outDir } = this;
    const origin = originOf(opts, model);
    if (!this.site) throw new Error('writeHostFiles: the assets are built first (the policy allows the inline font loader)');
    const hostConfig = {
      origin,
      inlineScripts: [this.site.assets.font.loader],
      reviewsScriptUrl: model.site.reviews.scriptUrl,
      frameUrls: [model.site.booking.bookingUrl, model.site.booking.loginPortalUrl],
      connectUrls: [opts.supabaseUrl, opts.webhookUrl].filter((u): u is string => Boolean(u)),
      supabaseUrl: opts.supabaseUrl,
    };
    await settleAll([
      ...[...await sitemapFiles(pages, origin)].map(([name, xml]) => writeFile(path.join(outDir, name), xml)),
      writeFile(path.join(outDir, 'robots.txt'), robotsTxt(origin)),
      writeFile(path.join(outDir, '_headers'), headersFile(hostConfig)),
      writeFile(path.join(outDir, '_redirects'), redirectsFile(pages)),
      writeBuildInfo(opts.root, outDir),
      writeFile(path.join(outDir, OFFICE_HOURS_FILE), officeHoursJson(model.site)),
      this.writeBackOfficePages(outDir, model, this.admin, this.inbox),
    ]);
  }
}

/** Same input, same output: the copyright year comes from SOURCE_DATE_EPOCH when set. */
function buildYear(): number {
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  return (Number.isFinite(epoch) && epoch > 0 ? new Date(epoch * 1000) : new Date()).getUTCFullYear();
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

/** Move every file of `from` into `into` (a folder `into` lacks moves whole), replacing files of the same name. */
async function moveInto(from: string, into: string): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(into, entry.name);
    if (entry.isDirectory() && await stat(target).then((s) => s.isDirectory(), () => false)) await moveInto(source, target);
    else await rename(source, target);
  }
}

/** The folders a build works in beside outDir, each named by the process that made it. */
const WORK_FOLDER = /^(.*)\.(tmp|old|back-office)-(\d+)$/;

/**
 * Work folders beside outDir whose process is gone: a build or `npm start` stopped midway (Ctrl+C,
 * a crash) leaves its folder of pages behind. Another running build's folder is left alone.
 */
async function removeAbandoned(outDir: string): Promise<void> {
  const parent = path.dirname(outDir);
  for (const name of await readdir(parent).catch(() => [])) {
    const [, base, , pid] = WORK_FOLDER.exec(name) ?? [];
    // This process's own folder counts as running too.
    if (base !== path.basename(outDir) || processRuns(Number(pid))) continue;
    await rm(path.join(parent, name), { recursive: true, force: true });
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Replace outDir by the finished build in two renames; the old output is removed afterwards. */
async function swap(tmp: string, outDir: string): Promise<void> {
  const old = `${outDir}.old-${process.pid}`;
  const hadOld = await rename(outDir, old).then(() => true, (e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return false;
    throw e;
  });
  try {
    await rename(tmp, outDir);
  } catch (err) {
    if (hadOld) await rename(old, outDir); // put the previous site back
    throw err;
  }
  if (hadOld) await rm(old, { recursive: true, force: true });
}
