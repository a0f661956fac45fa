/** The first stages, load → validate → model: content/ → SiteModel, or every problem found in one pass. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SiteModel } from '../contracts/content.js';
import type { ValidDoc } from '../contracts/documents.js';
import type { ContentError } from '../contracts/errors.js';
import { kindOf } from '../contracts/kinds.js';
import { listContentFiles, parseContent, readFiles } from './load.js';
import { assembleModel } from './model/assemble.js';
import { ParseCache } from './parseCache.js';
import { decodeUtf8 } from '../contracts/validate/encoding.js';
import { ContentErrors, sortErrors } from '../contracts/validate/errors.js';
import { validateDoc, type Validated } from '../contracts/validate/schema.js';

/** How long the content stage keeps the event loop at most before letting other work run. */
const YIELD_EVERY_MS = 10;

export interface ContentOptions {
  root: string;
  /** Defaults to <root>/content. */
  contentDir?: string;
}

export interface CheckedContent {
  model: SiteModel;
  /** The valid documents, so later stages can point at the line that wrote something. */
  docs: ValidDoc[];
}

/** The content files that `include` keeps, read with the parse cache and assembled. */
async function readContent(opts: ContentOptions, include: (rel: string) => boolean) {
  const cache = await ParseCache.open(path.join(opts.root, '.cache'));
  const content = new ContentSet(opts, cache);
  const files = await listContentFiles(content.contentDir);
  await content.read(files.filter(include));
  await cache.save();
  return { files, content, result: content.assemble() };
}

/** Every content file loaded, validated and assembled into the model; every problem found in one pass is thrown as ContentErrors. */
export async function checkContent(opts: ContentOptions): Promise<CheckedContent> {
  const { result } = await readContent(opts, () => true);
  if (!result.model) throw new ContentErrors(result.errors);
  return result;
}

export interface SiteContent {
  /** The model of every file but the cities (its cities are none yet), when those files are valid. */
  model?: SiteModel;
  errors: ContentError[];
  /** The city files (paths in the content folder), in order: a build reads them where it renders them (cityPages.ts). */
  cityFiles: string[];
  contentDir: string;
  displayPrefix: string;
}

/**
 * What a build checks first: every content file but the cities, loaded, validated and assembled
 * (the rules across files that involve cities are the build's, once the cities are read).
 */
export async function checkSiteContent(opts: ContentOptions): Promise<SiteContent> {
  const isCity = (rel: string) => kindOf(rel) === 'city';
  const { files, content, result } = await readContent(opts, (rel) => !isCity(rel));
  return { ...(result.model && { model: result.model }), errors: result.errors ?? [], cityFiles: files.filter(isCity), contentDir: content.contentDir, displayPrefix: content.displayPrefix };
}

/**
 * The content files and what checking each one gave. A build reads them all once; `npm run dev`
 * keeps one set and re-reads only the files that changed.
 */
export class ContentSet {
  readonly contentDir: string;
  /** How messages name the content folder: content/cities/colma.yaml, even for a copy elsewhere. */
  readonly displayPrefix: string;
  private readonly checked = new Map<string, CheckedFile>();

  constructor(opts: ContentOptions, private readonly cache?: ParseCache) {
    this.contentDir = opts.contentDir ?? path.join(opts.root, 'content');
    const relative = path.relative(opts.root, this.contentDir).split(path.sep).join('/');
    this.displayPrefix = `${relative.startsWith('..') || path.isAbsolute(relative) ? path.basename(this.contentDir) : relative}/`;
  }

  /**
   * Check every content file. The work is synchronous; every few milliseconds it lets the event loop
   * run, so the asset jobs a build starts beside it are not held back until the content is done.
   */
  async readAll(): Promise<void> {
    await this.read(await listContentFiles(this.contentDir));
  }

  /** Check these files (posix paths relative to the content folder), and only these. */
  async read(rels: readonly string[]): Promise<void> {
    this.checked.clear();
    let slice = performance.now();
    for (const [rel, bytes] of readFiles(this.contentDir, rels)) {
      this.checked.set(rel, checkFile(rel, this.displayPrefix + rel, bytes, this.cache));
      if (performance.now() - slice > YIELD_EVERY_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
    }
  }

  /** Check these files again (posix paths relative to the content folder); a file that is gone is dropped. */
  async reread(rels: readonly string[]): Promise<void> {
    for (const rel of rels) {
      // Only the files readAll reads (listContentFiles): a picture saved into images/ is no document.
      if (!kindOf(rel)) continue;
      const bytes = await readFile(path.join(this.contentDir, rel)).catch(() => undefined);
      if (bytes === undefined) this.checked.delete(rel);
      else this.checked.set(rel, checkFile(rel, this.displayPrefix + rel, bytes, this.cache));
    }
  }

  /** The valid documents, in file order. */
  docs(): ValidDoc[] {
    return [...this.checked.keys()].sort().flatMap((rel) => this.checked.get(rel)!.doc ?? []);
  }

  /** The model, or every problem: those of single files first; the rules across files once each file is valid. */
  assemble(): CheckedContent & { errors?: undefined } | { model?: undefined; errors: ContentError[] } {
    const errors = [...this.checked.values()].flatMap((c) => c.errors ?? []);
    if (errors.length) return { errors: sortErrors(errors) };
    const docs = this.docs();
    const built = assembleModel(docs, { contentDir: this.contentDir, displayPrefix: this.displayPrefix });
    return built.model ? { model: built.model, docs } : { errors: sortErrors(built.errors) };
  }
}

export type CheckedFile = Validated;

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
  const checked = validateDoc(doc);
  if (key && checked.doc) cache?.set(key, checked.doc);
  return checked;
}
