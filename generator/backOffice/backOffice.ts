/**
 * The build's one door to the back office: the content manager (cms/) and the lead inbox (staff/)
 * are written into dist/ from here, and no other module of the generator imports them. Each app
 * says how it is bundled (cms/adminPage.ts, staff/inboxPage.ts); one job bundles both
 * (assets/appBundle.ts, in the asset helper), cached like the islands in .cache/<app>/<digest>/:
 * an unchanged build does not even start Vite. What is written:
 * - /admin (admin.html), /admin/config.json (the configuration derived from the model, with this
 *   deployment's repository and origin), /admin/preview-<hash>.json (page bodies planned for the
 *   live previews, in every language), the admin script and Decap CMS's prebuilt script under /assets/;
 * - /leads (leads.html) and the inbox's script and stylesheet under /assets/;
 * - their headers, for _headers (write/hostFiles.ts).
 * None of them is a page of the site: not in the sitemap, not linked, `noindex`.
 */
import { readFileSync, rmSync } from 'node:fs';
import { cp, mkdir, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ArticleEntry, CityEntry, SiteModel } from '../../contracts/content.js';
import { ENGLISH_ONLY_KINDS } from '../../contracts/kinds.js';
import { LANGUAGE_INFO, type Lang } from '../../contracts/languages.js';
import type { PageBody } from '../../contracts/pages.js';
import { articleRoute, ROUTE_TABLES } from '../../contracts/routes.js';
import { zonedIso } from '../../contracts/zonedTime.js';
import { ADMIN_HEADERS } from '../../cms/adminHeaders.js';
import { ADMIN_APP, ADMIN_PAGE, adminHtml, checkDecapReact, cmsRepository, decapFiles } from '../../cms/adminPage.js';
import type { PagesPreview, PreviewContext } from '../../cms/app/preview.js';
import { CITY_MARK, type AdminSettings } from '../../cms/app/settings.js';
import { deployedCmsConfig } from '../../cms/config.js';
import { inboxHeaders } from '../../staff/inboxHeaders.js';
import { INBOX_PAGE, inboxApp, inboxHtml, type InboxAssets } from '../../staff/inboxPage.js';
import type { AppBundleOptions } from '../assets/appBundle.js';
import { contentHash } from '../assets/hash.js';
import { runInAssetHelper } from '../assets/helper/client.js';
import type { BrowserBundle } from '../assets/viteBundle.js';
import { CacheKey, cachedOutput } from '../cache/store.js';
import { articles } from '../collections/articles.js';
import { COLLECTIONS } from '../collections/index.js';
import { PlanContext } from '../plan/context.js';
import { planPages, type PlanOptions } from '../plan/plan.js';
import { settleAll } from '../runtime/settle.js';
import type { PathHeaders } from '../write/hostFiles.js';
import { moveInto } from '../write/output.js';

export type { InboxAssets };
/** The content manager's configuration as content/schemas/cms-config.json keeps it (npm run schemas). */
export { cmsConfigText } from '../../cms/config.js';

export interface AdminAssets {
  /** The admin script. */
  entry: string;
  /** Decap CMS's prebuilt script. */
  decap: string;
  /** Every URL path written under /assets/. */
  files: string[];
}

/** How an app is bundled, and the folders of everything its script imports (the cache key). */
type BackOfficeApp = Omit<AppBundleOptions, 'root' | 'outDir'> & { sources: readonly string[] };

/** The app's files from the cache, bundled first (`check` before) when its inputs changed. */
function bundleAppCached(root: string, outDir: string, { sources, ...app }: BackOfficeApp, check?: () => void): Promise<BrowserBundle> {
  const digest = new CacheKey()
    .files(root, sources)
    .lockfile(root)
    .add(readFileSync(path.join(root, 'generator/assets/appBundle.ts')), readFileSync(path.join(root, 'generator/assets/viteBundle.ts')))
    .add(JSON.stringify(app))
    .digest(24);
  return cachedOutput(path.join(root, '.cache', app.name, digest), outDir, async (filesDir) => {
    check?.();
    // Vite runs in a process of its own, which gives its memory back.
    return runInAssetHelper({ job: 'bundleApp', args: [{ ...app, root, outDir: filesDir }], what: `${app.name} bundle`, cwd: root });
  });
}

