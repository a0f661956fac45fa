/** content/ → SiteModel, or every problem found in one pass. */
import path from 'node:path';
import { listContentFiles, loadFiles, type RawDoc } from './load.js';
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
  const files = await listContentFiles(contentDir);
  const { docs, errors } = await loadFiles(contentDir, files, displayPrefix);
  const valid = docs.filter((doc) => {
    const problems = validateDoc(doc);
    errors.push(...problems);
    return problems.length === 0;
  });
  if (errors.length) throw new ContentErrors(sortErrors(errors));
  const built = buildModel(valid, { contentDir, displayPrefix });
  if (!built.model) throw new ContentErrors(sortErrors(built.errors));
  return { model: built.model, docs: valid };
}

export type { ContentError };
