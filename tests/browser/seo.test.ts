/**
 * What a crawler finds on the built site: a unique title and description per page, canonical URLs
 * that are exactly the sitemap's, a robots.txt naming the sitemap, and no broken internal link,
 * asset or #anchor anywhere in dist/ (pages and stylesheets).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalProblems } from '../../tools/builtSite.js';
import { distPages, servedFile, sitemapUrls } from '../helpers/dist.js';
import { collectPageFacts, type PageFacts } from '../helpers/pageFacts.js';
import { useBrowser, useSite } from '../helpers/site.js';

const ORIGIN = 'https://www.bayshinecleaning.com'; // tests/globalSetup.ts builds with this SITE_URL

describe('search engines', () => {
  const site = useSite();
  const browser = useBrowser();
  let pages: PageFacts[];
  let sitemapXml: string;
  let sitemap: string[];
  let robots: string;

  beforeAll(async () => {
    const routes = (await distPages(site.dist)).map((p) => p.route);
    pages = await collectPageFacts(browser, site.url, routes);
    sitemapXml = await (await fetch(`${site.url}/sitemap.xml`)).text();
    sitemap = sitemapUrls(sitemapXml);
    robots = await (await fetch(`${site.url}/robots.txt`)).text();
  }, 120_000);

  const indexable = () => pages.filter((p) => !/noindex/i.test(p.robots ?? ''));

  it('every page has exactly one non-empty title, description and canonical', () => {
    const problems = pages.flatMap((p) => [
      ...(p.titles.length === 1 && p.titles[0]!.trim() ? [] : [`${p.route}: ${p.titles.length} titles`]),
      ...(p.descriptions.length === 1 && p.descriptions[0]!.trim() ? [] : [`${p.route}: ${p.descriptions.length} meta descriptions`]),
      ...(p.canonicals.length === 1 || /noindex/.test(p.robots ?? '') ? [] : [`${p.route}: ${p.canonicals.length} canonical links`]),
    ]);
    expect(problems).toEqual([]);
  });

  it('titles and meta descriptions are unique across pages', () => {
    const duplicates = (pick: (p: PageFacts) => string) => {
      const seen = new Map<string, string[]>();
      for (const p of pages) seen.set(pick(p), [...(seen.get(pick(p)) ?? []), p.route]);
      return [...seen].filter(([, routes]) => routes.length > 1).map(([value, routes]) => `"${value}" on ${routes.join(', ')}`);
    };
    expect(duplicates((p) => p.titles[0] ?? ''), 'duplicate titles').toEqual([]);
    expect(duplicates((p) => p.descriptions[0] ?? ''), 'duplicate descriptions').toEqual([]);
  });

  it('titles and descriptions have lengths search results show whole', () => {
    const problems = indexable().flatMap((p) => {
      const t = p.titles[0] ?? '';
      const d = p.descriptions[0] ?? '';
      return [
        ...(t.length >= 10 && t.length <= 70 ? [] : [`${p.route}: title has ${t.length} characters: ${t}`]),
        ...(d.length >= 50 && d.length <= 170 ? [] : [`${p.route}: description has ${d.length} characters: ${d}`]),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('each canonical URL is the page\'s own clean address on the production origin; the sitemap lists exactly those of the indexable pages, and robots.txt names it', () => {
    // tools/builtSite.ts, which the content gate runs too
    expect(canonicalProblems(pages, sitemapXml, robots, ORIGIN)).toEqual([]);
    expect(sitemap.length).toBe(indexable().length);
    const noindex = pages.filter((p) => /noindex/.test(p.robots ?? '')).map((p) => p.route);
    expect(noindex, 'the 404 page is kept out of the index').toContain('/404');
  });

  it('the shared check refuses a wrong canonical URL, a page missing from the sitemap and a stray sitemap entry', () => {
    const page = (route: string, canonicals: string[]) => ({ route, robots: null, canonicals });
    const xml = `<urlset><url><loc>${ORIGIN}/</loc></url><url><loc>${ORIGIN}/gone</loc></url></urlset>`;
    expect(canonicalProblems([page('/', [`${ORIGIN}/`]), page('/a', [`${ORIGIN}/b`]), page('/c', [`${ORIGIN}/c`])], xml, `Sitemap: ${ORIGIN}/sitemap.xml\n`, ORIGIN)).toEqual([
      `/a: canonical URL ${ORIGIN}/b, expected ${ORIGIN}/a`,
      `sitemap.xml lists ${ORIGIN}/gone, which is no indexable page`,
      `sitemap.xml does not list ${ORIGIN}/a`,
      `sitemap.xml does not list ${ORIGIN}/c`,
    ]);
  });

  it('robots.txt allows crawling and names the sitemap by its absolute URL', () => {
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).not.toMatch(/^Disallow: \/\s*$/m);
    const named = [...robots.matchAll(/^Sitemap: (\S+)$/gm)].map((m) => m[1]);
    expect(named).toEqual([`${ORIGIN}/sitemap.xml`]);
  });

  it('every internal link, asset and #anchor on every page resolves, without a redirect', () => {
    const idsByRoute = new Map(pages.map((p) => [p.route, new Set(p.ids)]));
    const problems: string[] = [];
    let checked = 0;
    for (const page of pages) {
      const base = new URL(page.route, ORIGIN);
      for (const ref of page.refs) {
        if (!ref.raw || /^(mailto|tel|sms|javascript|data):/i.test(ref.raw)) continue;
        let url: URL;
        try {
          url = new URL(ref.raw, base);
        } catch {
          problems.push(`${page.route} ${ref.where}="${ref.raw}": not a URL`);
          continue;
        }
        if (url.origin !== ORIGIN) continue; // external: the CSP test covers the hosts the pages load from
        checked++;
        const where = `${page.route} ${ref.where}="${ref.raw}"`;
        if (url.pathname !== '/' && (url.pathname.endsWith('/') || url.pathname.endsWith('.html'))) {
          problems.push(`${where}: redirects to the clean URL (link to it directly)`);
          continue;
        }
        const file = servedFile(site.dist, decodeURIComponent(url.pathname));
        if (!file) {
          problems.push(`${where}: ${url.pathname} does not exist`);
          continue;
        }
        if (url.hash.length > 1) {
          const id = decodeURIComponent(url.hash.slice(1));
          const targetRoute = url.pathname;
          const ids = idsByRoute.get(targetRoute);
          if (!ids) problems.push(`${where}: #${id} points into ${targetRoute}, which is not a page`);
          else if (!ids.has(id)) problems.push(`${where}: no element with id "${id}" on ${targetRoute}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(pages.length * 10);
    expect(problems.length, problems.join('\n')).toBe(0);
  });

  it('every id on a page is unique, so each #anchor has one target', () => {
    const problems = pages.flatMap((p) => {
      const dupes = p.ids.filter((id, i) => p.ids.indexOf(id) !== i);
      return dupes.length ? [`${p.route}: ${[...new Set(dupes)].join(', ')}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it('every url() in the stylesheets resolves', async () => {
    const cssFiles = [...new Set(pages.flatMap((p) => p.refs.filter((r) => r.where === 'link[href]' && r.raw.endsWith('.css')).map((r) => r.raw)))];
    expect(cssFiles.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const css of cssFiles) {
      const text = await readFile(path.join(site.dist, css), 'utf8');
      for (const [, raw] of text.matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/g)) {
        if (/^(data:|#|https?:)/.test(raw!)) continue;
        const url = new URL(raw!, ORIGIN + css);
        if (!servedFile(site.dist, url.pathname)) problems.push(`${css}: url(${raw}) does not exist`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('unknown addresses answer 404 with the not-found page, which is kept out of the index', async () => {
    const res = await fetch(`${site.url}/no-such-page`);
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/<meta name="robots" content="noindex/);
  });
});
