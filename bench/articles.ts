/**
 * The articles workload of `npm run bench -- articles` (its timing loop and table are in run.ts,
 * beside the build section whose helpers it shares): the content (our content/ with the peer
 * benchmark's N articles and pictures), the pictures' encodings lent to prebuilt/ for the timed
 * runs, the edits, and the checks that each of our builds wrote the whole blog.
 */
import { execFile } from 'node:child_process';
import { copyFile, cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { imageDirs } from '../generator/assets/images.js';

const run = promisify(execFile);

/** The build's "now" in every run: a fixed clock, so which articles are published never depends on the day of the bench. */
export const BENCH_NOW = '2026-11-29T00:00';

/** What the built blog must hold, read from the articles' front matter. */
export interface Expected {
  published: number;
  /** The newest published article: the one edited (it is on /articles' first page, its tags' first pages and in the feeds). */
  newest: { slug: string; title: string };
  draft?: string;
}

/**
 * A copy of content/ whose articles are the peer benchmark's N (the same generator and seed as
 * run-articles.sh feeds Hugo and Eleventy), with the twelve pictures their bodies show.
 */
export async function articleContent(root: string, peers: string, dir: string, n: number): Promise<{ contentDir: string; expected: Expected }> {
  const contentDir = path.join(dir, 'content');
  await cp(path.join(root, 'content'), contentDir, { recursive: true });
  await rm(path.join(contentDir, 'articles'), { recursive: true, force: true });
  await run(process.execPath, [path.join(peers, 'gen-articles.mjs'), String(n), path.join(contentDir, 'articles')]);
  const pictures = path.join(peers, 'peers/shared/public/images/articles');
  await mkdir(path.join(contentDir, 'images/articles'), { recursive: true });
  for (const file of (await readdir(pictures)).filter((f) => f.endsWith('.jpg'))) {
    await copyFile(path.join(pictures, file), path.join(contentDir, 'images/articles', file));
  }
  return { contentDir, expected: await expectations(contentDir) };
}

/** Published = not a draft and dated by BENCH_NOW (gen-articles.mjs dates them all by 2026-11-01, bare dates). */
async function expectations(contentDir: string): Promise<Expected> {
  const dir = path.join(contentDir, 'articles');
  let published = 0;
  let newest: (Expected['newest'] & { date: string }) | undefined;
  let draft: string | undefined;
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.md')).sort()) {
    const head = (await readFile(path.join(dir, file), 'utf8')).split('\n---', 1)[0]!;
    const slug = file.slice(0, -3);
    const date = /^date: (\S+)/m.exec(head)?.[1] ?? '';
    if (/^draft: true$/m.test(head) || date > BENCH_NOW) {
      draft ??= slug;
      continue;
    }
    published++;
    // JSON-quoted titles (gen-articles.mjs); newest first, equal dates by title, as the site orders them.
    const title = JSON.parse(/^title: (".*")$/m.exec(head)![1]!) as string;
    if (!newest || date > newest.date || (date === newest.date && title.localeCompare(newest.title) < 0)) newest = { slug, title, date };
  }
  if (!newest) throw new Error(`no published article in ${dir}`);
  return { published, newest: { slug: newest.slug, title: newest.title }, ...(draft && { draft }) };
}

/**
 * Lends prebuilt/ the article pictures' encodings that an untimed build made in .cache/images/<key>/,
 * so that a cold build (.cache/ removed) finds them as it finds the site's own pictures: the timed
 * builds then measure what a clone with committed pictures costs, like the build section. Each
 * file it adds goes into `added` as it is copied (so a failure half-way returns them too); files
 * already there are left alone.
 */
export async function lendPictures(root: string, added: string[]): Promise<void> {
  const dirs = imageDirs(root);
  const made = (await readdir(dirs.cache).catch(() => [] as string[])).filter((f) => f.startsWith('articles-photo-'));
  const there = new Set(await readdir(dirs.prebuilt));
  for (const file of made.filter((f) => !there.has(f))) {
    await copyFile(path.join(dirs.cache, file), path.join(dirs.prebuilt, file));
    added.push(path.join(dirs.prebuilt, file));
  }
  // Each of the twelve pictures must now be there, whoever put it there.
  const all = await readdir(dirs.prebuilt);
  const missing = Array.from({ length: 12 }, (_, i) => `articles-photo-${i + 1}-`).filter((p) => !all.some((f) => f.startsWith(p)));
  if (missing.length) throw new Error(`prebuilt/ lacks the encodings of ${missing.join(', ')}: the untimed build made no such files in ${dirs.cache}`);
}

