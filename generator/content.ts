/** content/ → SiteModel, or every problem found in one pass. */
import path from 'node:path';
import type { RawDoc } from '../contracts/documents.js';
import type { ContentError } from '../contracts/errors.js';
import type { SiteModel } from '../contracts/content.js';
import { listContentFiles, parseContent, readFiles } from './load.js';
import { ParseCache } from './parseCache.js';
import { buildModel } from './model/build.js';
import { decodeUtf8 } from './validate/encoding.js';
import { ContentErrors, sortErrors } from './validate/errors.js';
import { validateDoc } from './validate/schema.js';

export interface ContentOptions {
  root: string;
  /** Defaults to <root>/content. */
  contentDir?: string;
}

export interface LoadedContent {
  model: SiteModel;
  /** The raw files, so later stages can point at the line that wrote something. */
  docs: RawDoc[];
}

export async function loadSiteModel(opts: ContentOptions): Promise<SiteModel> {
  return (await loadContent(opts)).model;
}

export async function loadContent(opts: ContentOptions): Promise<LoadedContent> {
  const contentDir = opts.contentDir ?? path.join(opts.root, 'content');
  const relative = path.relative(opts.root, contentDir).split(path.sep).join('/');
  // Messages name files as editors know them: content/cities/colma.yaml, even for a copy elsewhere.
  const displayPrefix = `${relative.startsWith('..') || path.isAbsolute(relative) ? path.basename(contentDir) : relative}/`;
  const cache = await ParseCache.open(path.join(opts.root, '.cache'));
  const errors: ContentError[] = [];
  const valid: RawDoc[] = [];
  for (const [rel, bytes] of readFiles(contentDir, await listContentFiles(contentDir))) {
    const checked = checkFile(rel, displayPrefix + rel, bytes, cache);
    if (checked.doc) valid.push(checked.doc);
    else errors.push(...checked.errors);
  }
  await cache.save();
  if (errors.length) throw new ContentErrors(sortErrors(errors));
  const built = buildModel(valid, { contentDir, displayPrefix });
  if (!built.model) throw new ContentErrors(sortErrors(built.errors));
  return { model: built.model, docs: valid };
}

export type CheckedFile = { doc: RawDoc; errors?: undefined } | { doc?: undefined; errors: ContentError[] };

/**
 * One content file's bytes → its valid document, or its problems: decoded as UTF-8, parsed, checked
 * against its JSON Schema and parsed with the model. The cache skips files already found valid.
 */
export function checkFile(rel: string, displayFile: string, bytes: Uint8Array, cache?: ParseCache): CheckedFile {
  // Decoded before the cache is asked: a file with a bad byte never reaches it.
  const { text, error: encodingError } = decodeUtf8(displayFile, bytes);
  if (encodingError) return { errors: [encodingError] };
  const key = cache?.keyOf(rel, text);
  const cached = key ? cache?.get(key, displayFile) : undefined;
  if (cached) return { doc: cached };
  const { doc, error } = parseContent(rel, displayFile, text);
  if (!doc) return { errors: [error!] };
  const errors = validateDoc(doc);
  if (errors.length) return { errors };
  if (key) cache?.set(key, doc);
  return { doc };
}
