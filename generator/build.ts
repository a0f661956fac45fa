/**
 * The orchestrator: content → validate → model → plan → render → write, one named step each.
 * `build` runs every step once into a work folder that replaces dist/ only when all succeeded;
 * `checkContent` runs the steps up to the model and writes nothing (`npm run check`, the content gate);
 * `Rebuild` runs the same steps again for the files a save changed (`npm run dev`, serve/dev.ts).
 * No collection is named here: each comes through generator/collections/.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { Site, SiteModel } from '../contracts/content.js';
import type { ContentError } from '../contracts/errors.js';
import type { FeedInput } from '../contracts/feeds.js';
import { parseZoned, zonedIso } from '../contracts/zonedTime.js';
import type { ValidDoc } from '../contracts/documents.js';
import { ENGLISH_ONLY_KINDS, kindOf, slugOf } from '../contracts/kinds.js';
import { DEFAULT_LANGUAGE, LANGUAGE_INFO, TRANSLATIONS } from '../contracts/languages.js';
import { writtenPage, type Layout, type PagePlan, type WrittenPage } from '../contracts/pages.js';
import { fileForRoute } from '../contracts/routes.js';
import { ContentErrors, sortErrors } from '../contracts/validate/errors.js';
import { dropPrestartedAssetHelper } from './assets/helper/start.mjs';
import { listImages } from './assets/images.js';
import { siteAssets, type SiteAssets } from './assets/siteAssets.js';
import { BackOffice } from './backOffice/backOffice.js';
import { BuildCache } from './cache/buildCache.js';
import { collectionOf, COLLECTIONS } from './collections/index.js';
import { listContentFiles } from './content/load.js';
import { ContentSet, contentDirOf, type CheckedContent, type ContentOptions, type Translation } from './model/contentSet.js';
import type { EnglishContent } from './model/assemble.js';
import { englishOnlyError } from './model/rules.js';
import { PlanMemo, sameInputs, type Memo } from './plan/memo.js';
import { planEachPage, planLayout, type EntryPages, type FeedSink, type PlanOptions } from './plan/plan.js';
import type { Publication } from './plan/context.js';
import { PageLinks } from './render/pageLinks.js';
import { BATCH_PAGES, PARALLEL_THRESHOLD, RenderPool, startWorker } from './render/pool.js';
import { cardsHeld, entryFromFile, readCollections, readListedCards, type CollectionsRead, type CollectionsStarted, type ListedCards } from './render/readCollections.js';
import { twinsOfContent, twinsOfModels, type Twins } from './plan/twins.js';
import { ListingPages } from './render/listingPages.js';
import { renderSite } from './render/renderSite.js';
import { settleAll, stageTimer } from './runtime/settle.js';
import { brokenLinks } from './write/links.js';
import { replaceOutput } from './write/output.js';
import { writeSiteFiles } from './write/siteFiles.js';
import { FEED_HEADERS, FEED_PATHS, writeFeeds } from './write/feeds.js';

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
   * The build's "now": what is dated later is not published. Milliseconds, or a date as content
   * writes it (2026-12-01T09:00, the business's time zone unless it has an offset); BUILD_NOW in
   * the CLI. Default: the time the build starts (the deploy's time). Written to /build.json.
   */
  now?: number | string;
  /** Show drafts and entries dated later, marked (npm run dev). */
  drafts?: boolean;
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
  /** Milliseconds per stage: content, assets, collections, render, write. */
  stages: Record<string, number>;
  outDir: string;
  htmlBytes: number;
  /** Settles when /admin and /leads are in outDir: at once, unless built with backOfficeAfter. */
  backOffice: Promise<void>;
  /** Problems that do not stop a build (a description used twice), to be printed. */
  warnings: ContentError[];
}