/** The admin script (cached) and Decap's prebuilt files, into outDir/assets/. */
export async function adminAssets(root: string, outDir: string): Promise<AdminAssets> {
  const decap = await decapFiles(root);
  const [bundle] = await Promise.all([
    bundleAppCached(root, path.join(outDir, 'assets'), ADMIN_APP, () => checkDecapReact(root)),
    cp(decap.dir, path.join(outDir, decap.url), { recursive: true, filter: (src) => src === decap.dir || decap.names.includes(path.basename(src)) }),
  ]);
  return {
    entry: bundle.entry,
    decap: `${decap.url}decap-cms-app.js`,
    files: [...bundle.files.map((f) => f.path), ...decap.names.map((f) => decap.url + f)],
  };
}

/** The inbox's script and stylesheet (cached), into outDir/assets/. */
export async function inboxAssets(opts: { root: string; outDir: string; supabaseUrl?: string | undefined; supabaseAnonKey?: string | undefined }): Promise<InboxAssets> {
  const bundle = await bundleAppCached(opts.root, path.join(opts.outDir, 'assets'), inboxApp(opts));
  const files = bundle.files.map((f) => f.path);
  return { script: bundle.entry, stylesheets: files.filter((f) => f.endsWith('.css')), files };
}

/** What a city without a name yet is called in each language's preview. */
const UNNAMED_CITY: Record<Lang, string> = { en: 'Your city', es: 'Su ciudad' };

/**
 * One language's page bodies for the previews, planned by the real planners from that language's
 * model (its texts, its addresses: ROUTE_TABLES): one city page for a city named CITY_MARK (its
 * shared texts then read "{city}" where the name goes) and every service page. The other cities are
 * planned without their pages, so a large site adds no per-page work here.
 */
function pagesPreview(model: SiteModel, plan: PlanOptions): PagesPreview {
  const routes = ROUTE_TABLES[model.lang];
  const mark: CityEntry = {
    name: CITY_MARK, population: '', description: '', slug: CITY_MARK, route: routes.city(CITY_MARK), exploreHref: routes.city(CITY_MARK),
    page: { seoDescription: '', tagline: '', intro: [], benefits: [], faqs: [] },
  };
  const cities = [mark, ...model.cities.map(({ page: _page, ...city }) => city)];
  // No article: their previews are drawn from the entry being edited (cms/app/preview.tsx); a translation has none.
  const collections = COLLECTIONS.filter((c) => model.lang === 'en' || !ENGLISH_ONLY_KINDS.has(c.kind));
  const pages = planPages({ ...model, cities, articles: [] }, plan, collections);
  const city = pages.find((p) => p.body.kind === 'city');
  if (!city) throw new Error('preview: the city page was not planned');
  const services: PagesPreview['services'] = {};
  // By file name: a translated service's file is its English twin's, its route its own.
  for (const page of pages) {
    if (page.body.kind === 'service') services[model.services.find((s) => s.route === page.route)!.slug] = { route: page.route, body: page.body };
  }
  return {
    htmlLang: LANGUAGE_INFO[model.lang].htmlLang,
    name: model.site.language?.name ?? model.lang,
    closeLabel: model.site.navigation.closeLabel,
    bookOnline: routes.fixed.bookOnline,
    city: { route: city.route, body: city.body as Extract<PageBody, { kind: 'city' }> },
    services,
    unnamedCity: UNNAMED_CITY[model.lang],
  };
}

/** The previews' data: the site's stylesheet and pictures, the article preview, and each language's pages. */
export function previewContext(model: SiteModel, translated: readonly SiteModel[], plan: PlanOptions): PreviewContext {
  return {
    css: plan.assets.css,
    fontCss: plan.assets.font.faceCss,
    images: Object.fromEntries(plan.images),
    article: articlePreview(model, plan),
    pages: Object.fromEntries([model, ...translated].map((m) => [m.lang, pagesPreview(m, plan)])),
  };
}

/**
 * An article page planned by the real planner for a stand-in article: the preview keeps what the
 * entry does not say (the call to action, the breadcrumbs' texts) and draws the rest from what is
 * typed, with the same Markdown renderer and texts. Its date is the epoch, published at any "now":
 * the preview data stays the same from build to build (the typed date replaces it).
 */
function articlePreview(model: SiteModel, plan: PlanOptions): PreviewContext['article'] {
  const { timeZone } = model.site.hours;
  const standIn: ArticleEntry = {
    slug: 'preview', route: articleRoute('preview'), lang: 'en', title: '', description: '', tags: [], author: '', draft: false,
    date: zonedIso(0, timeZone), time: 0, minutes: 1, body: '', bodyLine: 1,
  };
  const page = articles.planner(new PlanContext({ ...model, articles: [] }, plan))(standIn);
  if (!page || page.body.kind !== 'article') throw new Error('preview: the article page was not planned');
  const { articlesIndex } = model;
  return { route: page.route, body: page.body, texts: articlesIndex.article, externalRel: articlesIndex.externalLinkRel, origin: plan.origin, timeZone };
}

