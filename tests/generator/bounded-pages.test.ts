/**
 * No page grows with the number of cities: past CITIES_PER_PAGE cities /locations is split into
 * numbered pages linked to one another, and the service pages list the first CITIES_PER_PAGE
 * served cities with a link to /locations. Built here with just enough synthetic cities (the
 * benchmark's) for five pages of /locations, the fewest that show a gap in the page links.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticContent } from '../../bench/synthetic.js';
import { CITIES_PER_PAGE, type SiteModel } from '../../contracts/content.js';
import { build } from '../../generator/build.js';
import { checkContent } from '../../generator/build.js';
import { contentCopy, problems, ROOT, tempDir, withTempDir } from '../helpers/content.js';
import { distPages, jsonLd, sitemapUrls } from '../helpers/dist.js';
import { SITEMAP_MAX_URLS, sitemapFiles } from '../../generator/write/hostFiles.js';

const ORIGIN = 'https://www.example.com';
const PAGES = 5;
/** The most HTML any page may have, whatever the number of cities: a page a phone loads without trouble. */
const PAGE_HTML_BUDGET = 128 * 1024;

type Attrs = Record<string, string>;
interface Link { attrs: Attrs; text: string }

const attrsOf = (tag: string): Attrs => Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
const textOf = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&#x27;/g, "'").replace(/&amp;/g, '&').trim();
const linksIn = (html: string): Link[] => [...html.matchAll(/<a ([^>]*)>([\s\S]*?)<\/a>/g)].map((m) => ({ attrs: attrsOf(m[1]!), text: textOf(m[2]!) }));

/** The first `tag` element whose start tag holds `marker`, to its first closing tag (none is nested in these). */
function element(html: string, tag: string, marker: string): string {
  const at = html.indexOf(marker);
  if (at < 0) return '';
  const start = html.lastIndexOf(`<${tag}`, at);
  return html.slice(start, html.indexOf(`</${tag}>`, at) + tag.length + 3);
}