/** content → validate → model for every file; every problem found in one pass is thrown as ContentErrors. */
export async function checkContent(opts: ContentOptions): Promise<CheckedContent & { translated: SiteModel[] }> {
  const store = new BuildCache(opts.root);
  const { content } = await readContent(opts, store, () => true);
  const result = content.assemble();
  const errors = [...(result.errors ?? [])];
  const docs = content.docs();
  const translated: SiteModel[] = [];
  for (const translation of translationsOf(content.contentDir, content.displayPrefix)) {
    const { content: own } = await readContent(opts, store, () => true, translation);
    const checked = own.assemble({ model: result.model, docs: content.docs() });
    errors.push(...(checked.model ? checked.warnings : checked.errors));
    if (checked.model) translated.push(checked.model);
    docs.push(...own.docs());
  }
  if (!result.model || errors.some((e) => !e.warning)) throw new ContentErrors(sortErrors(errors));
  await store.save();
  return { ...result, docs, warnings: errors, translated };
}

/** The translations the content has: each language whose folder (content/es/) is there. */
function translationsOf(contentDir: string, displayPrefix: string): Translation[] {
  return TRANSLATIONS.filter((lang) => existsSync(path.join(contentDir, LANGUAGE_INFO[lang].folder)))
    .map((lang) => ({ lang, englishDir: contentDir, englishPrefix: displayPrefix }));
}

