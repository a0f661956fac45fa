/**
 * The last word before the CMS saves: the entry is checked exactly as `npm run check` checks a
 * file (contracts/validate/schema.ts: the JSON Schema with ajv, then the zod model; the same
 * messages and hints), and a problem stops the save with them. The form's own checks, derived from
 * the same model (cms/config.ts), catch most mistakes field by field while typing; this
 * catches what a form cannot (a list never opened, so never counted). An article is checked
 * further as the build checks it: its dates, and what its Markdown may not hold (the build's own
 * rules, contracts/articleMarkdown.ts; its pictures are checked by the build, which sees the disk).
 * The one place browser code imports the generator's rules: they then exist once.
 *
 * A translated file (content/es/…) is checked against the same schema, and against its English
 * twin as the backend has it now (contracts/validate/twins.ts, the build's own rules:
 * twinProblems): the same fields and list items, the same facts, no text left in English. A new
 * translation must be the twin of an English file that is there and not translated yet
 * (newTranslationProblems): its file name is made of the English original chosen.
 */
import { kinds, type ContentKind, type KindName } from '../../contracts/kinds.js';
import { DEFAULT_LANGUAGE, type Lang } from '../../contracts/languages.js';
import { controlCharacter } from '../../contracts/validate/encoding.js';
import { validateDoc } from '../../contracts/validate/schema.js';
import { parseZoned } from '../../contracts/zonedTime.js';
import { markdownProblems } from '../../contracts/articleMarkdown.js';
import { parse, stringify } from 'yaml';
import { twinRules } from '../../contracts/validate/twins.js';
import { pruneEmpty } from './format.js';
import type { RepoFiles } from './repoFiles.js';
import { englishTwinOf, repoPathOf, TWIN_FIELD } from './translations.js';

interface ConfigCollection {
  name: string; label?: string; label_singular?: string; folder?: string; extension?: string; identifier_field?: string; files?: { name: string; file: string }[];
}

/** An entry's file: its path in the repository, its kind, and its language when it is a translation's (as RawDoc.lang). */
export interface EntryTarget { file: string; kind: KindName; lang?: Lang }

const collectionOf = (config: { collections?: readonly object[] }, name: string) => ((config.collections ?? []) as ConfigCollection[]).find((x) => x.name === name);

/** The content file an entry is saved to, its kind and language: from the configuration. */
export function entryFile(config: { collections?: readonly object[] }, collection: string, slug: string): EntryTarget | undefined {
  const c = collectionOf(config, collection);
  const file = c?.folder ? `${c.folder}/${slug}.${c.extension ?? 'yaml'}` : c?.files?.find((f) => f.name === slug)?.file;
  const at = file ? repoPathOf(file) : undefined;
  return file && at ? { file, kind: at.kind, ...(at.lang !== DEFAULT_LANGUAGE && { lang: at.lang }) } : undefined;
}

/**
 * The file name a new entry of a translation's folder gets: the English original chosen in its
 * first field (cms/config.ts makes it the collection's identifier); '' while none is.
 */
export function newTranslationSlug(config: { collections?: readonly object[] }, collection: string, data: Record<string, unknown>): string {
  const c = collectionOf(config, collection);
  const original = data[TWIN_FIELD];
  return c?.folder && c.identifier_field === TWIN_FIELD && typeof original === 'string' ? original.trim() : '';
}

/**
 * A new entry of a translation's folder, before Decap makes its file: the English original must
 * be chosen, be there, and have no translation yet (Decap would name the new file colma-1.yaml, the
 * twin of nothing). What the backend cannot tell is left to the build.
 */
export async function newTranslationProblems(config: { collections?: readonly object[] }, collection: string, data: Record<string, unknown>, files: RepoFiles): Promise<string[]> {
  const c = collectionOf(config, collection);
  if (!c?.folder || c.identifier_field !== TWIN_FIELD) return [];
  const slug = newTranslationSlug(config, collection, data);
  const target = entryFile(config, collection, slug || 'x');
  const english = target && englishTwinOf(target.file);
  if (!target || !english) return [];
  const what = `English ${target.kind}`;
  if (!slug) return [`English original: choose the ${what} this one translates (the new file takes its file name)`];
  const [own, twin] = await Promise.all([files.read(target.file), files.read(english)]);
  // The build's words (contracts/validate/twins.ts) for a file without its twin.
  if (twin === null) return [`no English twin ${english} (choose an ${what} that is published)`];
  if (typeof own === 'string') return [`${target.file} already exists (open it in ${c.label ?? collection} and edit it there)`];
  return [];
}

/**
 * What the build would say of a translated entry against its English twin, read from the backend
 * (the local files, or the published branch): nothing when the twin cannot be read or is not
 * valid itself (the build then says why), or the entry is not valid yet (entryProblems says why).
 */
