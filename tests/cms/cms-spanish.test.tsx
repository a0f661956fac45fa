/**
 * The Spanish pages in the content manager, beyond its configuration (tests/cms/cms-config.test.ts):
 * - the previews: the build plans each language's pages from that language's model (the Spanish one
 *   read from content/es/ by the build's own reader, generator/backOffice/backOffice.ts), and a
 *   Spanish city or service is drawn by the real CityPage / ServicePage in Spanish, with Spanish
 *   addresses and lang="es-US", with a switch to its English original; the English previews stay English;
 * - the check before saving: a Spanish file is checked against the same schema as its English twin,
 *   and a new Spanish city or service must be the twin of an English one that is there and not
 *   translated yet (its file name is the English original's);
 * - the files a translation needs, read through the local backend or GitHub's contents API
 *   (cms/app/repoFiles.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteModel } from '../../contracts/content.js';
import type { ImageRef } from '../../contracts/pages.js';
import { ROUTE_TABLES } from '../../contracts/routes.js';
import { entryFile, entryProblems, newTranslationProblems, newTranslationSlug, twinProblems } from '../../cms/app/check.js';
import { cityPreview, servicePreview, setPreviewContext, type PreviewContext } from '../../cms/app/preview.js';
import { gitHubFiles, localFiles, readData, type RepoFiles } from '../../cms/app/repoFiles.js';
import { TWIN_FIELD } from '../../cms/app/translations.js';
import { savedTwinText, twinValidateValue } from '../../cms/app/twinWidget.js';
import { CmsLocalBackend, LOCAL_BACKEND_PATH } from '../../cms/localBackend.js';
import { cmsConfig } from '../../cms/config.js';
import { previewContext } from '../../generator/backOffice/backOffice.js';
import { checkContent } from '../../generator/build.js';
import type { PlanOptions } from '../../generator/plan/plan.js';
import { startServer, type RunningServer } from '../../serve/server.js';
import { contentCopy, ROOT, tempDir } from '../helpers/content.js';

const CONTENT = path.join(ROOT, 'content');
const readYaml = async (file: string) => parseYaml(await readFile(path.join(CONTENT, file), 'utf8')) as Record<string, unknown>;

/** Any picture is "processed" (the planner asks for each hero); none is listed, so the previews fall back to the planned ones. */
class AnyImages extends Map<string, ImageRef> {
  override get(): ImageRef {
    return { src: '/assets/img/x.svg', width: 10, height: 10 };
  }
}
const PLAN: PlanOptions = {
  origin: 'https://www.bayshinecleaning.com', images: new AnyImages(), year: 2026,
  assets: { css: '/assets/site.css', font: { family: 'Inter', src: '/f.woff2', weight: '400', faceCss: '', loader: '' } },
  publication: { now: Date.parse('2026-11-29T00:00:00Z'), drafts: false },
} as unknown as PlanOptions;

/** What Decap hands a preview template: the entry (its data, its file name) and the asset lookup. */
const entryOf = (slug: string, data: Record<string, unknown>) => ({
  entry: { get: (key: string) => (key === 'data' ? { toJS: () => data } : key === 'slug' ? slug : undefined) },
  getAsset: () => undefined,
});
const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
/** The links to the site's pages in a page (not its pictures, the booking service, the phone or the page's own anchors). */
const siteLinks = (html: string) => hrefs(html).filter((h) => h.startsWith('/') && !h.startsWith('/assets/'));