describe(`a site with more than ${CITIES_PER_PAGE} cities`, () => {
  let dist = '';
  let model: SiteModel;
  let remove: () => Promise<void> = async () => {};
  const html = new Map<string, string>();

  beforeAll(async () => {
    const tmp = await tempDir('bounded-pages-');
    remove = tmp.remove;
    const realCities = (await readdir(path.join(ROOT, 'content/cities'))).filter((f) => f.endsWith('.yaml')).length;
    // The last page holds one card.
    const contentDir = await syntheticContent(ROOT, tmp.dir, (PAGES - 1) * CITIES_PER_PAGE + 1 - realCities);
    dist = path.join(tmp.dir, 'dist');
    model = (await checkContent({ root: ROOT, contentDir })).model;
    await build({ root: ROOT, contentDir, outDir: dist, siteUrl: ORIGIN, skipIslands: true });
    for (const page of await distPages(dist)) html.set(page.route, await readFile(path.join(dist, page.file), 'utf8'));
  });
  afterAll(() => remove());

  const locationRoutes = () => [...html.keys()].filter((r) => r === '/locations' || r.startsWith('/locations/page/'));
  const cardsOf = (route: string) => [...element(html.get(route)!, 'ul', 'data-testid="city-cards"').matchAll(/<h3[^>]*>([\s\S]*?)<\/h3>/g)].map((m) => textOf(m[1]!));
  const navOf = (route: string) => linksIn(element(html.get(route)!, 'nav', `aria-label="${model.locations.pagination.label}"`));

  it(`splits /locations into numbered pages of at most ${CITIES_PER_PAGE} cards, every city on one of them, in the list's order`, () => {
    expect(model.cities.length).toBe((PAGES - 1) * CITIES_PER_PAGE + 1);
    const routes = ['/locations', ...Array.from({ length: PAGES - 1 }, (_, i) => `/locations/page/${i + 2}`)];
    expect(locationRoutes().sort()).toEqual([...routes].sort());
    const cards = routes.map(cardsOf);
    for (const [i, list] of cards.entries()) expect(list.length, routes[i]).toBe(i < PAGES - 1 ? CITIES_PER_PAGE : 1);
    expect(cards.flat()).toEqual(model.cities.map((c) => c.name));
    // The stats on the first page only; the way to ask about another city on every page.
    expect(routes.map((r) => html.get(r)!.includes('<dl'))).toEqual(routes.map((r) => r === '/locations'));
    for (const route of routes) expect(textOf(element(html.get(route)!, 'h2', 'id="dont-see-heading"')), route).toBe(model.locations.dontSee.heading);
  });

  it('links the pages: Next from the first reaches every page in turn, Previous goes back, the current page is marked, the rest are reachable links', () => {
    const texts = model.locations.pagination;
    const pages = new Set(html.keys());
    const walked: string[] = [];
    let route: string | undefined = '/locations';
    while (route) {
      walked.push(route);
      const nav = navOf(route);
      expect(nav.length, route).toBeGreaterThan(0);
      for (const link of nav) expect(pages, `${route} links to ${link.attrs.href}`).toContain(link.attrs.href);
      const numbered = nav.filter((l) => /^\d+$/.test(l.text));
      // A window, not every page: the first, the last, the current one and its neighbours.
      expect(numbered.length, route).toBeLessThanOrEqual(5);
      expect(numbered[0]!.attrs.href).toBe('/locations');
      expect(numbered.at(-1)!.text).toBe(String(PAGES));
      for (const l of numbered) expect(l.attrs['aria-label']).toBe(texts.page.replace('{page}', l.text));
      const current = nav.filter((l) => l.attrs['aria-current'] === 'page');
      expect(current.map((l) => l.attrs.href), route).toEqual([route]);
      expect(html.get(route)).toContain(`>${texts.status.replace('{page}', current[0]!.text).replace('{pages}', String(PAGES))}</p>`);
      const previous = nav.find((l) => l.attrs.rel === 'prev');
      expect(previous?.attrs.href, route).toBe(walked.at(-2));
      expect(previous?.text ?? texts.previous).toBe(texts.previous);
      route = nav.find((l) => l.attrs.rel === 'next')?.attrs.href;
      if (route) expect(nav.find((l) => l.attrs.rel === 'next')!.text).toBe(texts.next);
    }
    expect(walked).toEqual(['/locations', ...Array.from({ length: PAGES - 1 }, (_, i) => `/locations/page/${i + 2}`)]);
    // The middle page's window leaves pages out on both sides.
    expect(navOf('/locations/page/3').filter((l) => /^\d+$/.test(l.text)).map((l) => l.text)).toEqual(['1', '2', '3', '4', '5']);
    expect(navOf('/locations').filter((l) => /^\d+$/.test(l.text)).map((l) => l.text)).toEqual(['1', '2', String(PAGES)]);
  });

  it('gives each page its own canonical URL, title and description, rel prev/next in the head, breadcrumbs, and a place in the sitemap', async () => {
    const routes = locationRoutes();
    const head = (route: string) => { const page = html.get(route)!; return page.slice(0, page.indexOf('</head>')); };
    const canonical = (route: string) => /<link rel="canonical" href="([^"]+)"/.exec(head(route))?.[1];
    const titles = new Set(routes.map((r) => /<title>([^<]*)<\/title>/.exec(head(r))?.[1]));
    const descriptions = new Set(routes.map((r) => /<meta name="description" content="([^"]*)"/.exec(head(r))?.[1]));
    expect(titles.size).toBe(PAGES);
    expect(descriptions.size).toBe(PAGES);
    expect(/<title>([^<]*)<\/title>/.exec(head('/locations/page/2'))?.[1]).toBe(
      model.locations.pagination.seoTitle.replace('{page}', '2').replace('{pages}', String(PAGES)).replace('{brand}', model.site.brand.name),
    );
    const urls = sitemapUrls(await readFile(path.join(dist, 'sitemap.xml'), 'utf8'));
    for (const route of routes) {
      expect(canonical(route), route).toBe(ORIGIN + route);
      expect(urls, route).toContain(ORIGIN + route);
    }
    expect(head('/locations')).not.toContain('rel="prev"');
    expect(head('/locations')).toContain(`<link rel="next" href="${ORIGIN}/locations/page/2"/>`);
    expect(head('/locations/page/3')).toContain(`<link rel="prev" href="${ORIGIN}/locations/page/2"/>`);
    expect(head('/locations/page/3')).toContain(`<link rel="next" href="${ORIGIN}/locations/page/4"/>`);
    expect(head(`/locations/page/${PAGES}`)).not.toContain('rel="next"');
    const crumbs = jsonLd(html.get('/locations/page/3')!)['@graph'].find((n) => n['@type'] === 'BreadcrumbList')!;
    expect(crumbs.itemListElement.map((i: { item: string }) => i.item)).toEqual([`${ORIGIN}/`, `${ORIGIN}/locations`, `${ORIGIN}/locations/page/3`]);
    const trail = linksIn(element(html.get('/locations/page/3')!, 'nav', `aria-label="${model.site.navigation.breadcrumbLabel}"`));
    expect(trail.map((l) => l.attrs.href)).toEqual(['/', '/locations']);
  });

  it(`lists the first ${CITIES_PER_PAGE} served cities on service pages and /services, in sight and in areaServed, with a link to /locations for the rest`, () => {
    expect(model.servedCities.length).toBeGreaterThan(CITIES_PER_PAGE);
    const first = model.servedCities.slice(0, CITIES_PER_PAGE);
    for (const { route } of model.services) {
      const page = html.get(route)!;
      const areas = element(page, 'section', 'aria-labelledby="areas-heading"');
      expect(areas, route).not.toBe('');
      expect([...areas.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => textOf(m[1]!)), route).toEqual(first);
      expect(linksIn(areas).filter((l) => l.text === model.locations.moreCities).map((l) => l.attrs.href), route).toEqual(['/locations']);
      const graph = jsonLd(page)['@graph'];
      expect(graph.find((n) => n['@type'] === 'Service')!.areaServed.map((c: { name: string }) => c.name), route).toEqual(first);
      expect(graph.find((n) => n['@type'] === 'HomeAndConstructionBusiness')!.areaServed.map((c: { name: string }) => c.name)).toEqual(model.site.servedCities);
    }
    const services = jsonLd(html.get('/services')!)['@graph'].filter((n) => n['@type'] === 'Service');
    expect(services.length).toBe(model.servicesIndex.services.length);
    for (const node of services) expect(node.areaServed.map((c: { name: string }) => c.name)).toEqual(first);
  });

  it(`writes no page larger than ${PAGE_HTML_BUDGET / 1024} KiB of HTML`, async () => {
    for (const page of await distPages(dist)) {
      expect((await stat(path.join(dist, page.file))).size, page.route).toBeLessThanOrEqual(PAGE_HTML_BUDGET);
    }
  });
});

