/**
 * The last word before the CMS saves: the entry is checked exactly as `npm run check` checks a
 * file (contracts/validate/schema.ts: the JSON Schema with ajv, then the zod model; the same
 * messages and hints), and a problem stops the save with them. The form's own checks, derived from
 * the same model (cms/config.ts), catch most mistakes field by field while typing; this
 * catches what a form cannot (a list never opened, so never counted). The one place browser code
 * imports the generator: the rules then exist once.
 */
import { kindOf, type KindName } from '../../contracts/kinds.js';
import { controlCharacter } from '../../contracts/validate/encoding.js';
import { validateDoc } from '../../contracts/validate/schema.js';
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
  const { body: _body, ...frontMatter } = data;
  const saved = pruneEmpty(target.kind === 'legal' ? frontMatter : data) ?? {};
  const slug = target.file.slice(target.file.lastIndexOf('/') + 1).replace(/\.\w+$/, '');
  const result = validateDoc({ file: target.file, kind: target.kind, slug, yaml: '', lineOffset: 0, data: saved });
  // The file's problems without file and line (there is no file yet); hints in the form's words.
  return [...controlCharacters(data), ...(result.errors ?? []).map((e) => `${e.path ? `${e.path}: ` : ''}${e.message}${e.hint ? ` (${e.hint.replace(/^add `[^`]*`\s*/, '').replace(/^\((.*)\)$/, '$1')})` : ''}`)];
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
