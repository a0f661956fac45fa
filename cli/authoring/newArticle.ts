/**
 * `npm run new-article -- "How Often Should You Deep Clean?"`: a valid starting file for an
 * article, content/articles/<slug>.md, ready to write. Options: --description "…", --tags "a, b",
 * --author "…"; what is not given gets a default that passes the checks (the description one
 * asks to be rewritten).
 *
 * The file is a draft (`draft: true`), so a new file never goes live by accident: it is on no page
 * of a build until the draft line says false. Its date is now on the business's clock (site.yaml's
 * hours.timeZone), to the minute and without an offset, as the content manager's date field writes
 * it: the build reads it in that zone, and someone who moves the date by hand has no offset to keep
 * in step with summer time.
 */
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { Document, isMap, isScalar } from 'yaml';
import { formatError } from '../../contracts/validate/errors.js';
import { tagSlug } from '../../contracts/routes.js';
import { isTimeZone, zonedIso } from '../../contracts/zonedTime.js';
import { checkFile } from '../../generator/content/check.js';

/** A mistake in what the command was given: its message is the whole story, and the exit code is 2. */
export class UsageError extends Error {}

const USAGE = 'npm run new-article -- "How Often Should You Deep Clean?" [--description "…"] [--tags "deep cleaning, planning"] [--author "…"]';

/**
 * The file name of an article: its title's letters and digits, accents dropped, words joined by
 * hyphens, an apostrophe dropped ("What's" → whats), as the content manager makes it from the title.
 */
export const articleSlug = (title: string): string => tagSlug(title.replace(/['\u2019]/g, ''));

/** What `description` is when none is given: valid, and plainly a line to rewrite. */
export const DESCRIPTION_PLACEHOLDER = 'Rewrite this line: one or two sentences that sum up the article for search results and article cards.';
export const DEFAULT_TAGS = ['cleaning tips'];

export interface NewArticleOptions { title: string; description?: string; tags?: string[]; author?: string }

/** The command line's words: the title, and the options (--name value or --name=value). */
export function parseNewArticleArgs(args: readonly string[]): NewArticleOptions {
  const words: string[] = [];
  const opts: Omit<NewArticleOptions, 'title'> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const m = /^--([a-z]+)(?:=([\s\S]*))?$/.exec(arg);
    if (!m) {
      words.push(arg);
      continue;
    }
    const [, name, inline] = m;
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value: ${USAGE}`);
    if (name === 'description') opts.description = value;
    else if (name === 'author') opts.author = value;
    else if (name === 'tags') opts.tags = value.split(',').map((t) => t.trim()).filter(Boolean);
    else throw new UsageError(`Unknown option --${name}: ${USAGE}`);
  }
  return { title: words.join(' '), ...opts };
}

/** The business's name and time zone, from site.yaml (what the defaults and the date need). */
async function siteFacts(contentDir: string): Promise<{ brand: string; timeZone: string }> {
  const file = path.join(contentDir, 'site.yaml');
  const site = parseYaml(await readFile(file, 'utf8').catch(() => { throw new UsageError(`${file} cannot be read: the article's date is on the business's clock, which site.yaml's hours.timeZone names`); })) as
    { brand?: { name?: unknown }; hours?: { timeZone?: unknown } } | undefined;
  const timeZone = site?.hours?.timeZone;
  if (typeof timeZone !== 'string' || !isTimeZone(timeZone)) throw new UsageError(`site.yaml's hours.timeZone is not a time zone (e.g. America/Los_Angeles): run npm run check`);
  return { brand: typeof site?.brand?.name === 'string' ? site.brand.name : 'Our', timeZone };
}

/** The file's text: front matter (a draft, dated `now` on the business's clock) and a body to write. */
export function newArticleMarkdown(o: Required<NewArticleOptions>, date: string): string {
  const doc = new Document({ title: o.title, description: o.description, date, tags: o.tags, author: o.author, draft: true });
  const draft = isMap(doc.contents) ? doc.contents.items.at(-1)?.key : undefined;
  if (isScalar(draft)) draft.commentBefore = ' A draft is on no page of the site. To publish it on its date, set draft: false (or untick Draft in /admin).';
  return `---\n${doc.toString({ lineWidth: 0 })}---

Start with a paragraph or two that answers the question in the title, in plain words.

## A first section

What readers need to know first. Sections start with a level 2 heading (##); the title is the page's main heading.

## A second section

Lists, **bold** words, [links to other pages](/checklist) and pictures (with the content manager's picture button) are all fine.

### A smaller heading inside a section

Use ### for a part of a section.

## What to do next

End with what the reader can do: [get a free quote](/contact) or [book online](/book-online).
`;
}

/** Writes content/articles/<slug>.md; refuses a title without a file name, an existing file and options the checks would refuse. */
export async function writeNewArticle(contentDir: string, opts: NewArticleOptions, now = Date.now()): Promise<{ file: string; date: string }> {
  const title = opts.title.trim();
  if (!title) throw new UsageError(`Give the article's title: ${USAGE}`);
  const slug = articleSlug(title);
  if (!slug) throw new UsageError(`"${title}" has no letters or digits to make the file name (and the page address) from: give a title with words`);
  const rel = `articles/${slug}.md`;
  const file = path.join(contentDir, rel);
  if (await access(file).then(() => true, () => false)) throw new UsageError(`${path.relative(process.cwd(), file)} already exists: edit it, or give the new article another title`);
  const { brand, timeZone } = await siteFacts(contentDir);
  // Now on the business's wall clock, to the minute, without its offset (see the top of this file).
  const date = zonedIso(now, timeZone).slice(0, 16);
  const text = newArticleMarkdown({
    title, description: opts.description?.trim() || DESCRIPTION_PLACEHOLDER, tags: opts.tags?.length ? opts.tags : DEFAULT_TAGS,
    author: opts.author?.trim() || `The ${brand} team`,
  }, date);
  // What npm run check would refuse (a title or description too long, a tag without a letter) is not written.
  const checked = checkFile(rel, path.relative(process.cwd(), file), new TextEncoder().encode(text));
  if (checked.errors) throw new UsageError(`Not written, ${checked.errors.length === 1 ? 'a problem' : `${checked.errors.length} problems`}:\n${checked.errors.map(formatError).join('\n')}`);
  // The first article makes the folder (site.yaml was there: this is a content folder).
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text, { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EEXIST') throw new UsageError(`${path.relative(process.cwd(), file)} already exists: edit it, or give the new article another title`);
    throw err;
  });
  return { file, date };
}
