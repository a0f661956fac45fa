/** Rules of one content file that every kind shares: its file name, a field's position, a picture it names. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ValidDoc } from '../../contracts/documents.js';
import type { ContentError } from '../../contracts/errors.js';
import { formatPath } from '../../contracts/validate/errors.js';
import { locator } from '../../contracts/validate/locate.js';
import type { Lang } from '../../contracts/languages.js';
import { twinRules } from '../../contracts/validate/twins.js';

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** How messages name the content folder, and where it is (for a translation: the English one, whose images/ it uses). */
export interface RuleOptions {
  contentDir: string;
  displayPrefix: string;
  translation?: TranslationRules;
}

/** What the rules of a translated file need: its language, and its English twin. */
export interface TranslationRules {
  lang: Lang;
  /** How messages name the English content folder (content/). */
  englishPrefix: string;
  /** A translated file's English twin: 'missing', or 'invalid' (its own errors are reported where it is read). */
  twinOf(doc: ValidDoc): ValidDoc | 'missing' | 'invalid';
}

/** A translation's file of a kind published in English only (ENGLISH_ONLY_KINDS): said, rather than left unread. */
export function englishOnlyError(file: string): ContentError {
  return { file, line: 1, column: 1, message: 'this page is published in English only', hint: 'remove the file: articles and legal pages are not translated (notes/decisions.md, "The site in Spanish")' };
}

/** The rules between a translated file and its English twin (contracts/validate/twins.ts); none for an English file. */
export function translationRules(doc: ValidDoc, opts: RuleOptions): ContentError[] {
  const t = opts.translation;
  if (!t) return [];
  const twin = t.twinOf(doc);
  if (twin === 'invalid') return [];
  return twinRules(doc, twin === 'missing' ? undefined : twin, t.englishPrefix + doc.file.slice(opts.displayPrefix.length));
}

/** A file of a folder kind names its page: its name must be usable in an address. */
export function fileNameRule(doc: ValidDoc): ContentError[] {
  return SLUG.test(doc.slug) ? [] : [{ file: doc.file, message: `file name "${doc.slug}" cannot be a web address`, hint: 'use lowercase letters, digits and single hyphens, e.g. mountain-view.yaml' }];
}

/** A problem with one field of a file, at the line that writes it. */
export function fieldError(doc: ValidDoc, fieldPath: (string | number)[], message: string, hint?: string): ContentError {
  return { file: doc.file, ...locator(doc.yaml, doc.lineOffset).value(fieldPath), path: formatPath(fieldPath), message, ...(hint && { hint }) };
}

/** An image a file names must exist under content/images/. */
export function imageRule(doc: ValidDoc, fieldPath: (string | number)[], image: string | undefined, opts: RuleOptions): ContentError[] {
  if (!image || existsSync(path.join(opts.contentDir, 'images', image))) return [];
  return [fieldError(doc, fieldPath, `image ${image} does not exist`, `put the file in ${opts.translation?.englishPrefix ?? opts.displayPrefix}images/ or correct the name`)];
}
