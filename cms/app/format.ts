/**
 * The YAML and Markdown formats of the CMS. Like Decap's own, plus what keeps the files as `npm run
 * check` and the editors want them:
 * - optional values left empty are left out (an empty optional number or image would be refused);
 * - the comments the configuration puts on fields are written above them: the first field of each
 *   file carries the `# yaml-language-server: $schema=…` modeline, so it survives every save;
 * - long texts stay on one line (lineWidth 0), as the committed files have them;
 * - values are read as the build reads them (YAML 1.2 core): a date stays the text it is, where
 *   Decap's own front matter parser makes a Date of 2026-11-20T09:00:00Z and writes it back in UTC;
 * - a translation's files have a format of their own (yaml-es): Decap hands a files collection's
 *   format no comments, which are then found by the data's keys, and a Spanish file's keys are its
 *   English twin's while its modeline is one folder deeper; the English original a new translated
 *   entry was started from (TWIN_FIELD) is its file name, not a field of the file.
 */
import { Document, isMap, isScalar, parse, type Pair } from 'yaml';
import { DEFAULT_LANGUAGE, type Lang } from '../../contracts/languages.js';
import { TWIN_FIELD } from './translations.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Drops null, undefined and '' values, and groups left with nothing but empty lists (the form
 * starts a city's optional page with empty lists); lists keep their length, since the model
 * counts items, and a file's own top-level lists stay even when empty.
 */
export function pruneEmpty(value: unknown, nested = false): Json | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (Array.isArray(value)) return value.map((v) => pruneEmpty(v, true) ?? null);
  if (typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) {
      const kept = pruneEmpty(v, true);
      if (kept !== undefined) out[k] = kept;
    }
    const blank = Object.values(out).every((v) => Array.isArray(v) && v.length === 0);
    return Object.keys(out).length && !(nested && blank) ? out : undefined;
  }
  if (typeof value === 'number' && Number.isNaN(value)) return undefined;
  return value as Json;
}

/** The fields of one kind of file in the configuration, and the comments on them (the modeline). */
export interface FieldSet { names: string[]; comments: Record<string, string> }

interface ConfigField { name: string; comment?: string }
interface ConfigCollection { format?: string; fields?: ConfigField[]; files?: { fields: ConfigField[] }[] }

/** The name of the YAML format of one language's collections: Decap's "yaml" (replaced by ours) for the default language. */
export const yamlFormatOf = (lang: Lang): string => (lang === DEFAULT_LANGUAGE ? 'yaml' : `yaml-${lang}`);

/**
 * Every kind of file the configuration describes in one format (one language's YAML files): a
 * folder collection's, and each file of a files collection.
 */
export function fieldSetsOf(config: { collections?: readonly object[] }, format = yamlFormatOf(DEFAULT_LANGUAGE)): FieldSet[] {
  const collections = ((config.collections ?? []) as ConfigCollection[]).filter((c) => (c.format ?? format) === format);
  const sets = collections.flatMap((c) => [...(c.fields ? [c.fields] : []), ...(c.files ?? []).map((f) => f.fields)]);
  return sets.map((fields) => ({
    names: fields.map((f) => f.name),
    comments: Object.fromEntries(fields.filter((f) => f.comment).map((f) => [f.name, f.comment!])),
  }));
}

/**
 * The comments of the kind of file this data is: Decap passes none for the files of a files
 * collection (it looks their fields up where only a folder collection has them), so they are found
 * by the data's keys, when every kind those keys fit has the same comments.
 */
function commentsOf(data: object, fieldSets: readonly FieldSet[]): Record<string, string> {
  const keys = Object.keys(data);
  const fits = fieldSets.filter((s) => keys.every((k) => s.names.includes(k)) && Object.keys(s.comments).length);
  const distinct = new Set(fits.map((s) => JSON.stringify(s.comments)));
  return distinct.size === 1 ? fits[0]!.comments : {};
}

export function cmsYamlFormat(fieldSets: readonly FieldSet[] = []) {
  return {
    fromFile(content: string): unknown {
      return parse(content) ?? {};
    },

    toFile(data: object, sortedKeys: string[] = [], comments: Record<string, string> = {}): string {
      const { [TWIN_FIELD]: _original, ...fields } = data as Record<string, unknown>;
      const pruned = pruneEmpty(fields) ?? {};
      const notes = Object.keys(comments).length || typeof pruned !== 'object' ? comments : commentsOf(pruned, fieldSets);
      const doc = new Document(pruned);
      if (isMap(doc.contents)) {
        const rank = (pair: Pair) => {
          const i = sortedKeys.indexOf(String(isScalar(pair.key) ? pair.key.value : pair.key));
          return i < 0 ? sortedKeys.length : i;
        };
        doc.contents.items.sort((a, b) => rank(a) - rank(b));
        // Decap keys comments by field path; a top-level key's comment goes right above it.
        for (const pair of doc.contents.items) {
          const comment = isScalar(pair.key) ? notes[String(pair.key.value)] : undefined;
          if (comment && isScalar(pair.key)) pair.key.commentBefore = ` ${comment}`;
        }
      }
      return doc.toString({ lineWidth: 0 });
    },
  };
}

/** A front matter block: the opening --- on the first line, the closing --- on a line of its own (as the build takes it, generator/content/load.ts). */
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?^---[ \t]*(?:\r?\n|$)/m;

/**
 * The Markdown format of the CMS (registered as "frontmatter", which the Markdown collections use):
 * the front matter as YAML with the rules above, the Markdown body below it after one blank line.
 * A file is read as the build reads it: what follows the closing --- is the body.
 */
export function cmsFrontmatterFormat() {
  const yaml = cmsYamlFormat();
  return {
    fromFile(content: string): Record<string, unknown> {
      const m = FRONT_MATTER.exec(content);
      if (!m || m.index !== 0) return content.trim() ? { body: content } : {};
      const data = (parse(m[1] ?? '') ?? {}) as Record<string, unknown>;
      const body = content.slice(m[0].length).replace(/^(?:[ \t]*\r?\n)+/, '');
      return { ...data, ...(body.trim() && { body }) };
    },

    toFile(data: { body?: unknown } & Record<string, unknown>, sortedKeys: string[] = [], comments: Record<string, string> = {}): string {
      const { body, ...meta } = data;
      const text = typeof body === 'string' ? body.replace(/\s+$/, '') : '';
      const matter = Object.keys(pruneEmpty(meta) ?? {}).length ? yaml.toFile(meta, sortedKeys, comments) : '';
      return `---\n${matter}---\n${text ? `\n${text}\n` : ''}`;
    },
  };
}