/** admin.html, its configuration and its preview data (`translated`: each translation's model). */
export async function writeAdminPage(opts: { outDir: string; model: SiteModel; translated?: readonly SiteModel[]; plan: PlanOptions; admin: AdminAssets }): Promise<void> {
  const { outDir, model, plan, admin } = opts;
  const preview = JSON.stringify(previewContext(model, opts.translated ?? [], plan));
  const previewUrl = `/admin/preview-${contentHash(preview)}.json`;
  const settings: AdminSettings = { decap: admin.decap, config: '/admin/config.json', preview: previewUrl, timeZone: model.site.hours.timeZone };
  const config = deployedCmsConfig({ origin: plan.origin, repo: cmsRepository() });
  const adminDir = path.join(outDir, 'admin');
  await mkdir(adminDir, { recursive: true });
  await Promise.all([
    writeFile(path.join(outDir, ADMIN_PAGE), adminHtml(settings, admin.entry, model.site.brand.name)),
    writeFile(path.join(adminDir, 'config.json'), JSON.stringify(config, null, 2)),
    writeFile(path.join(outDir, previewUrl), preview),
  ]);
  // An earlier preview (npm run dev writes into the same folder again) is no file of this build.
  const current = path.basename(previewUrl);
  for (const name of await readdir(adminDir)) {
    if (/^preview-.*\.json$/.test(name) && name !== current) await unlink(path.join(adminDir, name)).catch(() => undefined);
  }
}

export async function writeInboxPage(outDir: string, assets: InboxAssets, brandName: string): Promise<void> {
  await writeFile(path.join(outDir, INBOX_PAGE), inboxHtml(assets, brandName));
}

/**
 * The back office's rules for _headers, by path: the content manager's own policy, and the lead
 * inbox's stricter one (on Cloudflare Pages, functions/admin.ts and functions/leads.ts set them).
 */
export function backOfficeHeaders(supabaseUrl: string | undefined): [pattern: string, headers: Record<string, string>][] {
  return [['/admin', ADMIN_HEADERS], ['/admin/*', ADMIN_HEADERS], ['/leads', inboxHeaders(supabaseUrl)]];
}

/** The back office as a build writes it: its bundles, its pages and its rules for _headers. */
export class BackOffice {
  private admin: AdminAssets | undefined;
  private inbox: InboxAssets | undefined;

  constructor(private readonly opts: { root: string; supabaseUrl?: string | undefined; supabaseAnonKey?: string | undefined }) {}

  /** Both apps' bundles into outDir/assets/ (cached): the URL paths written. */
  async assets(outDir: string): Promise<string[]> {
    const { root, supabaseUrl, supabaseAnonKey } = this.opts;
    // Made before both copy into it: two copies creating it at once can fail (EEXIST).
    await mkdir(path.join(outDir, 'assets'), { recursive: true });
    const [admin, inbox] = await settleAll([adminAssets(root, outDir), inboxAssets({ root, outDir, supabaseUrl, supabaseAnonKey })]);
    this.admin = admin;
    this.inbox = inbox;
    return [...admin.files, ...inbox.files];
  }

  /** /admin and /leads, once assets() made their bundles (else nothing: a build without them); `translated`: each translation's model, for its previews. */
  async writePages(outDir: string, model: SiteModel, translated: readonly SiteModel[], plan: PlanOptions): Promise<void> {
    const { admin, inbox } = this;
    await settleAll([
      admin && writeAdminPage({ outDir, model, translated, admin, plan }),
      inbox && writeInboxPage(outDir, inbox, model.site.brand.name),
    ]);
  }

  /**
   * The whole back office added to `intoDir` (the served dist/) after the site's pages: built beside
   * it, then moved in file by file, so a request never finds one half written.
   */
  async addInto(intoDir: string, model: SiteModel, translated: readonly SiteModel[], plan: PlanOptions): Promise<void> {
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
      await this.assets(staging);
      await this.writePages(staging, model, translated, plan);
      await moveInto(staging, intoDir);
    } finally {
      process.off('exit', removeStaging);
      await rm(staging, { recursive: true, force: true });
    }
  }

  headers(): PathHeaders[] {
    return backOfficeHeaders(this.opts.supabaseUrl);
  }
}
