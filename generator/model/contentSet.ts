/**
 * Stage model's store: the content files and what checking each one gave, assembled into the
 * SiteModel. A build reads them once; `npm run dev` keeps one set and re-reads only the files that
 * changed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ValidDoc } from '../../contracts/documents.js';
import type { ContentError } from '../../contracts/errors.js';
import { kindOf } from '../../contracts/kinds.js';
import type { SiteModel } from '../../contracts/content.js';
import { sortErrors } from '../../contracts/validate/errors.js';
import type { ParseCache } from '../cache/parseCache.js';
import { checkFile, type CheckedFile } from '../content/check.js';
import { listContentFiles, readFiles } from '../content/load.js';
import { assembleModel } from './assemble.js';

/** How long reading keeps the event loop at most before letting other work run. */
const YIELD_EVERY_MS = 10;

export interface ContentOptions {
  root: string;
  /** Defaults to <root>/content. */
  contentDir?: string;
}

/** The content folder: the one given, else <root>/content. */
export const contentDirOf = (opts: ContentOptions): string => opts.contentDir ?? path.join(opts.root, 'content');

export interface CheckedContent {
  model: SiteModel;
  /** The valid documents, so later stages can point at the line that wrote something. */
  docs: ValidDoc[];
  /** Problems that do not stop a build (a description used twice). */
  warnings: ContentError[];
}

/** The content files and what checking each one gave. */
export class ContentSet {
  readonly contentDir: string;
  /** How messages name the content folder: content/cities/colma.yaml, even for a copy elsewhere. */
  readonly displayPrefix: string;
  private readonly checked = new Map<string, CheckedFile>();

  constructor(opts: ContentOptions, private readonly cache?: ParseCache) {
    this.contentDir = contentDirOf(opts);
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
    return built.model ? { model: built.model, docs, warnings: built.errors } : { errors: sortErrors(built.errors) };
  }
}
