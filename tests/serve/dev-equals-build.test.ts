/**
 * `npm run dev` is the build given the changed files: after edits of every kind (a text on every
 * page, a city added, a city removed, a service removed, a legal page changed and one removed),
 * the dist/ it leaves is byte for byte what `npm run build` writes from the same files (the build
 * stamp aside), and a page whose file is gone answers 404 under the dev server. The real command
 * runs, as a user starts it; each step waits for the line it prints once an update is written.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '../helpers/childProcess.js';
import { contentCopy, ROOT, tempDir, treeDigest } from '../helpers/content.js';

const run = promisify(execFile);

describe('npm run dev after edits', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let contentDir: string;
  let dev: ChildServer;
  const env = (distDir: string): NodeJS.ProcessEnv => ({
    ...process.env, CONTENT_DIR: contentDir, DIST_DIR: distDir, PORT: '0', HOST: '127.0.0.1',
    // A project of its own: the forms' backend is not what this compares (and no database opens).
    SUPABASE_URL: 'https://project.supabase.co', SUPABASE_ANON_KEY: 'anon-key', SOURCE_DATE_EPOCH: '1767225600',
  });
  /** Lines the dev server printed for an update of `rel` (its reason names every file it re-read). */
  const updatesOf = (rel: string) => dev.output().split('\n').filter((l) => l.includes(rel) && / pages? updated in /.test(l)).length;
  /** Makes a change, then waits for the update that re-read `rel` (a signal, not a delay). */
  async function edit(rel: string, change: () => Promise<void>): Promise<void> {
    const before = updatesOf(rel);
    await change();
    await expect.poll(() => updatesOf(rel), { timeout: 60_000, message: dev.output() }).toBeGreaterThan(before);
  }
  /** Written whole, as editors save: one event for the watcher. */
  async function save(rel: string, text: string): Promise<void> {
    const file = path.join(contentDir, rel);
    await writeFile(`${file}.saving`, text);
    await rename(`${file}.saving`, file);
  }
  const read = (rel: string) => readFile(path.join(contentDir, rel), 'utf8');

  beforeAll(async () => {
    tmp = await tempDir('dev-equals-build-');
    contentDir = await contentCopy(tmp.dir);
    dev = await startChildServer(process.execPath, ['cli/main.mjs', 'dev'], {
      cwd: ROOT, env: env(path.join(tmp.dir, 'dist')), ready: /Dev server on (http:\/\/[\d.]+:\d+)/, timeoutMs: 120_000, what: 'npm run dev',
    });
  });
  afterAll(async () => {
    await dev?.close();
    await tmp?.remove();
  });

  it('leaves the dist/ a build writes, and answers 404 for the pages it removed', { timeout: 300_000 }, async () => {
    const site = await read('site.yaml');
    await edit('site.yaml', () => save('site.yaml', site.replace('All rights reserved.', 'All rights reserved, on every page.')));
    await edit('cities/new-town.yaml', async () => save('cities/new-town.yaml', (await read('cities/colma.yaml')).replace(/^name: .*$/m, 'name: New Town')));
    // A page removed goes in both languages: a Spanish file without its English twin is an error.
    await edit('cities/colma.yaml', async () => {
      await rm(path.join(contentDir, 'es/cities/colma.yaml'));
      await rm(path.join(contentDir, 'cities/colma.yaml'));
    });
    await edit('legal/privacy-policy.md', async () => save('legal/privacy-policy.md', `${await read('legal/privacy-policy.md')}\n## A section added\n\nWritten under npm run dev.\n`));
    // A page removed with the links to it, in one save of each file: the update sees both.
    await edit('services/post-construction-cleaning.yaml', async () => {
      for (const file of ['locations.yaml', 'es/locations.yaml']) {
        await save(file, (await read(file)).replace('service: post-construction-cleaning', 'service: deep-cleaning-san-francisco'));
      }
      await rm(path.join(contentDir, 'es/services/post-construction-cleaning.yaml'));
      // The articles that link to it link elsewhere.
      for (const name of await readdir(path.join(contentDir, 'articles'))) {
        const text = await read(`articles/${name}`);
        if (text.includes('(/post-construction-cleaning)')) await save(`articles/${name}`, text.replaceAll('(/post-construction-cleaning)', '(/contact)'));
      }
      await rm(path.join(contentDir, 'services/post-construction-cleaning.yaml'));
    });
    await edit('legal/terms-of-service.md', async () => {
      await save('site.yaml', (await read('site.yaml')).replace(/ {4}- label: Terms of Service\n {6}href: \/terms-of-service\n/, ''));
      await save('es/site.yaml', (await read('es/site.yaml')).replace(/ {4}- label: [^\n]*\n {6}href: \/terms-of-service\n/, ''));
      await rm(path.join(contentDir, 'legal/terms-of-service.md'));
    });
    // site.yaml and es/site.yaml are two saves: a busy machine's server may take them apart, and
    // between the two the footers' lists differ, which it reports (keeping the pages) until the
    // second save settles it. No other problem may show.
    const reported = dev.output().split('\n').filter((line) => /^content\/\S+:\d+(:\d+)? /.test(line));
    expect(reported.filter((line) => !/ footer\.legal: footer\.legal has \d+ items? here and \d+ in content\/site\.yaml$/.test(line)), dev.output()).toEqual([]);
    expect(dev.output().split('\n').filter((line) => /problems? \(/.test(line)).every((line) => /^1 problem \((es\/)?site\.yaml\)/.test(line)), dev.output()).toBe(true);

    for (const gone of ['/locations/deep-cleaning-colma-ca', '/post-construction-cleaning', '/terms-of-service']) {
      expect((await fetch(dev.url + gone)).status, gone).toBe(404);
    }
    const page = await (await fetch(`${dev.url}/locations/deep-cleaning-new-town-ca`)).text();
    expect(page).toContain('All rights reserved, on every page.');
    // The reload script is added as pages are served, not written into dist/.
    expect(page).toContain('/__dev/reload.js');

    const built = path.join(tmp.dir, 'dist-build');
    await run(process.execPath, ['cli/main.mjs', 'build'], { cwd: ROOT, env: env(built) });
    const [fromDev, fromBuild] = await Promise.all([treeDigest(path.join(tmp.dir, 'dist')), treeDigest(built)]);
    for (const tree of [fromDev, fromBuild]) tree.delete('build.json');
    expect(fromBuild.has('locations/deep-cleaning-new-town-ca.html')).toBe(true);
    expect(fromBuild.has('locations/deep-cleaning-colma-ca.html')).toBe(false);
    expect([...fromDev.keys()]).toEqual([...fromBuild.keys()]);
    expect(Object.fromEntries(fromDev)).toEqual(Object.fromEntries(fromBuild));
  });
});
