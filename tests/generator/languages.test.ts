/**
 * The site in English and Spanish (content/es/), on one build of the real content: every page's
 * versions (hreflang alternates with x-default, complete and reciprocal, the same in the sitemap),
 * its language (<html lang>, og:locale, the JSON-LD's inLanguage, a canonical URL of its own), the
 * header's language switch, links to English-only pages marked as such, the Spanish pages the site
 * must have, and the content check of a translation against its English twins (each problem named
 * by file, line and hint; a failed build leaves dist/ as it was).
 *
 * What a page's twin is comes from the content files here (the same file name under content/es/, a
 * Spanish service's `slug`, a city file with a page), not from the generator's own tables.
 */
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../generator/build.js';
import { ContentErrors, formatError } from '../../contracts/validate/errors.js';
import { contentCopy, problems, ROOT, tempDir, treeDigest, withTempDir } from '../helpers/content.js';
import { distPages } from '../helpers/dist.js';
import { SHARED_BUILD_NOW } from '../helpers/buildNow.js';

const ORIGIN = 'https://www.bayshinecleaning.com';
const CONTENT = path.join(ROOT, 'content');

type Lang = 'en' | 'es';
const HTML_LANG: Record<Lang, string> = { en: 'en-US', es: 'es-US' };
const OG_LOCALE: Record<Lang, string> = { en: 'en_US', es: 'es_US' };
const other = (lang: Lang): Lang => (lang === 'en' ? 'es' : 'en');
const HOME: Record<Lang, string> = { en: '/', es: '/es' };
const langOf = (route: string): Lang => (route === '/es' || route.startsWith('/es/') ? 'es' : 'en');
const url = (route: string) => ORIGIN + route;

// ── Reading the built HTML (React's server output: attributes may be camelCase, e.g. hrefLang) ──

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const attr = (tag: string, name: string): string | undefined => {
  const value = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1];
  return value === undefined ? undefined : unescape(value);
};
const tags = (html: string, name: string) => [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, 'gi'))].map((m) => m[0]);
const text = (html: string) => unescape(html.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();

interface Anchor { href: string; hreflang?: string; lang?: string; text: string }
const anchors = (html: string): Anchor[] => [...html.matchAll(/(<a\b[^>]*>)([\s\S]*?)<\/a>/gi)].map(([, open, inner]) => ({
  href: attr(open!, 'href') ?? '', hreflang: attr(open!, 'hreflang'), lang: attr(open!, 'lang'), text: text(inner!),
}));

/** "hreflang href" of each <link rel="alternate" hreflang>, sorted. */
const alternatesOf = (html: string) => tags(html, 'link')
  .filter((t) => attr(t, 'rel') === 'alternate' && attr(t, 'hreflang') !== undefined)
  .map((t) => `${attr(t, 'hreflang')} ${attr(t, 'href')}`);

interface BuiltPage {
  route: string;
  lang: Lang;
  html: string;
  htmlLang?: string;
  noindex: boolean;
  canonicals: string[];
  /** As written, in order. */
  alternates: string[];
  ogLocale: string[];
  ogAlternates: string[];
  /** Every JSON-LD node (the @graph's members). */
  jsonLd: Record<string, unknown>[];
  /** The header's strip with the language switch: its links. */
  switches: Anchor[];
  links: Anchor[];
}

function readPage(route: string, html: string, switchLabel: Record<Lang, string>): BuiltPage {
  const lang = langOf(route);
  const meta = (property: string) => tags(html, 'meta').filter((t) => attr(t, 'property') === property).map((t) => attr(t, 'content') ?? '');
  const header = /<header\b[\s\S]*?<\/header>/i.exec(html)?.[0] ?? '';
  const strip = new RegExp(`<nav\\b[^>]*aria-label="${switchLabel[lang]}"[^>]*>([\\s\\S]*?)</nav>`, 'i').exec(header)?.[1] ?? '';
  return {
    route, lang, html,
    htmlLang: attr(/<html\b[^>]*>/i.exec(html)?.[0] ?? '', 'lang'),
    noindex: tags(html, 'meta').some((t) => attr(t, 'name') === 'robots' && /noindex/i.test(attr(t, 'content') ?? '')),
    canonicals: tags(html, 'link').filter((t) => attr(t, 'rel') === 'canonical').map((t) => attr(t, 'href') ?? ''),
    alternates: alternatesOf(html),
    ogLocale: meta('og:locale'),
    ogAlternates: meta('og:locale:alternate'),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)]
      .flatMap((m) => { const data = JSON.parse(m[1]!) as { '@graph'?: Record<string, unknown>[] }; return data['@graph'] ?? [data]; }),
    switches: anchors(strip),
    links: anchors(html),
  };
}

