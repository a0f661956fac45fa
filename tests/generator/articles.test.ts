/**
 * Articles as the office publishes them: a Markdown file dropped into content/articles/ is live,
 * listed, tagged, fed and found once its time has come, and in no output at all before (or as a
 * draft); its dates are the business's wall clock; what it may not hold fails the build at its line.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ArticleCard } from '../../contracts/content.js';
import { ContentErrors, formatError } from '../../contracts/validate/errors.js';
import { build, Rebuild } from '../../generator/build.js';
import { articles } from '../../generator/collections/articles.js';
import { checkFile } from '../../generator/content/check.js';
import { contentCopy, ROOT, treeDigest, useTempDir, withTempDir } from '../helpers/content.js';
import { jsonLd, sitemapUrls } from '../helpers/dist.js';

const ORIGIN = 'https://www.bayshinecleaning.com';
const ZONE = 'America/Los_Angeles';

/** An article file: front matter fields as given, then the body. */
function article(fields: Record<string, string | boolean | string[]>, body = '## A section\n\nSee our [deep cleaning](/contact) page.\n'): string {
  const yaml = Object.entries(fields).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n');
  return `---\n${yaml}\n---\n\n${body}`;
}

const base = {
  description: 'A test article about planning a deep cleaning in the Bay Area, long enough for its description.',
  tags: ['deep cleaning'],
  author: 'The Bay Shine Cleaning team',
};

/** Every file below dir, as text. */
async function allText(dir: string): Promise<Map<string, string>> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  const texts = new Map<string, string>();
  for (const f of files) {
    const file = path.join(f.parentPath, f.name);
    if (/\.(html|xml|json|txt)$|_headers|_redirects/.test(file)) texts.set(path.relative(dir, file), await readFile(file, 'utf8'));
  }
  return texts;
}

function entryOf(rel: string, text: string) {
  const { doc, errors } = checkFile(rel, `content/${rel}`, Buffer.from(text));
  if (!doc) throw new Error(JSON.stringify(errors));
  return articles.entry(doc, ZONE);
}

describe('an article\'s date is the business\'s wall clock', () => {
  const published = (card: ArticleCard, now: string) => articles.published!(card, { now: Date.parse(now), drafts: false });

  it('an evening in California without an offset goes live at that evening, not eight hours later (or earlier)', () => {
    const a = entryOf('articles/evening.md', article({ ...base, title: 'Evening', date: '2026-11-20T18:30' }));
    expect(a.date).toBe('2026-11-20T18:30:00-08:00');
    expect(published(a, '2026-11-20T18:29:00-08:00')).toBe(false);
    expect(published(a, '2026-11-20T18:30:00-08:00')).toBe(true);
    // Read as UTC it would have been live at 10:30 in the morning.
    expect(published(a, '2026-11-20T10:31:00-08:00')).toBe(false);
  });

  it('a date alone is the start of that day in California; summer time has its own offset', () => {
    const day = entryOf('articles/day.md', article({ ...base, title: 'Day', date: '2026-11-20' }));
    expect(day.date).toBe('2026-11-20T00:00:00-08:00');
    expect(published(day, '2026-11-19T23:59:00-08:00')).toBe(false);
    expect(published(day, '2026-11-20T00:00:00-08:00')).toBe(true);
    expect(entryOf('articles/summer.md', article({ ...base, title: 'Summer', date: '2026-07-04T09:00' })).date).toBe('2026-07-04T09:00:00-07:00');
  });

  it('the content manager\'s …Z dates are the moment they name, shown in California time', () => {
    const z = entryOf('articles/z.md', article({ ...base, title: 'Zulu', date: '2026-11-21T02:30:00.000Z' }));
    expect(z.date).toBe('2026-11-20T18:30:00-08:00');
    expect(published(z, '2026-11-20T18:29:59-08:00')).toBe(false);
  });

  it('a date that is no date, or an update before the first publication, is refused at its line', async () => {
    await withTempDir('article-dates-', async (dir) => {
      const contentDir = await contentCopy(dir);
      await writeFile(path.join(contentDir, 'articles/bad-date.md'), article({ ...base, title: 'Bad date', date: '2026-02-30' }));
      await writeFile(path.join(contentDir, 'articles/bad-update.md'), article({ ...base, title: 'Bad update', date: '2026-11-20', updated: '2026-11-01' }));
      const messages = await buildErrors(dir, contentDir);
      expect(messages).toContainEqual(expect.stringMatching(/content\/articles\/bad-date\.md:6:\d+ .*"2026-02-30" is not a date/));
      expect(messages).toContainEqual(expect.stringMatching(/content\/articles\/bad-update\.md:7:\d+ .*updated is before/));
    });
  });
});

