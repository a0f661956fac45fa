/**
 * Stage model's store: the content files and what checking each one gave, assembled into the
 * SiteModel. A build reads them once; `npm run dev` keeps one set and re-reads only the files that
 * changed.
 */
import { existsSync } from 'node:fs';
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
import { assembleModel, type EnglishContent } from './assemble.js';
import type { TranslationRules } from './rules.js';
import { LANGUAGE_INFO, type Lang } from '../../contracts/languages.js';

/** How long reading keeps the event loop at most before letting other work run. */
const YIELD_EVERY_MS = 10;

export interface ContentOptions {
  root: string;
  /** Defaults to <root>/content. */
  contentDir?: string;
}

/** The content folder: the one given, else <root>/content. */
export const contentDirOf = (opts: ContentOptions): string => opts.contentDir ?? path.join(opts.root, 'content');

/** A translation's files: content/es/, whose pictures are the English content folder's. */
export interface Translation {
  lang: Lang;
  /** The default language's content folder: its images/, and the twins of this folder's files. */
  englishDir: string;
  /** How messages name it (content/). */
  englishPrefix: string;
}

export interface CheckedContent {
  model: SiteModel;
  /** The valid documents, so later stages can point at the line that wrote something. */
  docs: ValidDoc[];
  /** Problems that do not stop a build (a description used twice). */
  warnings: ContentError[];
}

/**
 * A translated file's English twin among the English documents read: 'missing' when there is no
 * such file, 'invalid' when it was not read valid (its own errors say why) or not read at all.
 */
export function twinLookup(translation: Translation, displayPrefix: string, englishDocs: readonly ValidDoc[] = []): TranslationRules['twinOf'] {
  const byFile = new Map(englishDocs.map((d) => [d.file, d]));
  return (doc) => {
    const rel = doc.file.slice(displayPrefix.length);
    const twin = byFile.get(translation.englishPrefix + rel);
    if (twin) return twin;
    return existsSync(path.join(translation.englishDir, rel)) ? 'invalid' : 'missing';
  };
}

/** The content files and what checking each one gave. */
export class ContentSet {
  readonly contentDir: string;
  /** How messages name the content folder: content/cities/colma.yaml, even for a copy elsewhere. */
  readonly displayPrefix: string;
  private readonly checked = new Map<string, CheckedFile>();

  constructor(opts: ContentOptions, private readonly cache?: ParseCache, readonly translation?: Translation) {
    this.contentDir = translation ? path.join(translation.englishDir, LANGUAGE_INFO[translation.lang].folder) : contentDirOf(opts);
    const relative = path.relative(opts.root, this.contentDir).split(path.sep).join('/');
    this.displayPrefix = translation
      ? `${translation.englishPrefix}${LANGUAGE_INFO[translation.lang].folder}/`
      : `${relative.startsWith('..') || path.isAbsolute(relative) ? path.basename(this.contentDir) : relative}/`;
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
      this.checked.set(rel, checkFile(rel, this.displayPrefix + rel, bytes, this.cache, this.translation?.lang));
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
      else this.checked.set(rel, checkFile(rel, this.displayPrefix + rel, bytes, this.cache, this.translation?.lang));
    }
  }

  /** The valid documents, in file order. */
  docs(): ValidDoc[] {
    return [...this.checked.keys()].sort().flatMap((rel) => this.checked.get(rel)!.doc ?? []);
  }

  /**
   * The model, or every problem: those of single files first; the rules across files once each file
   * is valid. A translation is assembled against the default language's content (its twins).
   */
  assemble(english?: EnglishContent): CheckedContent & { errors?: undefined } | { model?: undefined; errors: ContentError[] } {
    const errors = [...this.checked.values()].flatMap((c) => c.errors ?? []);
    if (errors.length) return { errors: sortErrors(errors) };
    const docs = this.docs();
    const { translation } = this;
    const built = assembleModel(docs, translation
      ? {
        contentDir: translation.englishDir, displayPrefix: this.displayPrefix, ...(english && { english }),
        translation: { lang: translation.lang, englishPrefix: translation.englishPrefix, twinOf: twinLookup(translation, this.displayPrefix, english?.docs) },
      }
      : { contentDir: this.contentDir, displayPrefix: this.displayPrefix });
    return built.model ? { model: built.model, docs, warnings: built.errors } : { errors: sortErrors(built.errors) };
  }
}