// ── The twins, from the content files ──────────────────────────────────────────────────────────

const readYaml = async (file: string) => yaml.load(await readFile(path.join(CONTENT, file), 'utf8')) as Record<string, any>;
const yamlFiles = async (folder: string) => (await readdir(path.join(CONTENT, folder))).filter((f) => f.endsWith('.yaml')).sort();

/** The fixed pages' addresses in both languages, as the issue names them. */
const FIXED_TWINS: [string, string][] = [
  ['/', '/es'], ['/services', '/es/servicios'], ['/locations', '/es/ubicaciones'], ['/checklist', '/es/lista-de-limpieza'],
  ['/contact', '/es/contacto'], ['/book-online', '/es/reservar'], ['/customer-login', '/es/acceso-clientes'],
];

interface Twins { services: [string, string][]; cities: [string, string][]; all: [string, string][] }

async function twinsFromContent(): Promise<Twins> {
  const services: [string, string][] = [];
  for (const file of await yamlFiles('services')) {
    const es = await readYaml(`es/services/${file}`);
    services.push([`/${file.replace(/\.yaml$/, '')}`, `/es/${es.slug as string}`]);
  }
  const cities: [string, string][] = [];
  for (const file of await yamlFiles('cities')) {
    const slug = file.replace(/\.yaml$/, '');
    if (!(await readYaml(`cities/${file}`)).page) continue;
    cities.push([`/locations/deep-cleaning-${slug}-ca`, `/es/ubicaciones/limpieza-profunda-${slug}-ca`]);
  }
  return { services, cities, all: [...FIXED_TWINS, ...services, ...cities] };
}

// ── The build ──────────────────────────────────────────────────────────────────────────────────