async function buildErrors(dir: string, contentDir: string): Promise<string[]> {
  try {
    await build({ root: ROOT, contentDir, outDir: path.join(dir, 'dist'), siteUrl: ORIGIN, skipIslands: true, now: '2026-11-29T00:00' });
  } catch (err) {
    if (err instanceof ContentErrors) return err.errors.map(formatError);
    throw err;
  }
  return [];
}

describe('a draft, or an article dated after the build\'s now', () => {
  const tmp = useTempDir('article-future-');
  const FUTURE = { ...base, title: 'Holiday Cleaning Before the Guests Arrive', date: '2026-12-01T09:00', tags: ['deep cleaning', 'planning'] };
  const DRAFT = { ...base, title: 'Unfinished Draft About Windows', date: '2026-11-01', tags: ['deep cleaning'], draft: true };
  let contentDir = '';

  beforeAll(async () => {
    contentDir = await contentCopy(tmp.dir);
    await writeFile(path.join(contentDir, 'articles/holiday-cleaning-before-guests.md'), article({ ...FUTURE, description: 'Planning a holiday deep clean: when to book it and what to do before the crew arrives in December.' }));
    await writeFile(path.join(contentDir, 'articles/unfinished-draft-windows.md'), article({ ...DRAFT, description: 'An unfinished draft about windows that must never reach a visitor, a feed or a search engine.' }));
  });

  it('is in no output at all: not its page, the index, tag pages, feeds, sitemap, related lists or search data', async () => {
    const dist = path.join(tmp.dir, 'before');
    await build({ root: ROOT, contentDir, outDir: dist, siteUrl: ORIGIN, skipIslands: true, now: '2026-11-29T00:00' });
    const texts = await allText(dist);
    expect(texts.has('articles/how-long-does-a-deep-cleaning-take.html')).toBe(true);
    for (const [file, text] of texts) {
      for (const needle of ['holiday-cleaning-before-guests', 'Holiday Cleaning Before', 'unfinished-draft-windows', 'Unfinished Draft']) {
        expect(text.includes(needle), `${needle} in ${file}`).toBe(false);
      }
    }
    expect(JSON.parse(texts.get('build.json')!).now).toBe('2026-11-29T00:00:00-08:00');
  });

  it('is everywhere once a build runs after its time (the draft still nowhere)', async () => {
    const dist = path.join(tmp.dir, 'after');
    await build({ root: ROOT, contentDir, outDir: dist, siteUrl: ORIGIN, skipIslands: true, now: '2026-12-01T09:00' });
    const texts = await allText(dist);
    const route = '/articles/holiday-cleaning-before-guests';
    expect(texts.get('articles/holiday-cleaning-before-guests.html')).toContain('<h1');
    expect(texts.get('articles.html')).toContain(`href="${route}"`);
    expect(texts.get('articles/tags/planning.html')).toContain(`href="${route}"`);
    expect(texts.get('articles/feed.xml')).toContain(`${ORIGIN}${route}`);
    expect(texts.get('articles/atom.xml')).toContain(`${ORIGIN}${route}`);
    expect(texts.get('articles/feed.json')).toContain(`${ORIGIN}${route}`);
    expect(sitemapUrls(texts.get('sitemap.xml')!)).toContain(`${ORIGIN}${route}`);
    // Newest first: the new article heads /articles.
    expect(texts.get('articles.html')!.indexOf(route)).toBeLessThan(texts.get('articles.html')!.indexOf('/articles/how-long-does-a-deep-cleaning-take'));
    // A related article of an article sharing its tags.
    expect([...texts].filter(([f, t]) => f.startsWith('articles/') && f !== 'articles/holiday-cleaning-before-guests.html' && t.includes(`href="${route}"`)).length).toBeGreaterThan(2);
    for (const [file, text] of texts) expect(text.includes('unfinished-draft-windows'), file).toBe(false);
  });
});

