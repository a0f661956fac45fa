/**
 * A warm build takes a city file it knew from the last build (same bytes, same code, same rest of
 * the content) without reading it again (generator/cache/collectionMemo.ts). Whatever changed must still show:
 * an edited city, a city made invalid, an image a city uses removed, an edit elsewhere in the
 * content that city pages show. Each warm build's dist/ is byte-identical to a cold build's.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticCities } from '../../bench/synthetic.js';
import { build } from '../../generator/build.js';
import { ContentErrors, formatError } from '../../contracts/validate/errors.js';
import { SHARED_BUILD_NOW } from '../helpers/buildNow.js';
import { contentCopy, tempDir, treeDigest } from '../helpers/content.js';
import { projectCopy } from './projectCopy.js';

const ORIGIN = 'https://www.example.com';
const PAGE = 'locations/deep-cleaning-benchville-3-ca.html';

describe('a warm build and the city files it knew', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let root = '';
  let contentDir = '';
  const dist = () => path.join(tmp.dir, 'dist');
  const warm = () => build({ root, contentDir, outDir: dist(), siteUrl: ORIGIN, skipIslands: true, now: SHARED_BUILD_NOW });
  /** The same content built with no memory of the city files: what the warm build must equal. */
  const cold = async () => {
    await rm(path.join(root, '.cache', 'collections'), { recursive: true, force: true });
    const outDir = path.join(tmp.dir, 'cold');
    await build({ root, contentDir, outDir, siteUrl: ORIGIN, skipIslands: true, now: SHARED_BUILD_NOW });
    return treeDigest(outDir);
  };
  const edit = async (rel: string, change: (text: string) => string) => {
    const at = path.join(contentDir, rel);
    await writeFile(at, change(await readFile(at, 'utf8')));
  };
  const failure = async () => {
    const error = await warm().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ContentErrors);
    return (error as ContentErrors).errors.map(formatError).join('\n');
  };

  beforeAll(async () => {
    tmp = await tempDir('city-memo-');
    root = await projectCopy(path.join(tmp.dir, 'project'), { lockfile: true });
    contentDir = await contentCopy(path.join(tmp.dir, 'site'));
    await writeSyntheticCities(contentDir, 5);
    await warm();
    await warm();
  });
  afterAll(() => tmp?.remove());

  it('shows an edited city file, and the other pages are those of a cold build', async () => {
    await edit(`cities/benchville-3.yaml`, (t) => t.replace(/^ {2}tagline: .*$/m, '  tagline: A tagline edited between two builds.'));
    await warm();
    expect(await readFile(path.join(dist(), PAGE), 'utf8')).toContain('A tagline edited between two builds.');
    const warmTree = await treeDigest(dist());
    expect(warmTree).toEqual(await cold());
  });

  it('shows an edit elsewhere in the content on every city page', async () => {
    await warm();
    // A text of the city pages alone (not of the header or footer, which every page shares).
    await edit('locations.yaml', (t) => t.replace('relatedHeading: "Related Services in {city}"', 'relatedHeading: "More services around {city}"'));
    await warm();
    for (const [page, city] of [[PAGE, 'Benchville 3'], ['locations/deep-cleaning-campbell-ca.html', 'Campbell']]) {
      expect(await readFile(path.join(dist(), page!), 'utf8')).toContain(`More services around ${city}`);
    }
    expect(await treeDigest(dist())).toEqual(await cold());
  });

  it('reports a known city file made invalid, and the removal of an image a known city uses', async () => {
    await warm();
    await edit('cities/benchville-2.yaml', (t) => t.replace(/^description: .*$/m, 'description:'));
    expect(await failure()).toMatch(/cities\/benchville-2\.yaml:\d+.*description/);
    await edit('cities/benchville-2.yaml', (t) => t.replace(/^description:$/m, 'description: Back again.'));
    await warm();
    await rm(path.join(contentDir, 'images', 'cities', 'campbell.svg'));
    expect(await failure()).toContain('image cities/campbell.svg does not exist');
  });
});