export async function twinProblems(target: EntryTarget, data: Record<string, unknown>, files: RepoFiles): Promise<string[]> {
  const english = target.lang ? englishTwinOf(target.file) : undefined;
  if (!english) return [];
  const own = validated(target, data);
  const text = own ? await files.read(english) : undefined;
  if (!own || typeof text !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = (kinds[target.kind] as ContentKind).format === 'markdown' ? undefined : parse(text);
  } catch {
    return [];
  }
  const twin = parsed === undefined ? undefined : validateDoc({ file: english, kind: target.kind, slug: own.slug, yaml: text, lineOffset: 0, data: parsed }).doc;
  if (!twin) return [];
  return twinRules(own, twin, english).map((e) => `${e.path ? `${e.path}: ` : ''}${e.message} (${e.hint ?? ''})`);
}

/** The entry as the build would read its file, when valid. */
function validated(target: EntryTarget, data: Record<string, unknown>) {
  const { [TWIN_FIELD]: _original, ...fields } = data;
  const saved = pruneEmpty(fields) ?? {};
  const slug = target.file.slice(target.file.lastIndexOf('/') + 1).replace(/\.\w+$/, '');
  return validateDoc({ file: target.file, kind: target.kind, slug, yaml: stringify(saved), lineOffset: 0, data: saved, ...(target.lang && { lang: target.lang }) }).doc;
}

/** What `npm run check` would say about this entry's file, one line per problem ([] when valid). */
export function entryProblems(target: EntryTarget, data: Record<string, unknown>): string[] {
  // A Markdown entry's text is its body; the front matter is what the model checks. A new
  // translation's English original is its file name, not a field of it (cms/app/format.ts).
  const { body, [TWIN_FIELD]: _original, ...frontMatter } = data;
  const markdown = (kinds[target.kind] as ContentKind).format === 'markdown';
  const saved = pruneEmpty(markdown ? frontMatter : { ...frontMatter, ...(body !== undefined && { body }) }) ?? {};
  const slug = target.file.slice(target.file.lastIndexOf('/') + 1).replace(/\.\w+$/, '');
  const result = validateDoc({ file: target.file, kind: target.kind, slug, yaml: '', lineOffset: 0, data: saved, ...(target.lang && { lang: target.lang }) });
  // The file's problems without file and line (there is no file yet); hints in the form's words.
  const problems = [...controlCharacters({ ...frontMatter, ...(body !== undefined && { body }) }), ...(result.errors ?? []).map((e) => `${e.path ? `${e.path}: ` : ''}${e.message}${e.hint ? ` (${e.hint.replace(/^add `[^`]*`\s*/, '').replace(/^\((.*)\)$/, '$1')})` : ''}`)];
  return target.kind === 'article' && result.doc ? [...problems, ...articleProblems(saved as { date: string; updated?: string }, typeof body === 'string' ? body : '')] : problems;
}

/**
 * The build's rules of an article beyond its schema (generator/model/articles.ts, articleFileRules),
 * in its words: dates that are dates, an update after the first publication, and a body without
 * raw HTML or links to anywhere but the site and https:// pages.
 */
function articleProblems(data: { date: string; updated?: string }, body: string): string[] {
  const problems: string[] = [];
  const hint = 'write it as 2026-11-20 or 2026-11-20T09:30';
  // Which zone does not matter here: one is a date or not, and both are read in the same one.
  const when = parseZoned(data.date, 'UTC');
  if (!when) problems.push(`date: "${data.date}" is not a date (${hint})`);
  if (data.updated !== undefined) {
    const changed = parseZoned(data.updated, 'UTC');
    if (!changed) problems.push(`updated: "${data.updated}" is not a date (${hint})`);
    else if (when && changed.time < when.time) problems.push('updated: updated is before the date the article went live (an update comes after the first publication: correct one of the two dates)');
  }
  // Pictures are the build's to check: it sees content/images/, where an upload of this session is not yet.
  for (const p of markdownProblems(body, () => true)) problems.push(`body, line ${p.line}: ${p.message} (${p.hint})`);
  // Once per line is enough here (<b> and </b> are two problems of the build, at two columns).
  return [...new Set(problems)];
}

/** The rule the file's decoding applies (contracts/validate/encoding.ts), for each text of the entry, the body included. */
function controlCharacters(value: unknown, path = ''): string[] {
  if (typeof value === 'string') {
    const found = controlCharacter(value);
    return found ? [`${path ? `${path}: ` : ''}${found.message} (${found.hint})`] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => controlCharacters(item, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => controlCharacters(item, path ? `${path}.${key}` : key));
  return [];
}
