/**
 * A site with enough articles that the render workers read them (generator/render/readCollections.ts):
 * each article file is read once, for its card, and its page made later by the worker that holds
 * its entry, or by the other worker when that one is busy. Which worker makes which page must never
 * show: one worker or two write the same site, and a warm build after a title edit (whose related
 * lists the workers say) writes what a cold build of the edited files writes.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../generator/build.js';
import { PARALLEL_THRESHOLD } from '../../generator/render/pool.js';
import { contentCopy, treeDigest, useTempDir } from '../helpers/content.js';
import { projectCopy } from './projectCopy.js';

const ORIGIN = 'https://www.example.com';
/** Past the number of files from which a build reads them in its workers. */
const ARTICLES = PARALLEL_THRESHOLD + 20;
const TAGS = ['deep cleaning', 'planning', 'move out', 'kitchens', 'bathrooms', 'pets', 'windows'];
const NOW = '2026-11-29T00:00';

/** Article n: its own title, description and date (a day apart), two of the tags; every 50th a draft. */
function article(n: number, body: string): string {
  const day = new Date(Date.UTC(2026, 0, 1) + n * 86_400_000 / 2).toISOString().slice(0, 16);
  return [
    '---',
    `title: "Cleaning Question Number ${n}"`,
    `description: "What our crews answer when asked question number ${n} about cleaning a Bay Area home, and how to plan for it."`,
    `date: ${day}`,
    'tags:',
    `  - ${TAGS[n % TAGS.length]}`,
    `  - ${TAGS[(n * 3 + 1) % TAGS.length]}`,
    'author: The Bay Shine Cleaning team',
    `draft: ${n % 50 === 49}`,
    '---',
    '',
    body,
  ].join('\n');
}


