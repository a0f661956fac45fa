/** content/ → SiteModel, or every problem found in one pass. */
import path from 'node:path';
import { listContentFiles, parseContent, readFiles, type RawDoc } from './load.js';
import { ParseCache } from './parseCache.js';
import { buildModel } from './model/build.js';
import type { SiteModel } from './model/site.js';
import { ContentErrors, sortErrors, type ContentError } from './validate/errors.js';
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
  for (const [rel, text] of readFiles(contentDir, await listContentFiles(contentDir))) {
    const displayFile = displayPrefix + rel;
    const key = cache.keyOf(rel, text);
    const cached = cache.get(key, displayFile);
    if (cached) {
      valid.push(cached);
      continue;
    }
    const { doc, error } = parseContent(rel, displayFile, text);
    const problems = error ? [error] : validateDoc(doc!);
    if (problems.length) errors.push(...problems);
    else {
      valid.push(doc!);
      cache.set(key, doc!);
    }
  }
  await cache.save();
  if (errors.length) throw new ContentErrors(sortErrors(errors));
  const built = buildModel(valid, { contentDir, displayPrefix });
  if (!built.model) throw new ContentErrors(sortErrors(built.errors));
  return { model: built.model, docs: valid };
}

export type { ContentError };
