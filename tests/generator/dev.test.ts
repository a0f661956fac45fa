/** npm run dev: a saved content file updates its page, and only the pages it touches. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevSession, type DevUpdate } from '../../generator/dev.js';
import { contentCopy, ROOT, tempDir } from '../helpers/content.js';

describe('the dev session', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let contentDir: string;
  let outDir: string;
  let session: DevSession;
  let stopWatching: () => void;
  let next: ((u: DevUpdate) => void) | undefined;
  const nextUpdate = () => new Promise<DevUpdate>((resolve) => { next = resolve; });

  beforeAll(async () => {
    tmp = await tempDir('dev-');
    contentDir = await contentCopy(tmp.dir);
    outDir = path.join(tmp.dir, 'dist');
    session = new DevSession({ root: ROOT, contentDir, outDir, skipIslands: true }, (u) => next?.(u));
    const first = await session.start();
    expect(first.errors).toEqual([]);
    stopWatching = session.watch();
  });
  afterAll(async () => {
    stopWatching();
    await session.close();
    await tmp.remove();
  });

  it('re-renders the edited city page (and the pages that show it), not the whole site', async () => {
    const file = path.join(contentDir, 'cities/colma.yaml');
    const text = await readFile(file, 'utf8');
    const tagline = /tagline: (.*)/.exec(text)![1]!;
    const updated = nextUpdate();
    await writeFile(file, text.replace(`tagline: ${tagline}`, 'tagline: Freshly edited Colma tagline'));
    const u = await updated;
    expect(u.errors).toEqual([]);
    expect(u.pages).toBe(1);
    expect(await readFile(path.join(outDir, 'locations/deep-cleaning-colma-ca.html'), 'utf8')).toContain('Freshly edited Colma tagline');
  });

  it('reports a mistake with file and line, keeps the last good page, and recovers when fixed', async () => {
    const file = path.join(contentDir, 'cities/colma.yaml');
    const good = await readFile(file, 'utf8');
    let updated = nextUpdate();
    await writeFile(file, good.replace(/^population: .*$/m, 'population: 1500'));
    let u = await updated;
    expect(u.errors.map((e) => `${e.file}:${e.line} ${e.path}: ${e.message}`)).toEqual([expect.stringMatching(/^content\/cities\/colma\.yaml:\d+ population: expected text, got a number$/)]);
    expect(await readFile(path.join(outDir, 'locations/deep-cleaning-colma-ca.html'), 'utf8')).toContain('Freshly edited Colma tagline');

    updated = nextUpdate();
    await writeFile(file, good);
    u = await updated;
    expect(u.errors).toEqual([]);
  });

  it('refuses a file saved with an invalid UTF-8 byte, as a build does', async () => {
    const file = path.join(contentDir, 'cities/colma.yaml');
    const good = await readFile(file);
    const at = good.indexOf('Colma');
    let updated = nextUpdate();
    await writeFile(file, Buffer.concat([good.subarray(0, at + 3), Buffer.from([0xff]), good.subarray(at + 4)]));
    let u = await updated;
    expect(u.errors.map((e) => `${e.file} ${e.message}`)).toEqual(['content/cities/colma.yaml not valid UTF-8 (byte 0xFF)']);
    expect(await readFile(path.join(outDir, 'locations/deep-cleaning-colma-ca.html'), 'utf8')).not.toContain('\uFFFD');
    updated = nextUpdate();
    await writeFile(file, good);
    u = await updated;
    expect(u.errors).toEqual([]);
  });

  it('a new city file adds its card to /locations and its page', async () => {
    const updated = nextUpdate();
    await writeFile(path.join(contentDir, 'cities/milpitas.yaml'), 'name: Milpitas\npopulation: "~80,000"\ndescription: Homes near the Great Mall.\n');
    const u = await updated;
    expect(u.errors).toEqual([]);
    expect(await readFile(path.join(outDir, 'locations.html'), 'utf8')).toContain('Milpitas');
  });
});
