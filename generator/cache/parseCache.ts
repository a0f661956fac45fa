/**
 * Parsed and validated documents (their data as the model outputs it), cached by path and content
 * digest (and the schema version), so an unchanged file is never parsed or validated twice. Only
 * valid documents are cached: a file with problems, a byte that is not UTF-8 included, is always
 * read afresh and reported in full.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { ValidDoc } from '../../contracts/documents.js';
import { CacheKey, writeAtomic } from './store.js';
import { schemaFiles } from '../../contracts/validate/jsonSchemas.js';

export class ParseCache {
  private used = new Map<string, ValidDoc>();
  private dirty = false;
  private constructor(private readonly file: string, private readonly entries: Map<string, ValidDoc>) {}

  static async open(cacheDir: string): Promise<ParseCache> {
    const version = new CacheKey().add(...schemaFiles().values()).digest(16);
    const file = path.join(cacheDir, `content-${version}.v8`);
    const entries = await readFile(file).then((b) => deserialize(b) as Map<string, ValidDoc>, () => new Map<string, ValidDoc>());
    return new ParseCache(file, entries);
  }

  /** `text` is already decoded: a file that is not UTF-8 never gets a key (see checkFile). */
  keyOf(rel: string, text: string): string {
    return createHash('sha1').update(rel).update('\0').update(text).digest('base64');
  }

  get(key: string, displayFile: string): ValidDoc | undefined {
    const doc = this.entries.get(key);
    if (doc) this.used.set(key, doc);
    return doc && doc.file === displayFile ? doc : undefined;
  }

  set(key: string, doc: ValidDoc) {
    this.used.set(key, doc);
    this.dirty = true;
  }

  /** Keep exactly this run's documents. */
  async save() {
    if (!this.dirty && this.used.size === this.entries.size) return;
    await writeAtomic(this.file, serialize(this.used));
  }
}