describe('the Spanish previews', () => {
  let english: SiteModel;
  let spanish: SiteModel;
  let ctx: PreviewContext;
  beforeAll(async () => {
    const checked = await checkContent({ root: ROOT });
    english = checked.model;
    [spanish] = checked.translated as [SiteModel];
    ctx = previewContext(english, [spanish], PLAN);
    setPreviewContext(ctx, async (file) => (file === 'content/cities/san-jose.yaml' ? readYaml('cities/san-jose.yaml') : null));
  });

  it('are planned from the Spanish model read from content/es/, with the Spanish addresses', async () => {
    expect(spanish.lang).toBe('es');
    expect(spanish.site.language?.name).toBe('Español');
    const es = ctx.pages.es!;
    expect(es.htmlLang).toBe('es-US');
    expect(es.name).toBe('Español');
    expect(es.city.route).toBe(ROUTE_TABLES.es.city('{city}'));
    expect(es.city.route).toBe('/es/ubicaciones/limpieza-profunda-{city}-ca');
    // Each Spanish service by its file name (its English twin's), at its own address.
    const slugOf = async (file: string) => (await readYaml(`es/services/${file}.yaml`)).slug as string;
    expect(Object.keys(es.services).sort()).toEqual(Object.keys(ctx.pages.en!.services).sort());
    expect(es.services['move-in-out-cleaning']!.route).toBe(`/es/${await slugOf('move-in-out-cleaning')}`);
    expect(ctx.pages.en!.htmlLang).toBe('en-US');
    expect(ctx.pages.en!.city.route).toBe('/locations/deep-cleaning-{city}-ca');
  });

  it('draw a Spanish city with the real city template, in Spanish, with lang es-US and Spanish links only', async () => {
    const data = await readYaml('es/cities/san-jose.yaml');
    const CityPreview = cityPreview('es');
    const html = renderToStaticMarkup(<CityPreview {...entryOf('san-jose', data)} />);
    expect(html).toContain('<div lang="es-US">');
    expect(html).not.toContain('lang="en-US"');
    expect(html).toContain('Servicios de limpieza profunda en San José, CA');
    expect(html).toContain(((data.page as { tagline: string }).tagline));
    const links = siteLinks(html);
    expect(links.length).toBeGreaterThan(3);
    // Every link of the page is a Spanish page's: the home, /es/ubicaciones, booking, the services.
    for (const href of links) expect(href === '/es' || href.startsWith('/es/'), href).toBe(true);
    expect(links).toEqual(expect.arrayContaining(['/es', ROUTE_TABLES.es.fixed.locations, ROUTE_TABLES.es.fixed.bookOnline]));
    // The switch to the English original, above the page.
    expect(html).toMatch(/<button type="button" aria-pressed="true"[^>]*>Español<\/button>/);
    expect(html).toMatch(/<button type="button" aria-pressed="false"[^>]*>English original<\/button>/);
  });

  it('draw a Spanish service with the real service template, in Spanish, linking the Spanish services', async () => {
    const data = await readYaml('es/services/move-in-out-cleaning.yaml');
    const ServicePreview = servicePreview('es');
    const html = renderToStaticMarkup(<ServicePreview {...entryOf('move-in-out-cleaning', data)} />);
    expect(html).toContain('<div lang="es-US">');
    expect(html).toContain(String(data.name));
    const links = siteLinks(html);
    for (const href of links) expect(href === '/es' || href.startsWith('/es/'), href).toBe(true);
    // The other services, at their Spanish addresses.
    const others = spanish.services.filter((s) => s.slug !== 'move-in-out-cleaning').map((s) => s.route);
    expect(links).toEqual(expect.arrayContaining(others));
    expect(links).toContain(ROUTE_TABLES.es.fixed.services);
    expect(links).toContain(ROUTE_TABLES.es.fixed.bookOnline);
  });

  it('draw a new Spanish entry from the English original chosen, before it has a file name', () => {
    const ServicePreview = servicePreview('es');
    const html = renderToStaticMarkup(<ServicePreview {...entryOf('', { [TWIN_FIELD]: 'deep-cleaning-san-francisco', name: 'Limpieza profunda' })} />);
    expect(html).toContain('<div lang="es-US">');
    expect(html).toContain(ctx.pages.es!.services['deep-cleaning-san-francisco']!.body.breadcrumbs.at(-1)!.href);
  });

  it('leave the English previews English', () => {
    const CityPreview = cityPreview('en');
    const html = renderToStaticMarkup(<CityPreview {...entryOf('colma', { name: 'Colma', page: { tagline: 'Colma homes' } })} />);
    expect(html).toContain('<div lang="en-US">');
    expect(html).not.toContain('aria-pressed');
    for (const href of siteLinks(html)) expect(href.startsWith('/es'), href).toBe(false);
    expect(siteLinks(html)).toContain(ROUTE_TABLES.en.fixed.bookOnline);
  });
});