describe("site.yaml's own list of served cities", () => {
  it(`may hold at most ${CITIES_PER_PAGE} cities (it is the business's areaServed on every page): one more is refused, with the way to add it`, async () => {
    await withTempDir('served-cities-', async (dir) => {
      const contentDir = await contentCopy(dir);
      const file = path.join(contentDir, 'site.yaml');
      const site = await readFile(file, 'utf8');
      const listed = (await checkContent({ root: ROOT, contentDir })).model.site.servedCities;
      const extra = Array.from({ length: CITIES_PER_PAGE + 1 - listed.length }, (_, i) => `  - Extra Town ${i + 1}\n`).join('');
      const last = `  - ${listed.at(-1)}\n`;
      expect(site).toContain(last);
      await writeFile(file, site.replace(last, last + extra));
      const [message, ...others] = await problems(contentDir);
      expect(others).toEqual([]);
      expect(message).toMatch(new RegExp(`^content/site\\.yaml:\\d+:\\d+ servedCities: has ${CITIES_PER_PAGE + 1} items, at most ${CITIES_PER_PAGE} expected\n    hint: .*add files to content/cities/`));
    });
  });
});

describe('the sitemap of a site with more pages than one sitemap may list', () => {
  it(`past ${SITEMAP_MAX_URLS.toLocaleString('en-US')} indexed pages, sitemap.xml is an index of sitemaps within the limit that list every page once`, async () => {
    const pages = Array.from({ length: SITEMAP_MAX_URLS + 2 }, (_, i) => ({ route: `/p${i}`, canonical: `${ORIGIN}/p${i}`, noindex: i === 7 }));
    const files = await sitemapFiles(pages, ORIGIN);
    expect([...files.keys()].sort()).toEqual(['sitemap-1.xml', 'sitemap-2.xml', 'sitemap.xml']);
    const index = files.get('sitemap.xml')!;
    expect(index).toContain('<sitemapindex');
    expect(sitemapUrls(index)).toEqual([`${ORIGIN}/sitemap-1.xml`, `${ORIGIN}/sitemap-2.xml`]);
    const parts = ['sitemap-1.xml', 'sitemap-2.xml'].map((name) => sitemapUrls(files.get(name)!));
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(SITEMAP_MAX_URLS);
    expect(parts.flat()).toEqual(pages.filter((p) => !p.noindex).map((p) => p.canonical));
    // Within the limit, one sitemap as before.
    const one = await sitemapFiles(pages.slice(0, SITEMAP_MAX_URLS), ORIGIN);
    expect([...one.keys()]).toEqual(['sitemap.xml']);
    expect(sitemapUrls(one.get('sitemap.xml')!)).toHaveLength(SITEMAP_MAX_URLS - 1);
  });
});

describe('a sitemap entry', () => {
  it('is valid XML whatever its URL holds: escaped, percent-encoded, its lastmod in UTC, its language versions listed', async () => {
    const { XMLParser } = await import('fast-xml-parser');
    const files = sitemapFiles([
      { route: '/a', canonical: `${ORIGIN}/a?x=1&y=<2>`, noindex: false, lastmod: '2026-11-20T21:30:00-08:00',
        alternates: [{ hreflang: 'en', href: `${ORIGIN}/a` }, { hreflang: 'es', href: `${ORIGIN}/es/año` }] },
      { route: '/hidden', canonical: `${ORIGIN}/hidden`, noindex: true },
    ], ORIGIN);
    const xml = files.get('sitemap.xml')!;
    const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'url' || name === 'xhtml:link' }).parse(xml);
    const [url, ...more] = parsed.urlset.url;
    expect(more).toEqual([]);
    expect(url.loc).toBe(`${ORIGIN}/a?x=1&y=<2>`.replace('<', '%3C').replace('>', '%3E'));
    expect(url.lastmod).toBe('2026-11-21T05:30:00.000Z');
    expect(url['xhtml:link'].map((l: Record<string, string>) => [l['@_hreflang'], l['@_href']])).toEqual([['en', `${ORIGIN}/a`], ['es', `${ORIGIN}/es/a%C3%B1o`]]);
    expect(xml).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
  });
});
