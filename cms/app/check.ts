/**
 * The last word before the CMS saves: the entry is checked exactly as `npm run check` checks a
 * file (contracts/validate/schema.ts: the JSON Schema with ajv, then the zod model; the same
 * messages and hints), and a problem stops the save with them. The form's own checks, derived from
 * the same model (cms/config.ts), catch most mistakes field by field while typing; this
 * catches what a form cannot (a list never opened, so never counted). An article is checked
 * further as the build checks it: its dates, and what its Markdown may not hold (the build's own
 * rules, contracts/articleMarkdown.ts; its pictures are checked by the build, which sees the disk).
 * The one place browser code imports the generator's rules: they then exist once.
 */
import { kindOf, kinds, type ContentKind, type KindName } from '../../contracts/kinds.js';
import { controlCharacter } from '../../contracts/validate/encoding.js';
import { validateDoc } from '../../contracts/validate/schema.js';
import { parseZoned } from '../../contracts/zonedTime.js';
import { markdownProblems } from '../../contracts/articleMarkdown.js';
import { pruneEmpty } from './format.js';

interface ConfigCollection { name: string; folder?: string; extension?: string; files?: { name: string; file: string }[] }

/** The content file an entry is saved to, and its kind: from the configuration. */
export function entryFile(config: { collections?: readonly object[] }, collection: string, slug: string): { file: string; kind: KindName } | undefined {
  const c = ((config.collections ?? []) as ConfigCollection[]).find((x) => x.name === collection);
  const file = c?.folder ? `${c.folder}/${slug}.${c.extension ?? 'yaml'}` : c?.files?.find((f) => f.name === slug)?.file;
  const kind = file?.startsWith('content/') ? kindOf(file.slice('content/'.length)) : undefined;
  return file && kind ? { file, kind } : undefined;
}

/** What `npm run check` would say about this entry's file, one line per problem ([] when valid). */
export function entryProblems(target: { file: string; kind: KindName }, data: Record<string, unknown>): string[] {
  // A Markdown entry's text is its body; the front matter is what the model checks.
  const { body, ...frontMatter } = data;
  const markdown = (kinds[target.kind] as ContentKind).format === 'markdown';
  const saved = pruneEmpty(markdown ? frontMatter : data) ?? {};
  const slug = target.file.slice(target.file.lastIndexOf('/') + 1).replace(/\.\w+$/, '');
  const result = validateDoc({ file: target.file, kind: target.kind, slug, yaml: '', lineOffset: 0, data: saved });
  // The file's problems without file and line (there is no file yet); hints in the form's words.
  const problems = [...controlCharacters(data), ...(result.errors ?? []).map((e) => `${e.path ? `${e.path}: ` : ''}${e.message}${e.hint ? ` (${e.hint.replace(/^add `[^`]*`\s*/, '').replace(/^\((.*)\)$/, '$1')})` : ''}`)];
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
