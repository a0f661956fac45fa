/**
 * The content manager's files in dist/: /admin (admin.html), /admin/config.json (the configuration
 * derived from the model, with this deployment's repository and origin), /admin/preview-<hash>.json
 * (page bodies planned for the live previews), the admin script and Decap CMS's prebuilt script
 * under /assets/. None of them is a page of the site: not in the sitemap, not linked, `noindex`.
 */
import { cp, mkdir, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { CityEntry, SiteModel } from '../../contracts/content.js';
import type { PageBody } from '../../contracts/pages.js';
import { cityRoute } from '../../contracts/routes.js';
import type { PreviewContext } from '../../src/admin/preview.js';
import type { AdminSettings } from '../../src/admin/settings.js';
import { contentHash } from '../assets/hash.js';
import { planPages, type PlanOptions } from '../plan/plan.js';
import { bundleAdminCached } from './adminBundleCache.js';
import { deployedCmsConfig } from './config.js';

/** The content manager's page in dist/, served at /admin; not a page of the site. */
export const ADMIN_PAGE = 'admin.html';

export interface AdminAssets {
  /** The admin script. */
  entry: string;
  /** Decap CMS's prebuilt script. */
  decap: string;
  /** Every URL path written under /assets/. */
  files: string[];
}

/** The admin script (cached like the islands) and Decap's prebuilt files, into outDir/assets/. */
export async function adminAssets(root: string, outDir: string): Promise<AdminAssets> {
  const require = createRequire(path.join(root, 'package.json'));
  const decapDir = path.dirname(require.resolve('decap-cms-app/dist/decap-cms-app.js'));
  const { version } = require('decap-cms-app/package.json') as { version: string };
  // A published version never changes: the version in the path is its content hash.
  const decapUrl = `/assets/decap-cms-${version}/`;
  const decapFiles = (await readdir(decapDir)).filter((f) => /\.(js|wasm|txt)$/.test(f));
  const [bundle] = await Promise.all([
    bundleAdminCached({ root, outDir: path.join(outDir, 'assets') }),
    cp(decapDir, path.join(outDir, decapUrl), { recursive: true, filter: (src) => src === decapDir || decapFiles.includes(path.basename(src)) }),
  ]);
  return {
    entry: bundle.entry,
    decap: `${decapUrl}decap-cms-app.js`,
    files: [...bundle.files.map((f) => f.path), ...decapFiles.map((f) => decapUrl + f)],
  };
}

/** The GitHub repository the production CMS edits: CMS_GITHUB_REPO, else the one GitHub Actions builds. */
function repository(env = process.env): string | undefined {
  const repo = env.CMS_GITHUB_REPO ?? env.GITHUB_REPOSITORY;
  if (repo && !/^[\w.-]+\/[\w.-]+$/.test(repo)) throw new Error(`CMS_GITHUB_REPO must be owner/name, got "${repo}"`);
  return repo;
}

/** The city mark of src/admin/preview.tsx; a city of that name is planned once for the preview. */
const CITY_MARK = '{city}';

/**
 * Page bodies for the previews, planned by the real planners: one city page for a city named
 * CITY_MARK (its shared texts then read "{city}" where the name goes) and every service page.
 * The other cities are planned without their pages, so a large site adds no per-page work here.
 */
function previewContext(model: SiteModel, plan: PlanOptions): PreviewContext {
  const mark: CityEntry = {
    name: CITY_MARK, population: '', description: '', slug: CITY_MARK, route: cityRoute(CITY_MARK), exploreHref: cityRoute(CITY_MARK),
    page: { seoDescription: '', tagline: '', intro: [], benefits: [], faqs: [] },
  };
  const cities = [mark, ...model.cities.map(({ page: _page, ...city }) => city)];
  const pages = planPages({ ...model, cities }, plan);
  const city = pages.find((p) => p.body.kind === 'city');
  if (!city) throw new Error('preview: the city page was not planned');
  const services: PreviewContext['services'] = {};
  for (const page of pages) {
    if (page.body.kind === 'service') services[model.services.find((s) => s.route === page.route)!.slug] = { route: page.route, body: page.body };
  }
  return {
    css: plan.assets.css,
    fontCss: plan.assets.font.faceCss,
    closeLabel: model.site.navigation.closeLabel,
    city: { route: city.route, body: city.body as Extract<PageBody, { kind: 'city' }> },
    services,
    images: Object.fromEntries(plan.images),
    unnamedCity: 'Your city',
  };
}

const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** admin.html, its configuration and its preview data. */
export async function writeAdminPage(opts: { outDir: string; model: SiteModel; plan: PlanOptions; admin: AdminAssets }): Promise<void> {
  const { outDir, model, plan, admin } = opts;
  const preview = JSON.stringify(previewContext(model, plan));
  const previewUrl = `/admin/preview-${contentHash(preview)}.json`;
  const settings: AdminSettings = { decap: admin.decap, config: '/admin/config.json', preview: previewUrl };
  const config = deployedCmsConfig({ origin: plan.origin, repo: repository() });
  const html = `<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Content manager | ${model.site.brand.name.replace(/[<&"]/g, '')}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<script type="application/json" id="cms-settings">${scriptJson(settings)}</script>
<script type="module" src="${admin.entry}"></script>
</head>
<body></body>
</html>
`;
  await mkdir(path.join(outDir, 'admin'), { recursive: true });
  await Promise.all([
    writeFile(path.join(outDir, ADMIN_PAGE), html),
    writeFile(path.join(outDir, 'admin', 'config.json'), JSON.stringify(config, null, 2)),
    writeFile(path.join(outDir, previewUrl), preview),
  ]);
}
