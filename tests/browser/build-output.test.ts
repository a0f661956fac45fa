/**
 * What the full build of the real site writes (the shared build of tests/globalSetup.ts, read as
 * files): every page at its clean path, the sitemap, titles, descriptions and JSON-LD, JavaScript only
 * where a widget needs it, and the same bytes from the same input.
 */
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { build } from '../../generator/build.js';
import { fileForRoute } from '../../contracts/routes.js';
import { SHARED_BUILD_NOW, SHARED_BUILD_NOW_ISO } from '../helpers/buildNow.js';
import { ROOT, tempDir, treeDigest } from '../helpers/content.js';
import { canonicalProblems, PAGE_JS_BUDGET, pageHead, pictureProblems, scriptProblems } from '../../tools/builtSite.js';
import { distPages, jsonLd, sitemapUrls } from '../helpers/dist.js';
import { siteRoutes } from '../helpers/routes.js';

const ORIGIN = 'https://www.bayshinecleaning.com'; // tests/globalSetup.ts builds with this SITE_URL

describe('the full build of the real site', () => {
  const dist = inject('siteDist');

  it('writes every spec route at its clean path, plus the host files', async () => {
    const files = new Set((await readdir(dist, { recursive: true })).map((f) => f.split(path.sep).join('/')));
    const { model } = await siteRoutes();
    const routes = [
      'index.html', 'services.html', 'locations.html', 'checklist.html', 'contact.html', 'customer-login.html', 'book-online.html', '404.html',
      ...[...model.services, ...model.legal].map((p) => fileForRoute(p.route)),
      ...model.cities.flatMap((c) => (c.route ? [fileForRoute(c.route)] : [])),
      'sitemap.xml', 'robots.txt', '_headers', '_redirects',
    ];
    for (const file of routes) expect(files, file).toContain(file);
    expect([...files].filter((f) => f.startsWith('locations/'))).toHaveLength(10);
    expect([...files].filter((f) => /^assets\/site-[\w]+\.css$/.test(f))).toHaveLength(1);
  });

  it('lists every page in the sitemap (the 404 page excepted), with canonical URLs matching the pages', async () => {
    const pages = await distPages(dist);
    const heads = await Promise.all(pages.map(async (p) => pageHead(p.route, await readFile(path.join(dist, p.file), 'utf8'))));
    const sitemap = await readFile(path.join(dist, 'sitemap.xml'), 'utf8');
    const robots = await readFile(path.join(dist, 'robots.txt'), 'utf8');
    expect(canonicalProblems(heads, sitemap, robots, ORIGIN)).toEqual([]);
    const urls = sitemapUrls(sitemap);
    expect(urls).toHaveLength(pages.filter((p) => !p.file.endsWith('404.html')).length);
    expect(urls).toContain(`${ORIGIN}/`);
    expect(urls).toContain(`${ORIGIN}/locations/deep-cleaning-colma-ca`);
  });

  it('fetches a city page\'s hero first: preloaded from the head at high priority, its own file (cached across pages), not inlined', async () => {
    const html = await readFile(path.join(dist, 'locations/deep-cleaning-palo-alto-ca.html'), 'utf8');
    const hero = /<img [^>]*fetchPriority="high"[^>]*>/.exec(html)?.[0] ?? '';
    const src = / src="(\/assets\/img\/[^"]+\.svg)"/.exec(hero)?.[1];
    expect(src).toBeDefined();
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(`<link rel="preload" as="image" href="${src}" fetchPriority="high"/>`);
    expect(html).not.toContain('data:image/svg+xml,');
  });

  it('gives a city page its title, description, canonical URL, the site-wide business node, and its city in the Service node', async () => {
    const html = await readFile(path.join(dist, 'locations/deep-cleaning-palo-alto-ca.html'), 'utf8');
    expect(html).toContain('<title>Deep Cleaning Services in Palo Alto, CA | Bay Shine Cleaning</title>');
    expect(html).toMatch(/<meta name="description" content="[^"]{50,}"/);
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/locations/deep-cleaning-palo-alto-ca"`);
    const graph = jsonLd(html)['@graph'];
    const business = graph.find((n) => n['@type'] === 'HomeAndConstructionBusiness')!;
    expect(business).toMatchObject({
      name: 'Bay Shine Cleaning',
      url: `${ORIGIN}/`,
      telephone: '+14085550186',
      address: { '@type': 'PostalAddress', addressRegion: 'CA', addressLocality: 'San Jose' },
    });
    // One entity with one set of facts: the node is the home page's, to the last field.
    const homeBusiness = jsonLd(await readFile(path.join(dist, 'index.html'), 'utf8'))['@graph'].find((n) => n['@type'] === 'HomeAndConstructionBusiness');
    expect(business).toEqual(homeBusiness);
    const service = graph.find((n) => n['@type'] === 'Service')!;
    expect(service).toMatchObject({ name: 'Deep Cleaning Services in Palo Alto, CA', provider: { '@id': business['@id'] }, areaServed: [{ name: 'Palo Alto' }] });
    const crumbs = graph.find((n) => n['@type'] === 'BreadcrumbList')!;
    expect(crumbs.itemListElement.map((i: { item: string }) => i.item)).toEqual([`${ORIGIN}/`, `${ORIGIN}/locations`, `${ORIGIN}/locations/deep-cleaning-palo-alto-ca`]);
  });

  it('serializes JSON-LD so that no text can close the script element', async () => {
    const html = await readFile(path.join(dist, 'index.html'), 'utf8');
    const script = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(script).not.toMatch(/[<>]/);
    expect(jsonLd(html)['@graph'][0]!.areaServed).toHaveLength(35);
  });

  it('gives every page its own title and meta description', async () => {
    const htmlFiles = (await distPages(dist)).map((p) => p.file);
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const file of htmlFiles) {
      const html = await readFile(path.join(dist, file), 'utf8');
      titles.add(/<title>([^<]+)<\/title>/.exec(html)![1]!);
      descriptions.add(/<meta name="description" content="([^"]+)"/.exec(html)![1]!);
    }
    expect(titles.size).toBe(htmlFiles.length);
    expect(descriptions.size).toBe(htmlFiles.length);
  });

  it('keeps the one inline script (the font loader, with the visit\'s touches) small', async () => {
    const html = await readFile(path.join(dist, 'services.html'), 'utf8');
    const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(1);
    expect(inline[0]).toContain('localStorage.firstTouch');
    expect(Buffer.byteLength(inline[0]!)).toBeLessThanOrEqual(2048);
  });

  it('ships no JavaScript on pages without widgets', async () => {
    for (const file of ['services.html', 'locations.html', 'privacy-policy.html', 'terms-of-service.html', 'customer-login.html', 'book-online.html']) {
      const html = await readFile(path.join(dist, file), 'utf8');
      expect(html, file).not.toContain('<script type="module"');
    }
    for (const file of ['index.html', 'contact.html', 'checklist.html', 'locations/deep-cleaning-colma-ca.html']) {
      expect(await readFile(path.join(dist, file), 'utf8'), file).toMatch(/<script type="module" src="\/assets\/entry-[\w-]+\.js" fetchPriority="low">/);
    }
  });

  it(`keeps the JavaScript each page loads at first within ${PAGE_JS_BUDGET / 1024} KiB (gzip), every script it names existing`, async () => {
    const pages = await distPages(dist);
    expect(await scriptProblems(dist, pages)).toEqual([]);
    // The check measures: the home page's own scripts are over a budget of 1 KiB.
    expect(await scriptProblems(dist, pages.filter((p) => p.route === '/'), 1024)).toEqual([expect.stringMatching(/^\/: loads \d+\.\d KiB of JavaScript \(gzip\) at first, over the budget of 1 KiB$/)]);
  });

  it('names only pictures that exist, each <img> with alt text, width and height', async () => {
    expect(await pictureProblems(dist, await distPages(dist), ORIGIN)).toEqual([]);
  });

  it('says what it was built from at /build.json: the commit and its time, and the "now" it published at, no more, revalidated on every request, in no sitemap', async () => {
    const info = JSON.parse(await readFile(path.join(dist, 'build.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(info)).toEqual(['commit', 'time', 'now']);
    expect(info.now).toBe(SHARED_BUILD_NOW_ISO);
    expect(info.commit).toBe(process.env.GITHUB_SHA ?? execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim());
    expect(info.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    expect(await readFile(path.join(dist, '_headers'), 'utf8')).toContain('\n/build.json\n  Cache-Control: public, max-age=0, must-revalidate\n');
    expect(await readFile(path.join(dist, 'sitemap.xml'), 'utf8')).not.toContain('build.json');
  });

  it('builds byte-identical output from the same input', async () => {
    const tmp = await tempDir('build-again-');
    try {
      const again = path.join(tmp.dir, 'dist');
      await build({ root: ROOT, outDir: again, siteUrl: ORIGIN, webhookUrl: inject('hookUrl'), now: SHARED_BUILD_NOW }); // as tests/globalSetup.ts
      expect(await treeDigest(again)).toEqual(await treeDigest(dist));
    } finally {
      await tmp.remove();
    }
  });
});
