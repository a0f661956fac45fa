/**
 * The articles in the model: content/articles/<slug>.md, each a card (what /articles, tag pages,
 * related lists and feeds know of it) and, with its Markdown body, a page. Their dates are read in
 * the business's time zone (contracts/zonedTime.ts); whether one is published is decided by the
 * build's "now", never by the clock of the machine that reads it.
 */
import type { ArticleCard, ArticleEntry, SiteModel } from '../../contracts/content.js';
import type { ValidDocOf } from '../../contracts/documents.js';
import type { ContentError } from '../../contracts/errors.js';
import { articleRoute, tagSlug } from '../../contracts/routes.js';
import { parseZoned } from '../../contracts/zonedTime.js';
import type { RuleOptions as AssembleOptions } from './rules.js';
import { fieldError, fileNameRule, imageRule } from './rules.js';
import { markdownProblems, readingMinutes } from '../../contracts/articleMarkdown.js';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Where a Markdown body's pictures live: /images/<path> is content/images/<path>. */
export const BODY_IMAGE_PREFIX = '/images/';

/** The line of the file a body's first line is on: the one after the front matter's closing --- (the parse drops that line's break). */
function bodyLine(doc: ValidDocOf<'article'>): number {
  return doc.lineOffset + doc.yaml.split('\n').length + 2;
}

export function articleEntry(doc: ValidDocOf<'article'>, timeZone: string): ArticleEntry {
  const { date, updated, tags, ...rest } = doc.data;
  const published = parseZoned(date, timeZone);
  const changed = updated === undefined ? undefined : parseZoned(updated, timeZone);
  const seen = new Set<string>();
  const body = doc.body ?? '';
  return {
    ...rest,
    slug: doc.slug,
    route: articleRoute(doc.slug),
    lang: 'en',
    // One tag per address: "Move out" and "move-out" written in one article are one tag.
    tags: tags.map((name) => ({ name, slug: tagSlug(name) })).filter((t) => t.slug && !seen.has(t.slug) && seen.add(t.slug)),
    date: published?.iso ?? date,
    ...(changed && { updated: changed.iso }),
    time: published?.time ?? Number.NaN,
    minutes: readingMinutes(body),
    body,
    bodyLine: bodyLine(doc),
  };
}

/** An article without its body. */
export function articleCard({ body: _body, bodyLine: _line, ...card }: ArticleEntry): ArticleCard {
  return card;
}

/**
 * The rules of one article file that need nothing but it and the content folder: its name, its
 * dates, its pictures, and what its Markdown may not hold (raw HTML, javascript: links), each at
 * the line that writes it.
 */
export function articleFileRules(doc: ValidDocOf<'article'>, opts: AssembleOptions): ContentError[] {
  const naming = fileNameRule(doc);
  if (naming.length) return naming;
  const errors: ContentError[] = [];
  const { date, updated, image } = doc.data;
  const when = parseZoned(date, 'UTC');
  if (!when) errors.push(fieldError(doc, ['date'], `"${date}" is not a date`, 'write it as 2026-11-20 or 2026-11-20T09:30'));
  if (updated !== undefined) {
    const changed = parseZoned(updated, 'UTC');
    if (!changed) errors.push(fieldError(doc, ['updated'], `"${updated}" is not a date`, 'write it as 2026-11-20 or 2026-11-20T09:30'));
    else if (when && changed.time < when.time) errors.push(fieldError(doc, ['updated'], 'updated is before the date the article went live', 'an update comes after the first publication: correct one of the two dates'));
  }
  errors.push(...imageRule(doc, ['image', 'src'], image?.src, opts));
  const first = bodyLine(doc);
  const exists = (p: string) => existsSync(path.join(opts.contentDir, 'images', p));
  for (const problem of markdownProblems(doc.body ?? '', exists)) {
    errors.push({ file: doc.file, line: first + problem.line - 1, ...(problem.column && { column: problem.column }), message: problem.message, hint: problem.hint });
  }
  return errors;
}

/** Titles compared as a reader would, case aside; one collator (localeCompare with options makes one per call). */
export const byTitle = new Intl.Collator('en', { sensitivity: 'base' }).compare;

/**
 * Newest first; articles of one moment by title (as Hugo orders them), then by file name: an order
 * of the cards alone, whatever order they are read in (a warm build works out the last build's).
 */
export const byNewest = (a: ArticleCard, b: ArticleCard) => b.time - a.time || byTitle(a.title, b.title) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

/** The model with these articles (cards in a build, entries under npm run dev), newest first. */
export function withArticles(model: SiteModel, articles: readonly ArticleCard[]): SiteModel {
  return { ...model, articles: [...articles].sort(byNewest) };
}

/**
 * Two articles may not share a title (two pages saying the same thing); a description used twice
 * is reported too, where the line writes it. `locate` says where a file writes a field.
 */
export function repeatedArticleTexts(
  cards: Iterable<{ card: ArticleCard; file: string }>,
  locate: (file: string, field: string[]) => { line: number; column: number },
): ContentError[] {
  const errors: ContentError[] = [];
  const titles = new Map<string, string>();
  const descriptions = new Map<string, string>();
  for (const { card, file } of cards) {
    const title = card.title.toLowerCase();
    const firstTitle = titles.get(title);
    if (firstTitle) errors.push({ file, ...locate(file, ['title']), path: 'title', message: `the title "${card.title}" is already used by ${firstTitle}`, hint: 'give each article its own title' });
    else titles.set(title, file);
    const firstDescription = descriptions.get(card.description);
    if (firstDescription) errors.push({ file, ...locate(file, ['description']), path: 'description', message: `the description is the same as ${firstDescription}'s`, hint: 'search engines show it under the title: write one for this article', warning: true });
    else descriptions.set(card.description, file);
  }
  return errors;
}