describe('the check before a Spanish entry is saved', () => {
  const config = cmsConfig();

  it('knows a Spanish entry\'s file, kind and language from the configuration', () => {
    expect(entryFile(config, 'cities-es', 'san-jose')).toEqual({ file: 'content/es/cities/san-jose.yaml', kind: 'city', lang: 'es' });
    expect(entryFile(config, 'services-es', 'move-in-out-cleaning')).toEqual({ file: 'content/es/services/move-in-out-cleaning.yaml', kind: 'service', lang: 'es' });
    expect(entryFile(config, 'pages-es', 'contact')).toEqual({ file: 'content/es/contact.yaml', kind: 'contact', lang: 'es' });
    expect(entryFile(config, 'settings-es', 'site')).toEqual({ file: 'content/es/site.yaml', kind: 'site', lang: 'es' });
    // The English entries have no language: as a document of the default language.
    expect(entryFile(config, 'cities', 'san-jose')).toEqual({ file: 'content/cities/san-jose.yaml', kind: 'city' });
  });

  it('checks a Spanish file against the same schema, and never takes the English original for one of its fields', async () => {
    const service = await readYaml('es/services/move-in-out-cleaning.yaml');
    const target = entryFile(config, 'services-es', 'move-in-out-cleaning')!;
    expect(entryProblems(target, service)).toEqual([]);
    expect(entryProblems(target, { ...service, [TWIN_FIELD]: 'move-in-out-cleaning' })).toEqual([]);
    expect(entryProblems(target, { ...service, slug: 'Limpieza De Mudanza' })).toEqual([expect.stringMatching(/^slug: /)]);
    const { name: _name, ...nameless } = service;
    expect(entryProblems(target, nameless)).toEqual([expect.stringMatching(/^name: /)]);
  });

  it('takes a new Spanish entry\'s file name from its English original', () => {
    expect(newTranslationSlug(config, 'cities-es', { [TWIN_FIELD]: 'colma', name: 'Colma' })).toBe('colma');
    expect(newTranslationSlug(config, 'cities', { [TWIN_FIELD]: 'colma', name: 'Colma' })).toBe('');
    expect(newTranslationSlug(config, 'pages-es', { [TWIN_FIELD]: 'colma' })).toBe('');
  });

  it('refuses a new Spanish city without its English original, one whose English file is not there, and one already translated', async () => {
    const repo = new Map([['content/cities/colma.yaml', 'name: Colma\n'], ['content/es/cities/colma.yaml', 'name: Colma\n'], ['content/cities/milpitas.yaml', 'name: Milpitas\n']]);
    const files: RepoFiles = { read: async (file) => repo.get(file) ?? null };
    const problemsOf = (data: Record<string, unknown>, from = files) => newTranslationProblems(config, 'cities-es', { name: 'X', ...data }, from);
    expect(await problemsOf({})).toEqual(['English original: choose the English city this one translates (the new file takes its file name)']);
    expect(await problemsOf({ [TWIN_FIELD]: 'mountain-view' })).toEqual(['no English twin content/cities/mountain-view.yaml (choose an English city that is published)']);
    expect(await problemsOf({ [TWIN_FIELD]: 'colma' })).toEqual(['content/es/cities/colma.yaml already exists (open it in Ciudades (español) and edit it there)']);
    expect(await problemsOf({ [TWIN_FIELD]: 'milpitas' })).toEqual([]);
    // What the backend cannot tell (offline, signed out) is left to the build.
    expect(await problemsOf({ [TWIN_FIELD]: 'mountain-view' }, { read: async () => undefined })).toEqual([]);
    // Not a translation's folder: nothing to ask.
    expect(await newTranslationProblems(config, 'cities', { name: 'X' }, files)).toEqual([]);
    expect(await newTranslationProblems(config, 'pages-es', {}, files)).toEqual([]);
  });

  it('checks a Spanish entry against its English twin as the backend has it, with the build\'s rules: a question less, a changed fact, a text left in English', async () => {
    const english = await readFile(path.join(CONTENT, 'cities/san-jose.yaml'), 'utf8');
    const files: RepoFiles = { read: async (file) => (file === 'content/cities/san-jose.yaml' ? english : null) };
    const target = entryFile(config, 'cities-es', 'san-jose')!;
    const city = await readYaml('es/cities/san-jose.yaml') as { population: string; page: { faqs: unknown[]; tagline: string } };
    expect(await twinProblems(target, city, files)).toEqual([]);
    const englishCity = parseYaml(english) as { page: { tagline: string } };
    const problems = await twinProblems(target, {
      ...city, population: '~1,000,000',
      page: { ...city.page, faqs: city.page.faqs.slice(1), tagline: englishCity.page.tagline },
    }, files);
    expect(problems).toEqual(expect.arrayContaining([
      expect.stringMatching(/^population: population is "~1,000,000" here and "~970,000" in content\/cities\/san-jose.yaml/),
      expect.stringMatching(/^page\.faqs: page\.faqs has 3 items here and 4 in content\/cities\/san-jose.yaml/),
      expect.stringMatching(/^page\.tagline: page\.tagline is not translated/),
    ]));
    expect(problems).toHaveLength(3);
    // An English twin that cannot be read (offline) or a Spanish entry not valid yet: left to the build and the schema check.
    expect(await twinProblems(target, { ...city, page: { ...city.page, faqs: [] } }, { read: async () => undefined })).toEqual([]);
    expect(await twinProblems(entryFile(config, 'cities', 'san-jose')!, city, files)).toEqual([]);
  });

  it('asks a new Spanish entry for its English original, and shows a saved one the English file it translates instead', () => {
    const entry = (values: Record<string, unknown>) => ({ get: (key: string) => values[key] });
    const saved = entry({ newRecord: false, slug: 'colma', path: 'content/es/cities/colma.yaml' });
    expect(savedTwinText(saved)).toBe('Translates content/cities/colma.yaml.');
    // Decap's required check: a saved entry's file name is its value; a new one has none until chosen.
    expect(twinValidateValue(saved, undefined)).toBe('colma');
    expect(twinValidateValue(entry({ newRecord: true }), undefined)).toBeUndefined();
    expect(twinValidateValue(entry({ newRecord: true }), 'milpitas')).toBe('milpitas');
  });
});

