/**
 * The list pages a warm build does not plan again (render/listingPages.ts, cache/listingMemo.ts): an
 * article index or tag page the last build planned from the same inputs (its cards, its texts), in
 * a build whose everything else is the same, is linked from the page cache. Whatever the memo holds, a build
 * writes what a cold build of the same files writes: after an edit of the listings' own texts, of a
 * card, and with the cached pages gone from under the memo.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deserialize } from 'node:v8';
import { beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../generator/build.js';
import type { KnownListPage } from '../../generator/cache/listingMemo.js';
import { contentCopy, treeDigest, useTempDir } from '../helpers/content.js';
import { projectCopy } from './projectCopy.js';

const ORIGIN = 'https://www.example.com';
const NOW = '2026-11-29T00:00';
const CACHES = ['collections', 'cards', 'pages', 'listings'];

describe('the listings a warm build places from its memo', () => {
  const tmp = useTempDir('listing-memo-');
  let root = '';
  let contentDir = '';
  const run = (outDir: string) => build({ root, contentDir, outDir: path.join(tmp.dir, outDir), siteUrl: ORIGIN, skipIslands: true, now: NOW });
  const forget = () => Promise.all(CACHES.map((d) => rm(path.join(root, '.cache', d), { recursive: true, force: true })));
  /** A warm build of the files as they are, then a cold one: the two write the same site. */
  const warmIsCold = async (name: string) => {
    await run(`${name}-warm`);
    await forget();
    await run(`${name}-cold`);
    const [warm, cold] = await Promise.all([treeDigest(path.join(tmp.dir, `${name}-warm`)), treeDigest(path.join(tmp.dir, `${name}-cold`))]);
    for (const tree of [warm, cold]) tree.delete('build.json');
    expect(warm).toEqual(cold);
    return (file: string) => readFile(path.join(tmp.dir, `${name}-warm`, file), 'utf8');
  };
  const edit = async (file: string, from: RegExp, to: string) => {
    const at = path.join(contentDir, file);
    const text = await readFile(at, 'utf8');
    expect(text).toMatch(from);
    await writeFile(at, text.replace(from, to));
  };

  beforeAll(async () => {
    root = await projectCopy(path.join(tmp.dir, 'project'), { lockfile: true });
    contentDir = await contentCopy(path.join(tmp.dir, 'site'));
  });

  it('remembers each listing page with its key, and a build of the same files writes no page again', async () => {
    await forget();
    await run('first');
    const dir = path.join(root, '.cache', 'listings');
    const [file] = (await readdir(dir)).filter((f) => f.endsWith('.v8'));
    const memo = deserialize(await readFile(path.join(dir, file!))) as Map<string, KnownListPage>;
    const routes = [...memo.keys()];
    expect(routes).toContain('/articles');
    expect(routes.some((r) => r.startsWith('/articles/tags/'))).toBe(true);
    for (const [route, page] of memo) {
      expect(page.written.route).toBe(route);
      expect(page.key).toMatch(/^[0-9a-f]{32}$/);
    }
    expect((await run('again')).htmlBytes).toBe(0);
  });

  it("after an edit of the listings' own texts, writes what a cold build writes", async () => {
    await run('texts-before');
    await edit('articles.yaml', /^heading: .*$/m, 'heading: Cleaning Advice From Our Crews');
    const page = await warmIsCold('texts');
    expect(await page('articles.html')).toContain('Cleaning Advice From Our Crews</h1>');
  });

  it("after an edit of an article's title, writes what a cold build writes", async () => {
    await run('title-before');
    await edit('articles/how-often-should-you-deep-clean-your-home.md', /^title: .*$/m, 'title: "How Often to Deep Clean a Bay Area Home"');
    const page = await warmIsCold('title');
    expect(await page('articles.html')).toContain('How Often to Deep Clean a Bay Area Home');
  });

  it('after a change of the stylesheet (a layout no list page takes as an input), writes what a cold build writes', async () => {
    await run('style-before');
    const css = path.join(root, 'templates/styles/site.css');
    await writeFile(css, `${await readFile(css, 'utf8')}\n.listing-memo-test { color: #123456; }\n`);
    const page = await warmIsCold('style');
    const stylesheet = /href="(\/assets\/site-[^"]+\.css)"/.exec(await page('articles.html'))![1]!;
    expect(await page(stylesheet.slice(1))).toContain('#123456');
  });

  it('plans a listing again when the page cache lost its pages but still names them', async () => {
    await run('lost-before');
    const pages = path.join(root, '.cache', 'pages');
    for (const name of await readdir(pages)) if (name.endsWith('.html')) await rm(path.join(pages, name));
    const page = await warmIsCold('lost');
    expect(await page('articles.html')).toContain('Cleaning Advice From Our Crews</h1>');
  });
});
