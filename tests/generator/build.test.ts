/**
 * The generator's promises to the people who edit content. What the full build of the real site
 * writes is checked on the shared build, in tests/browser/build-output.test.ts.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { build } from '../../generator/build.js';
import { listContentFiles } from '../../generator/content/load.js';
import { schemaFilesWithReference } from '../../cli/authoring/reference.js';
import { contentCopy, ROOT, withTempDir } from '../helpers/content.js';
import { jsonLd, sitemapUrls } from '../helpers/dist.js';

const run = promisify(execFile);
const ORIGIN = 'https://www.bayshinecleaning.com';

describe('adding a city', () => {
  it('npm run new-city writes a file that builds: a card on /locations, its page, the sitemap and areaServed', async () => {
    await withTempDir('new-city-', async (dir) => {
      const contentDir = await contentCopy(dir);
      const { stdout } = await run(process.execPath, ['cli/main.mjs', 'new-city', 'Mountain View'], { cwd: ROOT, env: { ...process.env, CONTENT_DIR: contentDir } });
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
    });
  });

  it('a city file without page content gets a card that links to /book-online and no page', async () => {
    await withTempDir('card-city-', async (dir) => {
      const contentDir = await contentCopy(dir);
      const { writeFile } = await import('node:fs/promises');
      await writeFile(path.join(contentDir, 'cities/milpitas.yaml'), 'name: Milpitas\npopulation: "~80,000"\ndescription: Homes near the Great Mall.\n');
      const dist = path.join(dir, 'dist');
      await build({ root: ROOT, contentDir, outDir: dist, skipIslands: true });
      const locations = await readFile(path.join(dist, 'locations.html'), 'utf8');
      const card = /<li[\s>](?:(?!<\/li>)[\s\S])*Milpitas(?:(?!<\/li>)[\s\S])*<\/li>/.exec(locations)?.[0] ?? '';
      expect(card).toContain('href="/book-online"');
      expect((await readdir(path.join(dist, 'locations'))).some((f) => f.includes('milpitas'))).toBe(false);
    });
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
