/** The generator's promises to the people who edit content and to visitors. */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../generator/build.js';
import { listContentFiles } from '../../generator/load.js';
import { schemaFilesWithReference } from '../../generator/model/jsonSchemas.js';
import { contentCopy, ROOT, tempDir, treeDigest } from '../helpers/content.js';

const run = promisify(execFile);
const ORIGIN = 'https://www.bayshinecleaning.com';

function jsonLd(html: string): { '@graph': Record<string, any>[] } {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  if (!match) throw new Error('no JSON-LD on the page');
  return JSON.parse(match[1]!);
}

const sitemapUrls = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

describe('a full build', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let dist: string;
  beforeAll(async () => {
    tmp = await tempDir('build-');
    dist = path.join(tmp.dir, 'dist');
    await build({ root: ROOT, outDir: dist, siteUrl: ORIGIN });
  });
  afterAll(() => tmp.remove());

  it('writes every spec route at its clean path, plus the host files', async () => {
    const files = new Set((await readdir(dist, { recursive: true })).map((f) => f.split(path.sep).join('/')));
    const routes = [
      'index.html', 'services.html', 'locations.html', 'checklist.html', 'contact.html', 'customer-login.html', 'book-online.html',
      'privacy-policy.html', 'terms-of-service.html', 'deep-cleaning-san-francisco.html', 'routine-cleaning-bay-area.html',
      'move-in-out-cleaning.html', 'post-construction-cleaning.html', 'commercial-janitorial-services.html', '404.html',
      ...['atherton', 'belmont', 'brisbane', 'burlingame', 'campbell', 'colma', 'cupertino', 'daly-city', 'san-jose', 'palo-alto']
        .map((c) => `locations/deep-cleaning-${c}-ca.html`),
      'sitemap.xml', 'robots.txt', '_headers', '_redirects',
    ];
    for (const file of routes) expect(files, file).toContain(file);
    expect([...files].filter((f) => f.startsWith('locations/'))).toHaveLength(10);
    expect([...files].filter((f) => /^assets\/site-[\w]+\.css$/.test(f))).toHaveLength(1);
  });

  it('lists every page in the sitemap (the 404 page excepted), with canonical URLs matching the pages', async () => {
    const urls = sitemapUrls(await readFile(path.join(dist, 'sitemap.xml'), 'utf8'));
    const htmlFiles = (await readdir(dist, { recursive: true })).map((f) => f.split(path.sep).join('/')).filter((f) => f.endsWith('.html') && f !== '404.html');
    expect(urls).toHaveLength(htmlFiles.length);
    for (const file of htmlFiles) {
      const html = await readFile(path.join(dist, file), 'utf8');
      const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
      expect(urls, file).toContain(canonical);
    }
    expect(urls).toContain(`${ORIGIN}/`);
    expect(urls).toContain(`${ORIGIN}/locations/deep-cleaning-colma-ca`);
    expect(await readFile(path.join(dist, 'robots.txt'), 'utf8')).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });

  it('gives a city page its title, description, canonical URL and LocalBusiness, Service and BreadcrumbList data', async () => {
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
      areaServed: [{ '@type': 'City', name: 'Palo Alto' }],
    });
    expect(business.description).toEqual(expect.any(String));
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
    const htmlFiles = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith('.html'));
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

  it('ships no JavaScript on pages without widgets', async () => {
    for (const file of ['services.html', 'locations.html', 'privacy-policy.html', 'terms-of-service.html', 'customer-login.html', 'book-online.html']) {
      const html = await readFile(path.join(dist, file), 'utf8');
      expect(html, file).not.toContain('<script type="module"');
    }
    for (const file of ['index.html', 'contact.html', 'checklist.html', 'locations/deep-cleaning-colma-ca.html']) {
      expect(await readFile(path.join(dist, file), 'utf8'), file).toMatch(/<script type="module" src="\/assets\/entry-[\w-]+\.js">/);
    }
  });

  it('builds byte-identical output from the same input', async () => {
    const again = path.join(tmp.dir, 'again');
    await build({ root: ROOT, outDir: again, siteUrl: ORIGIN });
    expect(await treeDigest(again)).toEqual(await treeDigest(dist));
  });
});