export async function build(opts: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const lap = stageTimer();
  const outDir = opts.outDir ?? path.join(opts.root, 'dist');
  return replaceOutput(outDir, async (tmp) => {
    const steps = new Steps(opts, tmp);
    // The assets do not depend on the content: started first, their helper process works on the
    // other core while this thread reads the content ('assets' is what is left to wait for after,
    // with the cards' passes).
    const assets = steps.assets();
    const store = new BuildCache(opts.root);
    const read = readLanguages(opts, store).finally(() => lap('content'));
    read.then((c) => { if (c[0]!.collectionFiles.length < PARALLEL_THRESHOLD) import('./render/collectionPages.js').catch(() => undefined); }, () => undefined);
    let pool: RenderPool | undefined;
    /** What the workers are started with: room for the cards one of them holds, and the layout once the assets are built. */
    let cards = 0;
    let workersLayout: Layout | undefined;
    const startPool = async () => (pool ??= await RenderPool.start(workersLayout, opts.threads, cards));
    // The order the languages' collections are read in: English last, so that once its cards are
    // known this thread plans the site's pages while the workers still render the pages of the
    // entries whose pages list others, and the two share the workers.
    const lastEnglish = (languages: readonly SiteContent[]) => [...languages.keys()].reverse();
    // The cards' passes need the content alone: they run in the workers while the assets are built.
    const cardsRead = read.then(async (languages) => {
      // One language's collections at a time: a worker holds the cards of one.
      cards = Math.max(...languages.map((l) => cardsHeld(l.collectionFiles)));
      const listed: (ListedCards | undefined)[] = [];
      for (const i of lastEnglish(languages)) {
        const { model, collectionFiles, contentDir, displayPrefix, translation } = languages[i]!;
        if (!model) continue;
        listed[i] = await readListedCards({
          root: opts.root, contentDir, displayPrefix, files: collectionFiles, store, startPool, model,
          publication: steps.publication(model), ...(translation && { translation }),
        });
      }
      return listed;
    });
    try {
      const [site, languages, listed] = await settleAll([assets, read, cardsRead]);
      lap('assets');
      const twins = twinsOfContent(languages);
      if (twins) steps.twins = twins;
      steps.englishSite = languages[0]!.model?.site;
      const models = languages.every((l) => l.model) ? languages.map((l) => l.model!) : undefined;
      const layout = models && steps.layout(models, site);
      const cache = layout && await store.pages(layout);
      if (layout) {
        workersLayout = layout;
        await pool?.setLayout(layout);
      }
      // Each language's collections through the same workers, one after the other, English last.
      const reading: CollectionsStarted[] = [];
      const collections: CollectionsRead[] = [];
      for (const i of lastEnglish(languages)) {
        const content = languages[i]!;
        reading[i] = await readCollections({
          root: opts.root, contentDir: content.contentDir, displayPrefix: content.displayPrefix, files: content.collectionFiles, outDir: tmp,
          ...(models && content.model && { model: content.model, plan: steps.planOptions(content.model, site), listed: listed[i]! }),
          ...(layout && { layout }), ...(cache && { cache }), store,
          startPool,
          ...(content.translation && { translation: content.translation }),
        });
        if (i > 0) collections[i] = await reading[i]!.done;
      }
      lap('collections');
      const known = [...languages.flatMap((l) => l.errors), ...collections.slice(1).flatMap((c) => c.errors)];
      const whole = reading.every((c) => c.model) && layout && cache && !known.some((e) => !e.warning);
      const [model, ...translated] = reading.map((c) => c.model!) as [SiteModel, ...SiteModel[]];
      const feeds: FeedInput[] = [];
      const { memoVersion } = reading[0]!;
      const lists = whole ? new ListingPages(model, steps.planOptions(model, site), {
        // The model holds cards: a listing's full entries (the feed's) are read again from their files.
        full: (c) => entryFromFile(c, languages[0]!.contentDir, model.site.hours.timeZone),
        ...(memoVersion && { memo: { listings: await store.listings(undefined, memoVersion), cache } }),
      }) : undefined;
      /** How many pages each language planned here: the sitemap lists a language's pages, then its collections'. */
      const planned = reading.map(() => 0);
      const plans = function* () {
        for (const [i, m] of [model, ...translated].entries()) {
          const own = steps.pages(m, site);
          for (const page of i === 0 && lists ? chain(own, lists.pages((f) => feeds.push(f))) : own) {
            planned[i]!++;
            yield page;
          }
        }
      };
      const rendering = whole ? renderSite(plans(), layout, tmp, { cache, ...(pool && { pool }), ...(opts.threads && { threads: opts.threads }), onKeyed: lists!.keyed }) : undefined;
      const [english, ownPages] = await Promise.allSettled([reading[0]!.done, rendering]);
      if (english.status === 'rejected') throw english.reason;
      collections[0] = english.value;
      // The content's problems first: pages planned from content that has them may fail for that reason.
      const errors = [...known, ...english.value.errors];
      if (errors.some((e) => !e.warning) || !english.value.model || !whole) throw new ContentErrors(sortErrors(errors));
      if (ownPages.status === 'rejected') throw ownPages.reason;
      const rendered = ownPages.value!;
      lists!.learn();
      const inOrder = (pages: readonly WrittenPage[]) => {
        let from = 0;
        return collections.flatMap((c, i) => [...pages.slice(from, (from += planned[i]!)), ...c.pages]);
      };
      const pages = inOrder(rendered.pages);
      await settleAll([steps.writeSiteFiles([model, ...translated], pages), writeFeeds(tmp, feeds)]);
      // Every page is written: the workers' memory is given back before the link check and the caches' save.
      await pool?.close();
      pool = undefined;
      lap('render');
      for (const c of collections) rendered.links.merge(c.links);
      await steps.checkLinks(rendered.links, pages, site, async () => (await checkContent(opts)).docs);
      await store.save();
      lap('write');
      return { models: [model, ...translated] as const, steps, pages: pages.length, htmlBytes: rendered.bytes + collections.reduce((n, c) => n + c.bytes, 0), warnings: errors };
    } finally {
      await pool?.close();
    }
  }).then(({ models, steps, ...built }) => {
    const backOffice = opts.backOfficeAfter ? steps.addBackOffice(models, outDir) : Promise.resolve();
    return { ...built, ms: performance.now() - started, stages: lap.stages, outDir, backOffice };
  });
}

/** The content files that `include` keeps (of a translation's folder, if given), read with the cache of parsed documents. */
async function readContent(opts: ContentOptions, store: BuildCache, include: (rel: string) => boolean, translation?: Translation) {
  const content = new ContentSet(opts, await store.documents(), translation);
  const files = await listContentFiles(content.contentDir);
  await content.read(files.filter(include));
  return { files, content };
}