describe(`a build of ${ARTICLES} articles, read by the render workers`, () => {
  const tmp = useTempDir('article-workers-');
  let contentDir = '';
  /** A project of its own: its .cache/ is this test's. */
  let root = '';
  const cleanBuild = (outDir: string, threads?: number) => build({ root, contentDir, outDir: path.join(tmp.dir, outDir), siteUrl: ORIGIN, skipIslands: true, now: NOW, ...(threads && { threads }) });
  /** The build's memory of the articles and their pages forgotten: the next build reads and renders every one. */
  const forget = () => Promise.all(['collections', 'cards', 'pages', 'listings'].map((d) => rm(path.join(root, '.cache', d), { recursive: true, force: true })));

  beforeAll(async () => {
    root = await projectCopy(path.join(tmp.dir, 'project'), { lockfile: true });
    contentDir = await contentCopy(path.join(tmp.dir, 'site'));
    const real = await readFile(path.join(contentDir, 'articles/how-long-does-a-deep-cleaning-take.md'), 'utf8');
    const body = real.slice(real.indexOf('\n---', 3) + 4).trim();
    await Promise.all(Array.from({ length: ARTICLES }, (_, n) => writeFile(path.join(contentDir, `articles/cleaning-question-${n}.md`), article(n, body))));
  });

  it('writes the same site with one worker as with two, every published article once and no draft', async () => {
    await cleanBuild('two');
    await forget();
    await cleanBuild('one', 1);
    const [two, one] = await Promise.all([treeDigest(path.join(tmp.dir, 'two')), treeDigest(path.join(tmp.dir, 'one'))]);
    for (const tree of [two, one]) tree.delete('build.json');
    expect(two).toEqual(one);
    const written = [...two.keys()].filter((f) => /^articles\/cleaning-question-\d+\.html$/.test(f));
    expect(written).toHaveLength(ARTICLES - Math.floor(ARTICLES / 50));
    expect(two.has('articles/cleaning-question-49.html')).toBe(false);
    const page = await readFile(path.join(tmp.dir, 'two/articles/cleaning-question-7.html'), 'utf8');
    expect(page).toContain('Cleaning Question Number 7</h1>');
    // Its related articles share a tag with it: number 7's tags are "planning" and "deep cleaning".
    const related = [...page.matchAll(/href="\/articles\/cleaning-question-(\d+)"/g)].map((m) => Number(m[1]));
    expect(related.length).toBeGreaterThan(0);
    for (const n of related) expect([TAGS[n % TAGS.length], TAGS[(n * 3 + 1) % TAGS.length]].some((t) => t === 'planning' || t === 'deep cleaning')).toBe(true);
  });

  it('after a title edit, a date moved and an article withdrawn, a warm build writes what a cold build of the edited files writes', async () => {
    await forget();
    await cleanBuild('before');
    // Nothing changed: this build finds every page again (renders none) and leaves the caches as they were.
    expect((await cleanBuild('before')).htmlBytes).toBe(0);
    const edit = async (n: number, from: RegExp, to: string) => {
      const file = path.join(contentDir, `articles/cleaning-question-${n}.md`);
      await writeFile(file, (await readFile(file, 'utf8')).replace(from, to));
    };
    await edit(300, /^title: .*$/m, 'title: "A Retitled Cleaning Question"');
    // From among the oldest to the newest: the articles between its places in its tags' lists shift by one.
    await edit(20, /^date: .*$/m, 'date: 2026-11-28T18:30');
    await edit(150, /^draft: .*$/m, 'draft: true');
    expect((await cleanBuild('warm')).htmlBytes).toBeGreaterThan(0);
    // The caches now hold what the edit changed apart from the rest: the next build finds all of it.
    expect((await cleanBuild('warm')).htmlBytes).toBe(0);
    await forget();
    await cleanBuild('cold');
    const [warm, cold] = await Promise.all([treeDigest(path.join(tmp.dir, 'warm')), treeDigest(path.join(tmp.dir, 'cold'))]);
    for (const tree of [warm, cold]) tree.delete('build.json');
    expect(warm).toEqual(cold);
    const shown = [...warm.keys()].filter((f) => f.startsWith('articles/cleaning-question-'));
    const withNewTitle = await Promise.all(shown.map(async (f) => (await readFile(path.join(tmp.dir, 'warm', f), 'utf8')).includes('A Retitled Cleaning Question')));
    // Its own page and the pages that list it among their related articles.
    expect(withNewTitle.filter(Boolean).length).toBeGreaterThan(1);
  });

  it('after an edit of a body alone, a warm build renders that page alone; after one that changes its reading time, what a cold build writes', async () => {
    await forget();
    await cleanBuild('body-before');
    const file = path.join(contentDir, 'articles/cleaning-question-301.md');
    const text = await readFile(file, 'utf8');
    await writeFile(file, `${text.trimEnd()}\n\nOne more sentence for the readers.\n`);
    const edited = await cleanBuild('body');
    // Its card is the same (the same reading time): no other page shows anything new.
    expect(edited.htmlBytes).toBe((await readFile(path.join(tmp.dir, 'body/articles/cleaning-question-301.html'))).length);
    // Four hundred sentences more: its reading time, on its card in the lists and related lists, changes too.
    await writeFile(file, `${text.trimEnd()}\n\n${'More words for the readers to read. '.repeat(400)}\n`);
    expect((await cleanBuild('body')).htmlBytes).toBeGreaterThan(edited.htmlBytes);
    await forget();
    await cleanBuild('body-cold');
    const [warm, cold] = await Promise.all([treeDigest(path.join(tmp.dir, 'body')), treeDigest(path.join(tmp.dir, 'body-cold'))]);
    for (const tree of [warm, cold]) tree.delete('build.json');
    expect(warm).toEqual(cold);
    await writeFile(file, text);
  });

  it("fails with an article's own problem, found while the site's other pages render, and leaves dist/ as it was", async () => {
    await forget();
    await cleanBuild('kept');
    const previous = await treeDigest(path.join(tmp.dir, 'kept'));
    const file = path.join(contentDir, 'articles/cleaning-question-250.md');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace(/^date: .*$/m, 'date: next Tuesday'));
    try {
      const error = await cleanBuild('kept').then(() => undefined, (e: unknown) => e);
      expect(String(error)).toContain('articles/cleaning-question-250.md:4');
      expect(String(error)).toMatch(/date/);
    } finally {
      await writeFile(file, text);
    }
    expect(await treeDigest(path.join(tmp.dir, 'kept'))).toEqual(previous);
    expect((await readdir(tmp.dir)).filter((name) => name.startsWith('kept.'))).toEqual([]);
  });
});