describe('an article page, its lists and its feeds', () => {
  const tmp = useTempDir('article-pages-');
  let texts: Map<string, string>;

  beforeAll(async () => {
    const contentDir = await contentCopy(tmp.dir);
    // Two to a page, so /articles and a tag take more than one.
    const index = await readFile(path.join(contentDir, 'articles.yaml'), 'utf8');
    await writeFile(path.join(contentDir, 'articles.yaml'), index.replace(/^perPage: \d+$/m, 'perPage: 2'));
    const dist = path.join(tmp.dir, 'dist');
    await build({ root: ROOT, contentDir, outDir: dist, siteUrl: ORIGIN, skipIslands: true, now: '2026-11-29T00:00' });
    texts = await allText(dist);
  });

  it('carries BlogPosting data as Google recommends: headline, dates with the offset, an author with a url, the business as publisher', () => {
    const graph = jsonLd(texts.get('articles/how-long-does-a-deep-cleaning-take.html')!)['@graph'] as Record<string, unknown>[];
    const post = graph.find((n) => n['@type'] === 'BlogPosting')!;
    const business = graph.find((n) => n['@type'] === 'HomeAndConstructionBusiness')!;
    expect(post.headline).toMatch(/How Long Does a Deep Cleaning Take/);
    expect(post.datePublished).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[78]:00$/);
    expect(post.dateModified).toMatch(/-0[78]:00$/);
    expect(post.author).toMatchObject({ '@type': 'Person', name: expect.any(String), url: expect.stringMatching(/^https:\/\//) });
    expect(post.publisher).toEqual({ '@id': business['@id'] });
    expect(post.mainEntityOfPage).toBe(`${ORIGIN}/articles/how-long-does-a-deep-cleaning-take`);
  });

  it('the sitemap gives an article its own updated date as lastmod, and no date to the other pages', () => {
    const sitemap = texts.get('sitemap.xml')!;
    const entry = (route: string) => new RegExp(`<url><loc>${ORIGIN}${route}</loc>(<lastmod>[^<]*</lastmod>)?`).exec(sitemap)?.[1];
    const updated = [...texts].find(([f, t]) => f.startsWith('articles/') && /dateModified":"([^"]+)"/.test(t) && /Updated/.test(t));
    expect(updated, 'one real article has an updated date').toBeDefined();
    const modified = /"dateModified":"([^"]+)"/.exec(updated![1])![1]!;
    expect(new Date(entry(`/${updated![0].replace(/\.html$/, '')}`)!.slice(9, -10)).getTime()).toBe(new Date(modified).getTime());
    expect(entry('/contact')).toBeUndefined();
  });

  it('/articles and a tag\'s articles take numbered pages, each its own canonical, linked both ways', () => {
    const second = texts.get('articles/page/2.html')!;
    expect(second).toContain(`<link rel="canonical" href="${ORIGIN}/articles/page/2"`);
    expect(second).toContain('href="/articles"');
    expect(texts.get('articles.html')).toContain('href="/articles/page/2"');
    expect(texts.has('articles/page/3.html')).toBe(false);
    const tagPages = [...texts.keys()].filter((f) => /^articles\/tags\/[^/]+\/page\/2\.html$/.test(f));
    expect(tagPages.length).toBeGreaterThan(0);
    expect(texts.get(tagPages[0]!)).toContain(`<link rel="canonical" href="${ORIGIN}/${tagPages[0]!.replace(/\.html$/, '')}"`);
  });

  it('every page\'s head links to the feeds, and the feeds parse as RSS 2.0 and Atom with every article in full and absolute links', () => {
    for (const page of ['index.html', 'contact.html', 'articles.html']) {
      expect(texts.get(page)).toContain('<link rel="alternate" type="application/rss+xml" href="/articles/feed.xml"');
      expect(texts.get(page)).toContain('type="application/atom+xml" href="/articles/atom.xml"');
    }
    const xml = new XMLParser({ ignoreAttributes: false });
    const rss = xml.parse(texts.get('articles/feed.xml')!).rss;
    expect(rss['@_version']).toBe('2.0');
    const items = [rss.channel.item].flat();
    expect(items).toHaveLength(4);
    for (const item of items) {
      expect(item.link).toMatch(new RegExp(`^${ORIGIN}/articles/`));
      const html: string = item['content:encoded'];
      expect(html.length).toBeGreaterThan(3000);
      expect(html).not.toMatch(/(href|src)="\/(?!\/)/);
    }
    const atom = xml.parse(texts.get('articles/atom.xml')!).feed;
    expect([atom.entry].flat()).toHaveLength(4);
    expect([atom.link].flat().some((l: Record<string, string>) => l['@_rel'] === 'self' && l['@_href'] === `${ORIGIN}/articles/atom.xml`)).toBe(true);
  });

  it('an article page sends no JavaScript but its structured data and the font loader', () => {
    const page = texts.get('articles/how-long-does-a-deep-cleaning-take.html')!;
    const scripts = [...page.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts.filter((attrs) => /(^|\s)src=/.test(attrs))).toEqual([]);
    expect(scripts.filter((attrs) => !attrs.includes('application/ld+json'))).toHaveLength(1);
  });
});

describe('what an article may not hold fails the build at its line, and loses nothing', () => {
  it('a javascript: link, raw HTML and a link to a page that does not exist are each named with the file and line', async () => {
    await withTempDir('article-hostile-', async (dir) => {
      const contentDir = await contentCopy(dir);
      const body = '## Section\n\nFine text.\n\n[click](javascript:alert(1))\n\n<script>alert(1)</script>\n\nSee [this page](/no-such-page).\n';
      await writeFile(path.join(contentDir, 'articles/hostile.md'), article({ ...base, title: 'Hostile', date: '2026-11-01' }, body));
      const messages = await buildErrors(dir, contentDir);
      // The front matter ends on line 7 (---); the body's lines follow.
      expect(messages).toContainEqual(expect.stringMatching(/^content\/articles\/hostile\.md:13(:\d+)? .*javascript:/));
      expect(messages).toContainEqual(expect.stringMatching(/^content\/articles\/hostile\.md:15(:\d+)? .*raw HTML/));
    });
  });

  it('a link to a page that does not exist is named where the article writes it', async () => {
    await withTempDir('article-dangling-', async (dir) => {
      const contentDir = await contentCopy(dir);
      await writeFile(path.join(contentDir, 'articles/dangling.md'), article({ ...base, title: 'Dangling', date: '2026-11-01' }, '## Section\n\nText.\n\nSee [this page](/no-such-page).\n'));
      expect(await buildErrors(dir, contentDir)).toContainEqual(expect.stringMatching(/^content\/articles\/dangling\.md:13:\d+ .*link to \/no-such-page leads nowhere/));
    });
  });

  it('two articles with one title are refused; one description twice is a warning and the build goes on', async () => {
    await withTempDir('article-twice-', async (dir) => {
      const contentDir = await contentCopy(dir);
      await writeFile(path.join(contentDir, 'articles/one.md'), article({ ...base, title: 'Same Words', date: '2026-11-01' }));
      await writeFile(path.join(contentDir, 'articles/two.md'), article({ ...base, title: 'Same words', date: '2026-11-02' }));
      expect(await buildErrors(dir, contentDir)).toContainEqual(expect.stringMatching(/^content\/articles\/two\.md:5:\d+ title: the title "Same words" is already used by content\/articles\/one\.md/));
      await writeFile(path.join(contentDir, 'articles/two.md'), article({ ...base, title: 'Other words', date: '2026-11-02' }));
      const result = await build({ root: ROOT, contentDir, outDir: path.join(dir, 'dist'), siteUrl: ORIGIN, skipIslands: true, now: '2026-11-29T00:00' });
      expect(result.warnings.map(formatError)).toContainEqual(expect.stringMatching(/^content\/articles\/two\.md:2:\d+ description: the description is the same as content\/articles\/one\.md's/));
    });
  });
});

describe('under npm run dev', () => {
  it('a draft and an article dated later are shown, each marked, on its page and its card', async () => {
    await withTempDir('article-dev-', async (dir) => {
      const contentDir = await contentCopy(dir);
      await writeFile(path.join(contentDir, 'articles/draft-in-progress.md'), article({ ...base, title: 'Draft in Progress', date: '2026-11-01', draft: true, description: 'A draft the office is still writing, which the dev server shows and marks as a draft.' }));
      await writeFile(path.join(contentDir, 'articles/later-article.md'), article({ ...base, title: 'Later Article', date: '2099-01-01T09:00', description: 'An article dated in the future, which the dev server shows and marks with its date.' }));
      const outDir = path.join(dir, 'dist');
      const rebuild = new Rebuild({ root: ROOT, contentDir, outDir, siteUrl: ORIGIN, skipIslands: true });
      try {
        expect((await rebuild.start()).errors).toEqual([]);
        const draft = await readFile(path.join(outDir, 'articles/draft-in-progress.html'), 'utf8');
        expect(draft).toMatch(/>Draft[^<]*</);
        const later = await readFile(path.join(outDir, 'articles/later-article.html'), 'utf8');
        expect(later).toContain('January 1, 2099');
        const index = await readFile(path.join(outDir, 'articles.html'), 'utf8');
        expect(index).toContain('href="/articles/draft-in-progress"');
        expect(index).toContain('href="/articles/later-article"');
      } finally {
        await rebuild.close();
      }
    });
  });
});

describe('a warm build', () => {
  it('takes an edited article\'s new card (the cards of unchanged files come from the cache) and writes what a cold build writes', async () => {
    await withTempDir('article-warm-', async (dir) => {
      const contentDir = await contentCopy(dir);
      const build1 = (out: string) => build({ root: ROOT, contentDir, outDir: path.join(dir, out), siteUrl: ORIGIN, skipIslands: true, now: '2026-11-29T00:00' });
      await build1('first');
      const file = path.join(contentDir, 'articles/how-often-should-you-deep-clean-your-home.md');
      const text = await readFile(file, 'utf8');
      await writeFile(file, text.replace(/^title: .*$/m, 'title: "Deep Cleaning Twice a Year: Is It Enough?"'));
      await build1('warm');
      const index = await readFile(path.join(dir, 'warm/articles.html'), 'utf8');
      expect(index).toContain('Deep Cleaning Twice a Year: Is It Enough?');
      // A related list elsewhere shows the new title too.
      const others = await Promise.all(['how-long-does-a-deep-cleaning-take', 'move-out-cleaning-checklist-bay-area-renters'].map((s) => readFile(path.join(dir, `warm/articles/${s}.html`), 'utf8')));
      expect(others.some((html) => html.includes('Deep Cleaning Twice a Year: Is It Enough?'))).toBe(true);
      await rm(path.join(ROOT, '.cache', 'cards'), { recursive: true, force: true });
      await build1('cold');
      const [warm, cold] = await Promise.all([treeDigest(path.join(dir, 'warm')), treeDigest(path.join(dir, 'cold'))]);
      warm.delete('build.json');
      cold.delete('build.json');
      expect(warm).toEqual(cold);
    });
  });
});