/** One language's content as a build reads it first: everything but its collections' files, assembled. */
interface SiteContent {
  model?: SiteModel;
  /** The valid documents read (a translation's twins). */
  docs: ValidDoc[];
  errors: ContentError[];
  collectionFiles: string[];
  contentDir: string;
  displayPrefix: string;
  translation?: Translation;
}

/**
 * What a build checks first: every content file but the collections', loaded, validated and
 * assembled (the collections' files are read where their pages are made: render/readCollections.ts),
 * for English, then for each translation against it.
 */
async function readSiteContent(opts: ContentOptions, store: BuildCache, translation?: Translation, english?: EnglishContent): Promise<SiteContent> {
  const inCollection = (rel: string) => collectionOf(kindOf(rel)) !== undefined;
  const { files, content } = await readContent(opts, store, (rel) => !inCollection(rel), translation);
  const result = content.assemble(english);
  const errors = result.model ? result.warnings : result.errors;
  const docs = content.docs();
  const collectionFiles = files.filter(inCollection);
  if (translation) {
    // A translated page of an English-only kind would be a page of no language's site: say so rather than leave it unread.
    for (const rel of collectionFiles) {
      if (ENGLISH_ONLY_KINDS.has(kindOf(rel)!)) errors.push(englishOnlyError(content.displayPrefix + rel));
    }
  }
  return {
    ...(result.model && { model: result.model }), docs, errors,
    collectionFiles: translation ? collectionFiles.filter((rel) => !ENGLISH_ONLY_KINDS.has(kindOf(rel)!)) : collectionFiles,
    contentDir: content.contentDir, displayPrefix: content.displayPrefix, ...(translation && { translation }),
  };
}

/** The English content, then each translation's. */
async function readLanguages(opts: ContentOptions, store: BuildCache): Promise<SiteContent[]> {
  const english = await readSiteContent(opts, store);
  const translations: SiteContent[] = [];
  for (const t of translationsOf(english.contentDir, english.displayPrefix)) translations.push(await readSiteContent(opts, store, t, english));
  return [english, ...translations];
}

/** The steps after the content, writing into outDir: `build` runs each once, `Rebuild` as content or code changes. */
class Steps {
  private readonly backOffice: BackOffice;
  private site: SiteAssets | undefined;

  private readonly started = Date.now();

  constructor(private readonly opts: BuildOptions, readonly outDir: string) {
    this.backOffice = new BackOffice(opts);
  }

  /** The site's assets and (unless added later, backOfficeAfter) the back office's bundles, written to outDir. */
  async assets(): Promise<SiteAssets> {
    const { opts, outDir } = this;
    const { root, supabaseUrl, supabaseAnonKey, webhookUrl } = opts;
    const withBackOffice = !opts.skipIslands && !opts.backOfficeAfter;
    const [site, backOfficeFiles] = await settleAll([
      siteAssets(outDir, {
        root, contentDir: contentDirOf(opts),
        ...(!opts.skipIslands && { islands: { ...(supabaseUrl && { supabaseUrl }), ...(supabaseAnonKey && { supabaseAnonKey }), ...(webhookUrl && { webhookUrl }) } }),
      }),
      withBackOffice ? this.backOffice.assets(outDir) : [],
    ] as const).finally(dropPrestartedAssetHelper);
    this.site = { ...site, files: new Set([...site.files, ...backOfficeFiles]) };
    return this.site;
  }

  /** Which pages are versions of one another, once the content is read (absent: a site in one language). */
  twins: Twins | undefined = undefined;
  /** The English site settings, whose business node a translation's pages carry too. */
  englishSite: Site | undefined = undefined;

  planOptions(model: SiteModel, site: SiteAssets, memo?: Memo): PlanOptions {
    // The English site's address: a translation's siteUrl is a fact of its twin, the same.
    const origin = (this.opts.siteUrl ?? model.site.siteUrl).replace(/\/+$/, '');
    return {
      origin, images: site.images, assets: site.assets, year: buildYear(), ...(memo && { memo }), ...(this.twins && { twins: this.twins }),
      ...(model.lang !== DEFAULT_LANGUAGE && this.englishSite && { businessSite: this.englishSite }),
      publication: this.publication(model),
    };
  }