describe('the site in English and Spanish', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let dist = '';
  let pages: BuiltPage[] = [];
  let byRoute = new Map<string, BuiltPage>();
  let twins: Twins;
  /** Each page's twin in the other language. */
  let twinOf = new Map<string, string>();
  let names: Record<Lang, string>;
  let sitemapXml = '';

  beforeAll(async () => {
    tmp = await tempDir('languages-');
    dist = path.join(tmp.dir, 'dist');
    await build({ root: ROOT, outDir: dist, siteUrl: ORIGIN, skipIslands: true, now: SHARED_BUILD_NOW });
    const [en, es] = [(await readYaml('site.yaml')).language, (await readYaml('es/site.yaml')).language];
    names = { en: en.name, es: es.name };
    const switchLabel = { en: en.switchLabel as string, es: es.switchLabel as string };
    pages = await Promise.all((await distPages(dist)).map(async (p) => readPage(p.route, await readFile(path.join(dist, p.file), 'utf8'), switchLabel)));
    byRoute = new Map(pages.map((p) => [p.route, p]));
    twins = await twinsFromContent();
    twinOf = new Map(twins.all.flatMap(([en, es]) => [[en, es], [es, en]] as [string, string][]));
    sitemapXml = await readFile(path.join(dist, 'sitemap.xml'), 'utf8');
  });
  afterAll(() => tmp?.remove());

  const indexable = () => pages.filter((p) => !p.noindex);
  const spanish = () => pages.filter((p) => p.lang === 'es');

  describe('the Spanish pages', () => {
    it('are the ones the site must have: home, services and its 5 service pages, locations and the 10 city pages, checklist, contact, booking, customer login and 404', () => {
      expect(twins.services).toHaveLength(5);
      expect(twins.cities).toHaveLength(10);
      const required = [
        '/es', '/es/servicios', ...twins.services.map(([, es]) => es), '/es/ubicaciones', ...twins.cities.map(([, es]) => es),
        '/es/lista-de-limpieza', '/es/contacto', '/es/reservar', '/es/acceso-clientes', '/es/404',
      ];
      expect(spanish().map((p) => p.route).sort()).toEqual([...required].sort());
      // The English site is still all there, and no English page moved under /es.
      for (const [en] of twins.all) expect(byRoute.get(en)?.lang, en).toBe('en');
    });

    it('are written in Spanish: each one\'s <title> and <h1> differ from its English twin\'s', () => {
      for (const page of spanish()) {
        const twin = byRoute.get(page.route === '/es/404' ? '/404' : twinOf.get(page.route)!)!;
        const title = (p: BuiltPage) => text(/<title>([\s\S]*?)<\/title>/.exec(p.html)?.[1] ?? '');
        const h1 = (p: BuiltPage) => text(/<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(p.html)?.[1] ?? '');
        expect(title(page), page.route).not.toBe('');
        expect(title(page), page.route).not.toBe(title(twin));
        // (A heading without words, such as the 404 pages' "404", is the same in both.)
        if (/\p{L}/u.test(h1(twin))) expect(h1(page), page.route).not.toBe(h1(twin));
      }
    });
  });

  describe('hreflang', () => {
    it('every indexable page lists each of its versions, itself included, with absolute URLs, and x-default at the English one', () => {
      expect(indexable().length).toBeGreaterThan(40);
      const wrong: string[] = [];
      for (const page of indexable()) {
        const twin = twinOf.get(page.route);
        const en = page.lang === 'en' ? page.route : twin;
        const es = page.lang === 'es' ? page.route : twin;
        if (!en) {
          wrong.push(`${page.route}: a Spanish page without an English twin`);
          continue;
        }
        const expected = [`en ${url(en)}`, ...(es ? [`es ${url(es)}`] : []), `x-default ${url(en)}`].sort();
        const found = [...page.alternates].sort();
        if (JSON.stringify(found) !== JSON.stringify(expected)) wrong.push(`${page.route}: ${JSON.stringify(page.alternates)}, expected ${JSON.stringify(expected)}`);
        if (new Set(page.alternates.map((a) => a.split(' ')[0])).size !== page.alternates.length) wrong.push(`${page.route}: an hreflang given twice`);
      }
      expect(wrong).toEqual([]);
    });

    it('is reciprocal: each alternate of a page is an indexable page of that language that lists exactly the same set', () => {
      let followed = 0;
      const wrong: string[] = [];
      for (const page of indexable()) {
        for (const alternate of page.alternates) {
          const [hreflang, href] = alternate.split(' ') as [string, string];
          expect(href, `${page.route} ${alternate}`).toMatch(/^https:\/\//);
          const target = new URL(href);
          expect(target.origin, `${page.route} ${alternate}`).toBe(ORIGIN);
          const other = byRoute.get(target.pathname);
          if (!other) {
            wrong.push(`${page.route}: ${alternate} is no page of the site`);
            continue;
          }
          if (other.noindex) wrong.push(`${page.route}: ${alternate} is not indexed`);
          if (hreflang !== 'x-default' && hreflang !== other.lang) wrong.push(`${page.route}: ${alternate} is a page in ${other.lang}`);
          if (hreflang === 'x-default' && other.lang !== 'en') wrong.push(`${page.route}: x-default ${href} is not the English page`);
          if (JSON.stringify([...other.alternates].sort()) !== JSON.stringify([...page.alternates].sort())) {
            wrong.push(`${page.route} lists ${JSON.stringify(page.alternates)}, its alternate ${other.route} ${JSON.stringify(other.alternates)}`);
          }
          followed++;
        }
      }
      expect(wrong).toEqual([]);
      // Every page lists at least itself and x-default; the twins also each other.
      expect(followed).toBeGreaterThanOrEqual(indexable().length * 2 + twins.all.length * 2);
    });

    it('a page search engines are not to index (the 404 pages) has no hreflang alternates', () => {
      const noindex = pages.filter((p) => p.noindex);
      expect(noindex.map((p) => p.route)).toEqual(expect.arrayContaining(['/404', '/es/404']));
      for (const page of noindex) expect(page.alternates, page.route).toEqual([]);
    });

    it('the sitemap lists every indexable page once, each with its page\'s own alternates as xhtml:link, and no other page', () => {
      const entries = [...sitemapXml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map(([, body]) => ({
        loc: unescape(/<loc>([^<]*)<\/loc>/.exec(body!)?.[1] ?? ''),
        links: tags(body!, 'xhtml:link').map((t) => {
          expect(attr(t, 'rel'), t).toBe('alternate');
          return `${attr(t, 'hreflang')} ${attr(t, 'href')}`;
        }),
      }));
      expect(sitemapXml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
      expect(entries.map((e) => e.loc).sort()).toEqual(indexable().map((p) => url(p.route)).sort());
      for (const entry of entries) {
        const page = byRoute.get(new URL(entry.loc).pathname)!;
        expect(entry.links.sort(), entry.loc).toEqual([...page.alternates].sort());
        expect(entry.links.length, entry.loc).toBeGreaterThanOrEqual(2);
      }
    });
  });

  describe('each page\'s language', () => {
    it('<html lang> is es-US on the /es pages and en-US on every other one', () => {
      for (const page of pages) expect(page.htmlLang, page.route).toBe(HTML_LANG[page.lang]);
      expect(spanish().length).toBeGreaterThan(20);
    });

    it('the canonical URL is the page\'s own, in its own language (a Spanish page is not folded into the English one)', () => {
      for (const page of indexable()) expect(page.canonicals, page.route).toEqual([url(page.route)]);
    });

    it('og:locale is the page\'s language and og:locale:alternate the other\'s', () => {
      for (const page of pages) {
        expect(page.ogLocale, page.route).toEqual([OG_LOCALE[page.lang]]);
        expect(page.ogAlternates, page.route).toEqual([OG_LOCALE[other(page.lang)]]);
      }
    });

    it('the WebPage node of the JSON-LD (and any node that says) is in the page\'s language', () => {
      const webPages = pages.flatMap((page) => page.jsonLd.filter((n) => n['@type'] === 'WebPage').map((n) => ({ page, node: n })));
      expect(webPages.filter((w) => w.page.lang === 'es').map((w) => w.page.route)).toEqual(expect.arrayContaining(['/es', '/es/contacto', '/es/reservar']));
      expect(webPages.filter((w) => w.page.lang === 'en').map((w) => w.page.route)).toEqual(expect.arrayContaining(['/', '/contact', '/book-online']));
      for (const { page, node } of webPages) expect(node.inLanguage, page.route).toBe(HTML_LANG[page.lang]);
      for (const page of pages) {
        for (const node of page.jsonLd.filter((n) => 'inLanguage' in n)) expect(node.inLanguage, `${page.route} ${String(node['@type'])}`).toBe(HTML_LANG[page.lang]);
      }
    });
  });

  describe('the header\'s language switch', () => {
    it('on every page, leads to its twin, else to the other language\'s home, with hreflang, lang and the other language\'s name', () => {
      const wrong: string[] = [];
      for (const page of pages) {
        const to = other(page.lang);
        const target = (!page.noindex && twinOf.get(page.route)) || HOME[to];
        const expected = { href: target, hreflang: to, lang: HTML_LANG[to], text: names[to] };
        if (JSON.stringify(page.switches) !== JSON.stringify([expected])) wrong.push(`${page.route}: ${JSON.stringify(page.switches)}, expected ${JSON.stringify(expected)}`);
        else if (!byRoute.has(target)) wrong.push(`${page.route}: the switch leads to ${target}, no page`);
      }
      expect(wrong).toEqual([]);
    });

    it('on a page in English only (an article, a legal page, the articles list) leads to /es; on the 404 pages to the other home', () => {
      const article = pages.find((p) => /^\/articles\/(?!tags\/|page\/)[^/]+$/.test(p.route));
      expect(article, 'an article page').toBeDefined();
      for (const route of [article!.route, '/articles', '/privacy-policy', '/terms-of-service', '/404']) {
        expect(byRoute.get(route)?.switches.map((a) => a.href), route).toEqual(['/es']);
      }
      expect(byRoute.get('/es/404')?.switches.map((a) => a.href)).toEqual(['/']);
      expect(byRoute.get('/es/contacto')?.switches.map((a) => a.href)).toEqual(['/contact']);
      expect(byRoute.get('/locations/deep-cleaning-san-jose-ca')?.switches.map((a) => a.href)).toEqual(['/es/ubicaciones/limpieza-profunda-san-jose-ca']);
    });
  });

  describe('links between the languages', () => {
    it('a Spanish page\'s footer links to the English-only pages (/articles, /privacy-policy, /terms-of-service) with hreflang="en"', () => {
      for (const page of spanish()) {
        const footer = anchors(/<footer\b[\s\S]*?<\/footer>/i.exec(page.html)?.[0] ?? '');
        for (const href of ['/articles', '/privacy-policy', '/terms-of-service']) {
          const links = footer.filter((a) => a.href === href);
          expect(links.length, `${page.route} → ${href}`).toBeGreaterThan(0);
          for (const link of links) expect(link.hreflang, `${page.route} → ${href}`).toBe('en');
        }
      }
    });

    it('a page links to the version in its own language of every page that has one (the language switch apart)', () => {
      /** "href instead of its twin" → the pages that have such a link. */
      const wrong = new Map<string, Set<string>>();
      for (const page of pages) {
        const switches = new Set(page.switches.map((a) => JSON.stringify(a)));
        for (const link of page.links) {
          if (!link.href.startsWith('/') || link.href.startsWith('//') || switches.has(JSON.stringify(link))) continue;
          const pathname = new URL(link.href, ORIGIN).pathname;
          const twin = twinOf.get(pathname);
          if (langOf(pathname) === page.lang || !twin) continue;
          const problem = `${link.href} instead of ${twin}`;
          wrong.set(problem, (wrong.get(problem) ?? new Set()).add(page.route));
        }
      }
      expect([...wrong].map(([problem, routes]) => `${problem} on ${routes.size} page(s): ${[...routes].join(', ')}`)).toEqual([]);
    });

    it('every link from a page to a page of the other language says so with hreflang', () => {
      /** "href without hreflang" → the pages that have such a link. */
      const wrong = new Map<string, Set<string>>();
      for (const page of pages) {
        for (const link of page.links) {
          if (!link.href.startsWith('/') || link.href.startsWith('//')) continue;
          const to = langOf(new URL(link.href, ORIGIN).pathname);
          if (to === page.lang || link.hreflang === to) continue;
          const problem = `${link.href} without hreflang="${to}"`;
          wrong.set(problem, (wrong.get(problem) ?? new Set()).add(page.route));
        }
      }
      expect([...wrong].map(([problem, routes]) => `${problem} on ${routes.size} page(s): ${[...routes].join(', ')}`)).toEqual([]);
    });
  });
});

// ── The content check of a translation ─────────────────────────────────────────────────────────

/** The 1-based line of the first line of `text` that contains `needle`. */
function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((l) => l.includes(needle));
  if (index < 0) throw new Error(`"${needle}" is not in the file`);
  return index + 1;
}

/** Rewrites a file of the content copy; the replacement must change it. */
async function edit(contentDir: string, file: string, change: (text: string) => string): Promise<string> {
  const full = path.join(contentDir, file);
  const before = await readFile(full, 'utf8');
  const after = change(before);
  expect(after, `the edit of ${file} changed nothing`).not.toBe(before);
  await writeFile(full, after);
  return after;
}

/** `file:line:column path: message` then the hint, as `npm run check` prints it. */
const located = (file: string, line: number, rest: string) => new RegExp(`^${file.replace(/[.]/g, '\\.')}:${line}:\\d+ ${rest}\\n    hint: \\S`);
/** Any line, for a problem of the whole file. */
const anyLine = (file: string, rest: string) => new RegExp(`^${file.replace(/[.]/g, '\\.')}:\\d+:\\d+ ${rest}\\n    hint: \\S`);

describe('the content check of a translation against its English twins', () => {
  it('the real content passes it', async () => {
    await withTempDir('es-check-', async (dir) => {
      expect(await problems(await contentCopy(dir))).toEqual([]);
    });
  });

  it('a Spanish file whose English twin is missing', async () => {
    await withTempDir('es-check-', async (dir) => {
      const content = await contentCopy(dir);
      await cp(path.join(content, 'es/cities/fremont.yaml'), path.join(content, 'es/cities/milpitas.yaml'));
      const found = await problems(content);
      expect(found).toHaveLength(1);
      expect(found[0]).toContain('content/es/cities/milpitas.yaml');
      expect(found[0]).toContain('no English twin content/cities/milpitas.yaml');
      expect(found[0]).toMatch(/\n    hint: .*create content\/cities\/milpitas\.yaml/);
      // With the line, as every problem the check reports in a file that is there.
      expect(found[0]).toMatch(anyLine('content/es/cities/milpitas.yaml', 'no English twin content/cities/milpitas\\.yaml'));
    });
  });

  it('a city with four FAQs in English and three in Spanish', async () => {
    await withTempDir('es-check-', async (dir) => {
      const content = await contentCopy(dir);
      const english = await readFile(path.join(content, 'cities/san-jose.yaml'), 'utf8');
      expect(english.match(/^ {4}- question:/gm)).toHaveLength(4);
      const spanish = await edit(content, 'es/cities/san-jose.yaml', (t) => t.replace(/\n {4}- question: [^\n]*\n {6}answer: [^\n]*(?=\n|$)/, ''));
      expect(spanish.match(/^ {4}- question:/gm)).toHaveLength(3);
      const found = await problems(content);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(located('content/es/cities/san-jose.yaml', lineOf(spanish, '  faqs:') + 1, 'page\\.faqs: .*3 items here and 4 in content/cities/san-jose\\.yaml'));
    });
  });

  it('a text left in English', async () => {
    await withTempDir('es-check-', async (dir) => {
      const content = await contentCopy(dir);
      const heading = (await readYaml('contact.yaml')).heading as string;
      expect(heading.split(' ').length).toBeGreaterThanOrEqual(4);
      const spanish = await edit(content, 'es/contact.yaml', (t) => t.replace(/^heading: .*$/m, `heading: ${heading}`));
      const found = await problems(content);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(located('content/es/contact.yaml', lineOf(spanish, 'heading:'), 'heading: .*not translated.*content/contact\\.yaml'));
    });
  });

  it('a fact that differs: the phone number shown', async () => {
    await withTempDir('es-check-', async (dir) => {
      const content = await contentCopy(dir);
      const phone = (await readYaml('site.yaml')).phone.display as string;
      const spanish = await edit(content, 'es/site.yaml', (t) => t.replace(`display: ${phone}`, `display: ${phone.replace(/\d$/, (d) => String((Number(d) + 1) % 10))}`));
      const found = await problems(content);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(located('content/es/site.yaml', lineOf(spanish, `  display: ${phone.slice(0, -1)}`), `phone\\.display: .*"\\(408\\) 555-018\\d" in content/site\\.yaml`));
    });
  });

  it('a fact that differs: a price in a text (the discount\'s $25 written $30)', async () => {
    await withTempDir('es-check-', async (dir) => {
      const content = await contentCopy(dir);
      expect((await readYaml('forms.yaml')).discount.title).toContain('$25');
      const spanish = await edit(content, 'es/forms.yaml', (t) => t.replace(/^( {2}title: [^\n]*)\$25/m, '$1$30'));
      expect(spanish).toContain('$30');
      const found = await problems(content);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(located('content/es/forms.yaml', lineOf(spanish, '$30'), 'discount\\.title: .*'));
    });
  });

  it('an article in content/es/ (articles are published in English only)', async () => {
    await withTempDir('es-check-', async (dir) => {
      const content = await contentCopy(dir);
      const [article] = (await readdir(path.join(content, 'articles'))).filter((f) => f.endsWith('.md'));
      await mkdir(path.join(content, 'es/articles'));
      await cp(path.join(content, 'articles', article!), path.join(content, 'es/articles', article!));
      const found = await problems(content);
      expect(found).toHaveLength(1);
      expect(found[0]).toContain(`content/es/articles/${article}`);
      expect(found[0]).toMatch(/English only\n    hint: remove the file/);
      expect(found[0]).toMatch(anyLine(`content/es/articles/${article}`, '.*English only'));
    });
  });

  it('a Spanish service without its own slug', async () => {
    await withTempDir('es-check-', async (dir) => {
      const content = await contentCopy(dir);
      await edit(content, 'es/services/move-in-out-cleaning.yaml', (t) => t.replace(/^slug: .*\n/m, ''));
      const found = await problems(content);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(located('content/es/services/move-in-out-cleaning.yaml', 1, 'slug: a translated service needs its own path'));
    });
  });

  it('an English service with a slug (its path is its file name)', async () => {
    await withTempDir('es-check-', async (dir) => {
      const content = await contentCopy(dir);
      const english = await edit(content, 'services/deep-cleaning-san-francisco.yaml', (t) => t.replace(/^name: /m, 'slug: deep-cleaning\nname: '));
      const found = await problems(content);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(located('content/services/deep-cleaning-san-francisco.yaml', lineOf(english, 'slug:'), 'slug: an English service\'s path is its file name'));
    });
  });

  it('a build of a translation with a problem fails with it and leaves the previous dist/ exactly as it was', async () => {
    await withTempDir('es-build-', async (dir) => {
      const content = await contentCopy(path.join(dir, 'project'));
      const outDir = path.join(dir, 'dist');
      await build({ root: ROOT, contentDir: content, outDir, siteUrl: ORIGIN, skipIslands: true, now: SHARED_BUILD_NOW });
      const before = await treeDigest(outDir);
      expect([...before.keys()]).toEqual(expect.arrayContaining(['es.html', 'es/contacto.html', 'es/404.html']));

      await edit(content, 'es/cities/san-jose.yaml', (t) => t.replace(/\n {4}- question: [^\n]*\n {6}answer: [^\n]*(?=\n|$)/, ''));
      const error = await build({ root: ROOT, contentDir: content, outDir, siteUrl: ORIGIN, skipIslands: true, now: SHARED_BUILD_NOW }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ContentErrors);
      expect((error as ContentErrors).errors.map(formatError)).toEqual([expect.stringMatching(/^content\/es\/cities\/san-jose\.yaml:\d+:\d+ page\.faqs: /)]);
      expect(await treeDigest(outDir)).toEqual(before);
      expect((await readdir(dir)).sort()).toEqual(['dist', 'project']);
    });
  });
});