describe('the English originals, read through the local backend of npm run dev', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let server: RunningServer;
  let files: RepoFiles;
  beforeAll(async () => {
    tmp = await tempDir('cms-spanish-');
    const contentDir = await contentCopy(tmp.dir);
    server = await startServer({ distDir: tmp.dir, handlers: [new CmsLocalBackend(contentDir).handle] });
    // A browser sends its page's origin with every POST; the backend answers only its own.
    const fetchFromAdmin: typeof fetch = (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: server.url } });
    files = localFiles({ endpoint: server.url + LOCAL_BACKEND_PATH, fetch: fetchFromAdmin });
  });
  afterAll(async () => {
    await server?.close();
    await tmp?.remove();
  });

  it('reads an English file\'s data, says when there is none, and cannot tell from a backend that does not answer', async () => {
    expect(await readData(files, 'content/cities/colma.yaml')).toMatchObject({ name: 'Colma' });
    expect(await files.read('content/es/cities/colma.yaml')).toMatch(/^# yaml-language-server/);
    expect(await files.read('content/cities/mountain-view.yaml')).toBeNull();
    expect(await localFiles({ endpoint: `${server.url}/nowhere` }).read('content/cities/colma.yaml')).toBeUndefined();
  });
});

describe('the English originals, read from GitHub on the deployed site', () => {
  it('asks the contents API for the raw file on the site\'s branch with the editor\'s token: the text, null when GitHub has none, undefined otherwise', async () => {
    const asked: { url: string; headers: Record<string, string> }[] = [];
    const answers: Record<string, Response> = {
      'content/cities/colma.yaml': new Response('name: Colma\n', { status: 200 }),
      'content/cities/mountain-view.yaml': new Response('{"message":"Not Found"}', { status: 404 }),
      'content/cities/fremont.yaml': new Response('{"message":"Bad credentials"}', { status: 401 }),
    };
    const fetchStub: typeof fetch = async (url, init) => {
      asked.push({ url: String(url), headers: init?.headers as Record<string, string> });
      const file = decodeURIComponent(new URL(String(url)).pathname.replace('/repos/owner/site/contents/', ''));
      return answers[file]!;
    };
    const files = gitHubFiles({ api: 'https://api.github.com', repo: 'owner/site', branch: 'main', token: () => 'gho_editor', fetch: fetchStub });
    expect(await readData(files, 'content/cities/colma.yaml')).toEqual({ name: 'Colma' });
    expect(await files.read('content/cities/mountain-view.yaml')).toBeNull();
    expect(await files.read('content/cities/fremont.yaml')).toBeUndefined();
    expect(asked[0]).toEqual({
      url: 'https://api.github.com/repos/owner/site/contents/content/cities/colma.yaml?ref=main',
      headers: { accept: 'application/vnd.github.raw+json', authorization: 'Bearer gho_editor' },
    });
    // No network at all: it cannot tell.
    expect(await gitHubFiles({ api: 'https://api.github.com', repo: 'owner/site', branch: 'main', token: () => undefined, fetch: async () => { throw new TypeError('offline'); } }).read('content/cities/colma.yaml')).toBeUndefined();
  });
});