  /** What is published: what is dated up to the build's "now", or (npm run dev) everything, marked. */
  publication(model: SiteModel): Publication {
    return { now: this.now(model.site.hours.timeZone), drafts: this.opts.drafts === true };
  }

  /** The build's "now" (one for the whole build): BuildOptions.now, else the time it started. */
  now(timeZone: string): number {
    const { now } = this.opts;
    if (typeof now === 'string') {
      const parsed = parseZoned(now, timeZone);
      if (!parsed) throw new Error(`the build's "now" (BUILD_NOW) "${now}" is not a date: write it as 2026-12-01T09:00 (the business's time zone) or with an offset`);
      return parsed.time;
    }
    return now ?? this.started;
  }

  /** The English layout, with each translation's (the models in LANGUAGES order, English first). */
  layout([english, ...translated]: readonly SiteModel[], site: SiteAssets): Layout {
    const other = (m: SiteModel) => (m === english ? translated[0] : english);
    const layout = planLayout(english!, this.planOptions(english!, site), other(english!));
    if (!translated.length) return layout;
    return { ...layout, translations: Object.fromEntries(translated.map((m) => [m.lang, planLayout(m, this.planOptions(m, site), other(m))])) };
  }

  /**
   * The pages one at a time, planned as they are taken; `collections`: those whose pages are
   * planned here too (npm run dev, whose model holds every entry; a build plans them in the workers).
   */
  pages(model: SiteModel, site: SiteAssets, memo?: Memo, collections: readonly EntryPages[] = [], feeds?: FeedSink): Iterable<PagePlan> {
    return planEachPage(model, this.planOptions(model, site, memo), collections, feeds);
  }

  /**
   * Every internal link and asset reference in the rendered pages must resolve. `docs` is asked
   * for only when a link is broken, to name the file that wrote it.
   */
  async checkLinks(links: PageLinks, pages: readonly WrittenPage[], site: SiteAssets, docs: () => Promise<readonly ValidDoc[]>): Promise<void> {
    const routes = new Set([...pages.map((p) => p.route), ...FEED_PATHS]);
    const exists = (url: string) => routes.has(url) || site.files.has(url);
    // A Markdown file's links are in its body: the text searched runs on past the front matter, lines counted as in the file.
    const text = (d: ValidDoc) => (d.body === undefined ? d.yaml : `${d.yaml}\n---\n${d.body}`);
    const errors = await brokenLinks(links.lists(), exists, async () => (await docs()).map((d) => ({ file: d.file, text: text(d), lineOffset: d.lineOffset })));
    if (errors.length) throw new ContentErrors(errors);
  }

  /** Sitemap, robots.txt, _headers, _redirects, /build.json, /office-hours.json and the back office's pages. */
  async writeSiteFiles([model, ...translated]: readonly [SiteModel, ...SiteModel[]], pages: readonly WrittenPage[]): Promise<void> {
    const { opts, outDir, site } = this;
    if (!site) throw new Error('writeSiteFiles: the assets are built first (the policy allows the inline font loader)');
    const plan = this.planOptions(model, site);
    await settleAll([
      writeSiteFiles(outDir, {
        root: opts.root, site: model.site, pages, now: zonedIso(plan.publication.now, model.site.hours.timeZone),
        host: {
          origin: plan.origin,
          inlineScripts: [site.assets.font.loader],
          reviewsScriptUrl: model.site.reviews.scriptUrl,
          frameUrls: [model.site.booking.bookingUrl, model.site.booking.loginPortalUrl],
          connectUrls: [opts.supabaseUrl, opts.webhookUrl].filter((u): u is string => Boolean(u)),
          pathHeaders: [...this.backOffice.headers(), ...FEED_HEADERS],
        },
      }),
      this.backOffice.writePages(outDir, model, translated, plan),
    ]);
  }