/** Removes exactly the files lendPictures added. */
export async function returnPictures(added: readonly string[]): Promise<void> {
  for (const file of added) await rm(file, { force: true });
}

/** One sentence appended to the newest article's body (a new one each run): its page and the feeds change. */
export async function editBody(contentDir: string, expected: Expected, runIndex: number): Promise<string> {
  const sentence = `Edited for bench run ${runIndex + 1}, this sentence is new.`;
  const file = path.join(contentDir, 'articles', `${expected.newest.slug}.md`);
  await writeFile(file, `${(await readFile(file, 'utf8')).trimEnd()}\n\n${sentence}\n`);
  return sentence;
}

/** The newest article's title changed (a new one each run): its card changes on the lists, the feeds and the related lists of articles sharing its tags. */
export async function editTitle(contentDir: string, expected: Expected, runIndex: number): Promise<string> {
  const title = `${expected.newest.title} (edit ${runIndex + 1})`;
  const file = path.join(contentDir, 'articles', `${expected.newest.slug}.md`);
  await writeFile(file, (await readFile(file, 'utf8')).replace(/^title: ".*"$/m, `title: ${JSON.stringify(title)}`));
  return title;
}

/**
 * The checks run-articles.sh makes of the peers, on our output (clean URLs: /articles/<slug> is
 * articles/<slug>.html, /articles/page/N is articles/page/N.html): one page per published article
 * and none for a draft, 20 items in the RSS feed, ceil(published / 10) index pages; and the text an
 * edit put in, when there was one. Throws on the first failure.
 */
export async function verifyArticles(outDir: string, expected: Expected, mustContain?: string): Promise<void> {
  const dir = path.join(outDir, 'articles');
  const fail = (why: string) => { throw new Error(`articles bench: our build is wrong: ${why} (in ${dir})`); };
  const pages = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => e.name);
  if (pages.length !== expected.published) fail(`${pages.length} article pages, expected ${expected.published}`);
  if (expected.draft && pages.includes(`${expected.draft}.html`)) fail(`the draft ${expected.draft} was built`);
  const items = (await readFile(path.join(dir, 'feed.xml'), 'utf8')).split('<item>').length - 1;
  if (items !== Math.min(20, expected.published)) fail(`feed.xml has ${items} items, expected ${Math.min(20, expected.published)}`);
  const numbered = (await readdir(path.join(dir, 'page')).catch(() => [] as string[])).filter((f) => /^\d+\.html$/.test(f)).length;
  const want = Math.ceil(expected.published / 10);
  if (!(await readFile(path.join(outDir, 'articles.html')).catch(() => undefined))) fail('no articles.html');
  if (1 + numbered !== want) fail(`${1 + numbered} index pages, expected ${want}`);
  if (mustContain && !(await readFile(path.join(dir, `${expected.newest.slug}.html`), 'utf8')).includes(mustContain)) {
    fail(`the edited article's page lacks "${mustContain}"`);
  }
}

/** True when a build encoded article pictures itself (found none in prebuilt/): that cold run measured sharp, not the build. */
export async function encodedPictures(root: string): Promise<boolean> {
  return (await readdir(imageDirs(root).cache).catch(() => [] as string[])).some((f) => f.startsWith('articles-photo-'));
}

/**
 * The collection memo in .cache/collections/: a build keeps only its own and deletes the others',
 * so when it is not the one our last build left, another build in this working tree (another
 * engineer's) has used .cache/ meanwhile, and pruned our cached pages with it: the next build of
 * ours re-plans and renders them all.
 */
export const memoFiles = (root: string) => readdir(path.join(root, '.cache', 'collections')).then((f) => f.sort().join(), () => '');

/**
 * The newest modification time of the code a build compiles and keys its caches on (generator/,
 * contracts/, templates/). Other engineers edit the same working tree: an edit between two builds
 * makes the second compile the code again and plan every page again, so a warm figure after one
 * measures that, not a warm build.
 */
export async function codeStamp(root: string): Promise<number> {
  let newest = 0;
  for (const dir of ['generator', 'contracts', 'templates']) {
    for (const e of await readdir(path.join(root, dir), { recursive: true, withFileTypes: true })) {
      if (e.isFile()) newest = Math.max(newest, (await stat(path.join(e.parentPath, e.name))).mtimeMs);
    }
  }
  return newest;
}
