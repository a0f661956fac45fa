/**
 * The YAML format of the CMS. Like Decap's own, plus what keeps the files as `npm run check` and
 * the editors want them:
 * - optional values left empty are left out (an empty optional number or image would be refused);
 * - the comments the configuration puts on fields are written above them: the first field of each
 *   file carries the `# yaml-language-server: $schema=…` modeline, so it survives every save;
 * - long texts stay on one line (lineWidth 0), as the committed files have them.
 */
import { Document, isMap, isScalar, parse, type Pair } from 'yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Drops null, undefined and '' values and objects left empty; lists keep their length (the model counts items). */
export function pruneEmpty(value: unknown): Json | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (Array.isArray(value)) return value.map((v) => pruneEmpty(v) ?? null);
  if (typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) {
      const kept = pruneEmpty(v);
      if (kept !== undefined) out[k] = kept;
    }
    return Object.keys(out).length ? out : undefined;
  }
  if (typeof value === 'number' && Number.isNaN(value)) return undefined;
  return value as Json;
}

export const cmsYamlFormat = {
  fromFile(content: string): unknown {
    return parse(content) ?? {};
  },

  toFile(data: object, sortedKeys: string[] = [], comments: Record<string, string> = {}): string {
    const doc = new Document(pruneEmpty(data) ?? {});
    if (isMap(doc.contents)) {
      const rank = (pair: Pair) => {
        const i = sortedKeys.indexOf(String(isScalar(pair.key) ? pair.key.value : pair.key));
        return i < 0 ? sortedKeys.length : i;
      };
      doc.contents.items.sort((a, b) => rank(a) - rank(b));
      // Decap keys comments by field path; a top-level key's comment goes right above it.
      for (const pair of doc.contents.items) {
        const comment = isScalar(pair.key) ? comments[String(pair.key.value)] : undefined;
        if (comment && isScalar(pair.key)) pair.key.commentBefore = ` ${comment}`;
      }
    }
    return doc.toString({ lineWidth: 0 });
  },
};