  /** npm start: the back office added to the served folder `intoDir` after its pages (backOfficeAfter). */
  async addBackOffice([model, ...translated]: readonly [SiteModel, ...SiteModel[]], intoDir: string): Promise<void> {
    if (!this.site) throw new Error('addBackOffice: its previews use the site\'s assets, built first');
    await this.backOffice.addInto(intoDir, model, translated, this.planOptions(model, this.site));
  }
}

/**
 * The orchestrator given the files that changed (npm run dev): the same steps as build(), into
 * outDir in place. It keeps the documents, the plans and one render worker between updates, and
 * redoes only the pages whose plan changed; a page that is gone is removed, so outDir stays what a
 * build of the same files writes.
 */
export class Rebuild {
  readonly contentDir: string;
  private readonly content: ContentSet;
  /** Each translation's files (content/es/), checked against the English ones. */
  private readonly translations: ContentSet[];
  private readonly steps: Steps;
  private site: SiteAssets | undefined;
  /** Each page's plan as last rendered and its digest (an unchanged entry's plan is the same object). */
  private readonly rendered = new Map<string, { plan: PagePlan; digest: string }>();
  /** Each language's memo of plans (a memo keeps the routes of one planning). */
  private readonly memos = new Map<string, PlanMemo>();
  private layoutKey = '';
  private siteFilesKey: readonly unknown[] = [];
  private worker: Worker | undefined;

  constructor(private readonly opts: BuildOptions & { outDir: string }) {
    this.content = new ContentSet(opts);
    this.contentDir = this.content.contentDir;
    this.translations = translationsOf(this.contentDir, this.content.displayPrefix).map((t) => new ContentSet(opts, undefined, t));
    // npm run dev shows drafts and entries dated later, marked.
    this.steps = new Steps({ drafts: true, ...opts }, opts.outDir);
  }

  /** Every page, from an empty folder, as a build starts: what an earlier run left is no page of this one. */
  async start(): Promise<Updated> {
    await rm(this.opts.outDir, { recursive: true, force: true });
    await this.content.readAll();
    for (const t of this.translations) await t.readAll();
    this.site = await this.steps.assets();
    return this.update(true);
  }

  /** Content files changed (paths in the content folder): those are read again. */
  async contentChanged(rels: readonly string[]): Promise<Updated> {
    await this.content.reread(rels);
    for (const t of this.translations) {
      const folder = `${LANGUAGE_INFO[t.translation!.lang].folder}/`;
      await t.reread(rels.filter((r) => r.startsWith(folder)).map((r) => r.slice(folder.length)));
    }
    // A new picture's own event can come after the save of the file that names it (the content
    // manager writes both at once), and that file's page cannot be planned without it.
    const pictures = await listImages(this.contentDir);
    const current = pictures.length === this.site!.images.size && pictures.every((name) => this.site!.images.has(name));
    if (!current || rels.some((r) => r.startsWith('images/') || r.startsWith('static/'))) this.site = await this.steps.assets();
    return this.update(false);
  }

  /** Templates or browser code changed: the assets and every page, with a worker that loads the new code. */
  async codeChanged(): Promise<Updated> {
    await this.worker?.terminate();
    this.worker = undefined;
    this.site = await this.steps.assets();
    return this.update(true);
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
  }

  /** The model, then the pages whose plan changed; content problems are answered, not thrown (the pages keep their last good version). */
  private async update(all: boolean): Promise<Updated> {
    const content = this.content.assemble();
    const translated = this.translations.map((t) => t.assemble({ model: content.model, docs: this.content.docs() }));
    const errors = [content, ...translated].flatMap((c) => (c.model ? [] : c.errors));
    if (errors.length) return { pages: 0, errors: sortErrors(errors) };
    try {
      return { pages: await this.render([content.model!, ...translated.map((t) => t.model!)], all), errors: [] };
    } catch (err) {
      if (!(err instanceof ContentErrors)) throw err;
      return { pages: 0, errors: sortErrors(err.errors) };
    }
  }

