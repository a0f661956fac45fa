/**
 * `npm run new-article -- "Title"` (cli/authoring/newArticle.ts): a starting file for an article
 * that the real checks accept (checkFile, then the whole content check), a draft so it never goes
 * live by accident, dated now on the business's clock without an offset; the options fill its
 * fields; a title without a file name, an existing file and options the checks would refuse are
 * refused with a message and exit code 2, and nothing is written.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { load as parseYaml } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TAGS, DESCRIPTION_PLACEHOLDER, articleSlug, parseNewArticleArgs, UsageError, writeNewArticle,
} from '../../cli/authoring/newArticle.js';
import { parseZoned } from '../../contracts/zonedTime.js';
import { checkFile } from '../../generator/content/check.js';
import { contentCopy, problems, ROOT, useContentCopy, withTempDir } from '../helpers/content.js';

const run = promisify(execFile);
const LA = 'America/Los_Angeles';
/** 2026-11-21T02:30Z: still the 20th in California, 6:30 PM. */
const NOW = Date.parse('2026-11-21T02:30:41Z');

const frontMatter = (text: string) => parseYaml(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]!) as Record<string, unknown>;

describe('npm run new-article', () => {
  const copy = useContentCopy('new-article-');

  it('writes content/articles/<slug>.md that the real checks accept: a draft, dated now on the business\'s clock, with a body to write', async () => {
    const { file, date } = await writeNewArticle(copy.contentDir, { title: '  How Often Should You Clean Your Oven?  ' }, NOW);
    expect(path.relative(copy.contentDir, file)).toBe('articles/how-often-should-you-clean-your-oven.md');
    const text = await readFile(file, 'utf8');
    const checked = checkFile('articles/how-often-should-you-clean-your-oven.md', 'content/articles/how-often-should-you-clean-your-oven.md', new TextEncoder().encode(text));
    expect(checked.errors).toBeUndefined();
    expect(checked.doc?.kind).toBe('article');
    // The wall time of NOW in California, to the minute, no offset: what the content manager writes too.
    expect(date).toBe('2026-11-20T18:30');
    expect(parseZoned(date, LA)!.iso).toBe('2026-11-20T18:30:00-08:00');
    expect(frontMatter(text)).toEqual({
      title: 'How Often Should You Clean Your Oven?', description: DESCRIPTION_PLACEHOLDER, date: '2026-11-20T18:30',
      tags: DEFAULT_TAGS, author: 'The Bay Shine Cleaning team', draft: true,
    });
    expect(text).toContain('# A draft is on no page of the site.');
    const body = text.slice(text.indexOf('\n---\n') + 5);
    expect(body.match(/^## /gm)?.length).toBeGreaterThanOrEqual(3);
    expect(body).not.toMatch(/^# /m); // the title is the page's h1
    // And the whole content check, the article rules of the model included.
    expect(await problems(copy.contentDir)).toEqual([]);
  });

  it('fills the description, tags and author from the options', async () => {
    const opts = parseNewArticleArgs([
      'Move-Out', 'Cleaning:', "What's", 'Included?',
      '--description', 'Everything our move-out cleaning covers, room by room, and what to do before the crew arrives.',
      '--tags=move out, checklists ,', '--author', 'Maria Lopez',
    ]);
    expect(opts).toEqual({
      title: "Move-Out Cleaning: What's Included?", description: 'Everything our move-out cleaning covers, room by room, and what to do before the crew arrives.',
      tags: ['move out', 'checklists'], author: 'Maria Lopez',
    });
    const { file } = await writeNewArticle(copy.contentDir, opts, NOW);
    // The apostrophe is dropped, as the content manager's slug drops it.
    expect(path.basename(file)).toBe('move-out-cleaning-whats-included.md');
    expect(frontMatter(await readFile(file, 'utf8'))).toMatchObject({ title: opts.title, description: opts.description, tags: ['move out', 'checklists'], author: 'Maria Lopez', draft: true });
  });

  it('makes the file name as the content manager does', () => {
    expect(articleSlug('Écologique: Green Cleaning 101')).toBe('ecologique-green-cleaning-101');
    expect(articleSlug('What’s a “Deep” Clean?')).toBe('whats-a-deep-clean');
  });

  it('refuses an empty title, one without letters or digits, an existing file and what the checks would refuse, writing nothing', async () => {
    const before = await readdir(path.join(copy.contentDir, 'articles')).catch(() => []);
    const refused = async (opts: Parameters<typeof writeNewArticle>[1]) => {
      const err = await writeNewArticle(copy.contentDir, opts, NOW).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      return (err as Error).message;
    };
    expect(await refused({ title: '   ' })).toMatch(/^Give the article's title: npm run new-article -- "/);
    expect(await refused({ title: '?!…' })).toBe('"?!…" has no letters or digits to make the file name (and the page address) from: give a title with words');
    expect(await refused({ title: 'Short', description: 'Too short.' })).toMatch(/^Not written, a problem:\n.*description: is 10 characters long, at least 50 needed/);
    expect(await refused({ title: 'x'.repeat(111) })).toMatch(/title: is 111 characters long, at most 110 allowed/);
    expect(await refused({ title: 'Tags', tags: ['!!!'] })).toMatch(/tags\[0\]/);
    expect(await readdir(path.join(copy.contentDir, 'articles')).catch(() => [])).toEqual(before);
    await writeNewArticle(copy.contentDir, { title: 'Spring Cleaning' }, NOW);
    await writeFile(path.join(copy.contentDir, 'articles/spring-cleaning.md'), 'mine');
    expect(await refused({ title: 'Spring cleaning' })).toMatch(/spring-cleaning\.md already exists: edit it, or give the new article another title$/);
    expect(await readFile(path.join(copy.contentDir, 'articles/spring-cleaning.md'), 'utf8')).toBe('mine');
    expect(() => parseNewArticleArgs(['Title', '--colour', 'red'])).toThrow(/^Unknown option --colour/);
    expect(() => parseNewArticleArgs(['Title', '--tags'])).toThrow(/^--tags needs a value/);
  });
});

describe('the command', () => {
  it('says it wrote a draft and how to publish it, and exits 2 with the reason when it refuses', async () => {
    await withTempDir('new-article-cli-', async (dir) => {
      const contentDir = await contentCopy(dir);
      const env = { ...process.env, CONTENT_DIR: contentDir };
      const cli = (...args: string[]) => run(process.execPath, ['cli/main.mjs', 'new-article', ...args], { cwd: ROOT, env }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
      );
      const made = await cli('Window Cleaning Tips', '--tags', 'windows');
      expect(made.code).toBe(0);
      expect(made.stdout).toMatch(/^Wrote .*content\/articles\/window-cleaning-tips\.md, dated \d{4}-\d{2}-\d{2} \d{2}:\d{2} on the business's clock\./);
      expect(made.stdout).toContain('It is a draft: on no page of the site until you publish it.');
      expect(made.stdout).toContain('set draft: false');
      const again = await cli('Window Cleaning Tips');
      expect(again).toMatchObject({ code: 2, stdout: '' });
      expect(again.stderr).toContain('window-cleaning-tips.md already exists');
      const empty = await cli();
      expect(empty.code).toBe(2);
      expect(empty.stderr).toMatch(/^Give the article's title/);
    });
  });
});