describe('adding a city', () => {
  it('npm run new-city writes a file that builds: a card on /locations, its page, the sitemap and areaServed', async () => {
    const { dir, remove } = await tempDir('new-city-');
    try {
      const contentDir = await contentCopy(dir);
      const { stdout } = await run('npx', ['tsx', 'generator/cli.ts', 'new-city', 'Mountain View'], { cwd: ROOT, env: { ...process.env, CONTENT_DIR: contentDir } });
      expect(stdout).toContain('Wrote');
      const yaml = await readFile(path.join(contentDir, 'cities/mountain-view.yaml'), 'utf8');
      expect(yaml.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/city.schema.json');

      const dist = path.join(dir, 'dist');
      await build({ root: ROOT, contentDir, outDir: dist, siteUrl: ORIGIN, skipIslands: true });
      const locations = await readFile(path.join(dist, 'locations.html'), 'utf8');
      expect(locations).toContain('Mountain View');
      expect(locations).toContain('href="/locations/deep-cleaning-mountain-view-ca"');
      expect(locations.match(/Explore Location/g)).toHaveLength(20);
      const page = await readFile(path.join(dist, 'locations/deep-cleaning-mountain-view-ca.html'), 'utf8');
      expect(page).toContain('Deep Cleaning Services in Mountain View, CA');
      expect(sitemapUrls(await readFile(path.join(dist, 'sitemap.xml'), 'utf8'))).toContain(`${ORIGIN}/locations/deep-cleaning-mountain-view-ca`);
      const home = jsonLd(await readFile(path.join(dist, 'index.html'), 'utf8'))['@graph'][0]!;
      expect(home.areaServed).toContainEqual({ '@type': 'City', name: 'Mountain View' });
      expect(await readFile(path.join(dist, 'routine-cleaning-bay-area.html'), 'utf8')).toContain('Mountain View');
    } finally {
      await remove();
    }
  });

  it('a city file without page content gets a card that links to /book-online and no page', async () => {
    const { dir, remove } = await tempDir('card-city-');
    try {
      const contentDir = await contentCopy(dir);
      const { writeFile } = await import('node:fs/promises');
      await writeFile(path.join(contentDir, 'cities/milpitas.yaml'), 'name: Milpitas\npopulation: "~80,000"\ndescription: Homes near the Great Mall.\n');
      const dist = path.join(dir, 'dist');
      await build({ root: ROOT, contentDir, outDir: dist, skipIslands: true });
      const locations = await readFile(path.join(dist, 'locations.html'), 'utf8');
      const card = /<li[\s>](?:(?!<\/li>)[\s\S])*Milpitas(?:(?!<\/li>)[\s\S])*<\/li>/.exec(locations)?.[0] ?? '';
      expect(card).toContain('href="/book-online"');
      expect((await readdir(path.join(dist, 'locations'))).some((f) => f.includes('milpitas'))).toBe(false);
    } finally {
      await remove();
    }
  });
});

describe('editor support', () => {
  it('the committed JSON Schemas and content reference are the ones the content model generates', async () => {
    for (const [name, json] of await schemaFilesWithReference()) {
      expect(await readFile(path.join(ROOT, 'content/schemas', name), 'utf8'), `${name} is stale: run npm run schemas`).toBe(json);
    }
  });

  it('every YAML content file names its schema for the editor', async () => {
    const files = (await listContentFiles(path.join(ROOT, 'content'))).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) {
      const first = (await readFile(path.join(ROOT, 'content', file), 'utf8')).split('\n')[0];
      expect(first, file).toMatch(/^# yaml-language-server: \$schema=(\.\.?\/)?schemas\/[\w-]+\.schema\.json$/);
    }
  });
});