  private async render(models: readonly [SiteModel, ...SiteModel[]], all: boolean): Promise<number> {
    const { outDir } = this.opts;
    const site = this.site!;
    const [model, ...translated] = models;
    this.steps.twins = twinsOfModels(models);
    this.steps.englishSite = model.site;
    const layout = this.steps.layout(models, site);
    const feeds: FeedInput[] = [];
    const memo = (lang: string) => this.memos.get(lang) ?? this.memos.set(lang, new PlanMemo()).get(lang)!;
    const pages = [
      ...this.steps.pages(model, site, memo(model.lang), COLLECTIONS, (f) => feeds.push(f)),
      ...translated.flatMap((m) => [...this.steps.pages(m, site, memo(m.lang), COLLECTIONS.filter((c) => !ENGLISH_ONLY_KINDS.has(c.kind)))]),
    ];
    const layoutKey = JSON.stringify(layout);
    const renderAll = all || layoutKey !== this.layoutKey;
    const changed: { plan: PagePlan; digest: string }[] = [];
    for (const plan of pages) {
      const before = this.rendered.get(plan.route);
      if (!renderAll && before?.plan === plan) continue;
      const digest = createHash('sha1').update(JSON.stringify(plan)).digest('base64');
      if (renderAll || before?.digest !== digest) changed.push({ plan, digest });
    }
    const routes = new Set(pages.map((p) => p.route));
    for (const route of this.rendered.keys()) {
      if (routes.has(route)) continue;
      this.rendered.delete(route);
      await rm(path.join(outDir, fileForRoute(route)), { force: true });
    }
    if (!this.worker) {
      this.worker = startWorker();
      this.layoutKey = '';
    }
    // One worker, its heap capped like a build's: the pages in batches, as a build hands them out.
    const pool = RenderPool.over([this.worker]);
    if (layoutKey !== this.layoutKey) await pool.setLayout(layout);
    for (const dir of new Set(changed.map((c) => path.dirname(c.plan.file)))) await mkdir(path.join(outDir, dir), { recursive: true });
    const links = new PageLinks();
    for (let i = 0; i < changed.length; i += BATCH_PAGES) {
      const batch = changed.slice(i, i + BATCH_PAGES).map((c) => c.plan);
      await pool.submit(batch, outDir, (result) => batch.forEach((plan, j) => links.add(plan.route, result.lists[result.pages[j]!]!)));
    }
    await pool.drain();
    const written = pages.map(writtenPage);
    await this.steps.checkLinks(links, written, site, async () => [this.content, ...this.translations].flatMap((c) => c.docs()));
    this.layoutKey = layoutKey;
    for (const c of changed) this.rendered.set(c.plan.route, c);
    // The site files and the content manager's page change only when pages come or go, or what
    // the previews draw from changes (the settings, the stylesheet, the shared page texts, the forms,
    // the services): compared by identity (the model keeps an unchanged file's objects).
    const siteFilesKey = [[...routes].join('\n'), layoutKey, ...models.flatMap((m) => [m.site, m.locations, m.forms, ...m.services])];
    if (!sameInputs(siteFilesKey, this.siteFilesKey)) {
      await this.steps.writeSiteFiles(models, written);
      this.siteFilesKey = siteFilesKey;
    }
    await writeFeeds(outDir, feeds);
    return changed.length;
  }
}

function* chain<T>(...lists: Iterable<T>[]): Generator<T> {
  for (const list of lists) yield* list;
}

/** What an update did: the pages it wrote, or the problems that kept it from writing. */
export interface Updated { pages: number; errors: ContentError[] }

/** Same input, same output: the copyright year comes from SOURCE_DATE_EPOCH when set. */
function buildYear(): number {
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  return (Number.isFinite(epoch) && epoch > 0 ? new Date(epoch * 1000).getUTCFullYear() : new Date().getUTCFullYear());
}
