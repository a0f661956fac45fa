/**
 * A site with enough cities that the render workers read the city files themselves (load, validate,
 * plan, render: generator/render/collectionPages.ts): its city pages are the very bytes the main thread makes
 * for a small site, the sitemap lists them in the order of /locations, and a city file's problems
 * come back from the workers named by file and line, with the rule across cities (one name, one
 * file) still applied and the previous dist/ left as it was.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticContent } from '../../bench/synthetic.js';
import { build } from '../../generator/build.js';
import { PARALLEL_THRESHOLD } from '../../generator/render/pool.js';
import { ContentErrors, formatError } from '../../contracts/validate/errors.js';
import { contentCopy, ROOT, tempDir, treeDigest } from '../helpers/content.js';
import { distPages, sitemapUrls } from '../helpers/dist.js';

const ORIGIN = 'https://www.example.com';
/** Past the number of city files from which a build reads them in its workers. */
const CITIES = PARALLEL_THRESHOLD + 20;

describe(`a build of ${CITIES} synthetic cities, read by the render workers`, () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let contentDir = '';
  let dist = '';

  beforeAll(async () => {
    tmp = await tempDir('city-workers-');
    contentDir = await syntheticContent(ROOT, tmp.dir, CITIES);
    dist = path.join(tmp.dir, 'dist');
    await build({ root: ROOT, contentDir, outDir: dist, siteUrl: ORIGIN, skipIslands: true });
  });
  afterAll(() => tmp?.remove());

  it('writes the same city page, byte for byte, as a small site whose main thread writes it', async () => {
    const small = path.join(tmp.dir, 'small');
    const smallContent = await contentCopy(small);
    const city = 'benchville-7.yaml';
    await writeFile(path.join(smallContent, 'cities', city), await readFile(path.join(contentDir, 'cities', city)));
    await build({ root: ROOT, contentDir: smallContent, outDir: path.join(small, 'dist'), siteUrl: ORIGIN, skipIslands: true });
    const file = 'locations/deep-cleaning-benchville-7-ca.html';
    const [big, little] = await Promise.all([readFile(path.join(dist, file), 'utf8'), readFile(path.join(small, 'dist', file), 'utf8')]);
    expect(big).toContain('<h1');
    expect(big).toBe(little);
  });

  it('writes every city page and lists them in the sitemap after the other pages (before the next collection\'s), in the order of /locations', async () => {
    const routes = (await distPages(dist)).map((p) => p.route);
    const cityRoutes = routes.filter((r) => r.startsWith('/locations/deep-cleaning-'));
    // 420 synthetic cities and the real site's ten city pages.
    expect(cityRoutes).toHaveLength(CITIES + 10);
    const urls = sitemapUrls(await readFile(path.join(dist, 'sitemap.xml'), 'utf8'));
    const listed = urls.filter((u) => u.includes('/locations/deep-cleaning-'));
    expect(new Set(listed)).toEqual(new Set(cityRoutes.map((r) => ORIGIN + r)));
    // One run after the other pages, the next collection's (the articles') after it, then the Spanish site's pages.
    const first = urls.indexOf(listed[0]!);
    expect(urls.slice(first, first + listed.length)).toEqual(listed);
    const after = urls.slice(first + listed.length);
    const spanish = after.findIndex((u) => u.startsWith(`${ORIGIN}/es`));
    expect(spanish).toBeGreaterThan(0);
    expect(after.slice(0, spanish).every((u) => u.startsWith(`${ORIGIN}/articles/`))).toBe(true);
    expect(after.slice(spanish).every((u) => u.startsWith(`${ORIGIN}/es`))).toBe(true);
    // The order of the cards on /locations, page after page.
    const listPages = routes.filter((r) => r === '/locations' || r.startsWith('/locations/page/'))
      .sort((a, b) => Number(a.split('/').at(-1)) - Number(b.split('/').at(-1)) || (a === '/locations' ? -1 : 1));
    const cards: string[] = [];
    for (const route of listPages) {
      const html = await readFile(path.join(dist, `${route.slice(1)}.html`), 'utf8');
      cards.push(...[...html.matchAll(/href="(\/locations\/deep-cleaning-[^"]+)"/g)].map((m) => ORIGIN + m[1]!));
    }
    expect([...new Set(cards)]).toEqual(listed);
  });

  it("reports the workers' problems by file and line, and a name used twice, and leaves dist/ as it was", async () => {
    const broken = path.join(tmp.dir, 'broken');
    const brokenContent = path.join(broken, 'content');
    await syntheticContent(ROOT, broken, CITIES);
    const edit = async (file: string, change: (text: string) => string) => {
      const at = path.join(brokenContent, 'cities', file);
      await writeFile(at, change(await readFile(at, 'utf8')));
    };
    await edit('benchville-300.yaml', (t) => t.replace('name: Benchville 300', 'name: Benchville 301'));
    await edit('benchville-5.yaml', (t) => t.replace(/^description: .*$/m, 'description:'));
    await edit('benchville-6.yaml', (t) => t.replace(/^population: .*$/m, 'population: "~1,000'));
    const before = await treeDigest(dist);
    const error = await build({ root: ROOT, contentDir: brokenContent, outDir: dist, siteUrl: ORIGIN, skipIslands: true }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ContentErrors);
    const messages = (error as ContentErrors).errors.map(formatError);
    expect(messages).toEqual([
      expect.stringMatching(/^content\/cities\/benchville-301\.yaml:2:7 name: city "Benchville 301" is already defined in content\/cities\/benchville-300\.yaml/),
      expect.stringMatching(/^content\/cities\/benchville-5\.yaml:\d+:\d+ description: /),
      expect.stringMatching(/^content\/cities\/benchville-6\.yaml:\d+:\d+ invalid YAML: /),
    ]);
    expect(await treeDigest(dist)).toEqual(before);
  });
});
