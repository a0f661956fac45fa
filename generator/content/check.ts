/** Stages load and validate for one file: its bytes → its valid document, or its problems. */
import { decodeUtf8 } from '../../contracts/validate/encoding.js';
import { validateDoc, type Validated } from '../../contracts/validate/schema.js';
import type { ParseCache } from '../cache/parseCache.js';
import { parseContent } from './load.js';
import type { Lang } from '../../contracts/languages.js';

export type CheckedFile = Validated;

/**
 * One content file's bytes → its valid document, or its problems: decoded as UTF-8, parsed, checked
 * against its JSON Schema and parsed with the model. The cache skips files already found valid.
 */
export function checkFile(rel: string, displayFile: string, bytes: Uint8Array, cache?: ParseCache, lang?: Lang): CheckedFile {
  const checked = checkBytes(rel, displayFile, bytes, cache);
  return lang && checked.doc ? { doc: { ...checked.doc, lang } } : checked;
}

function checkBytes(rel: string, displayFile: string, bytes: Uint8Array, cache?: ParseCache): CheckedFile {
  // Decoded before the cache is asked: a file with a bad byte never reaches it.
  const { text, error: encodingError } = decodeUtf8(displayFile, bytes);
  if (encodingError) return { errors: [encodingError] };
  const key = cache?.keyOf(rel, text);
  const cached = key ? cache?.get(key, displayFile) : undefined;
  if (cached) return { doc: cached };
  const { doc, error } = parseContent(rel, displayFile, text);
  if (!doc) return { errors: [error!] };
  const checked = validateDoc(doc);
  if (key && checked.doc) cache?.set(key, checked.doc);
  return checked;
}
