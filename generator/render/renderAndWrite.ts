/** Render pages and write them; returns what the link check needs. */
import path from 'node:path';
import type { Layout, PagePlan } from '../../contracts/pages.js';
import { cachedPageFile } from '../cache/pageCache.js';
import { createOrReplaceFileSync, linkFileSync } from '../cache/store.js';
import { renderTemplated } from './pageTemplate.js';

export interface BatchResult {
  /** The distinct lists of internal URLs the batch's pages reference (most pages share one). */
  lists: string[][];
  /** For each page of the batch, in order: the index of its list in `lists`. */
  pages: number[];
  bytes: number;
}

/** Where the pages written go besides outDir: the page cache's folder, and each page's key in it (in the batch's order). */
export interface CacheTarget { pagesDir: string; keys: readonly string[] }

/** Renders and writes pages one at a time, keeping each distinct list of their links once. */
export class BatchWriter {
  readonly lists: string[][] = [];
  bytes = 0;
  private readonly listIndex = new Map<string, number>();

  /** `pagesDir`: the page cache's folder, where a page written with a key is linked. */
  constructor(private readonly layout: Layout, private readonly outDir: string, private readonly pagesDir?: string) {}

  /** Writes the page (and links it into the page cache under `key`); returns the index of its links in `lists`. */
  write(page: PagePlan, key?: string): number {
    const { chunks, refs } = renderTemplated(page, this.layout);
    for (const chunk of chunks) this.bytes += chunk.byteLength;
    // Synchronous: the thread has nothing else to do, and fs/promises' open-write-close-rename
    // cost a worker several times as much; so did linking into the cache from the main thread,
    // whose asynchronous links waited on the workers' writes in the same folders.
    const file = path.join(this.outDir, page.file);
    createOrReplaceFileSync(file, chunks);
    if (this.pagesDir && key) linkFileSync(file, cachedPageFile(this.pagesDir, key));
    const id = refs.join('\n');
    let index = this.listIndex.get(id);
    if (index === undefined) {
      index = this.lists.push(refs) - 1;
      this.listIndex.set(id, index);
    }
    return index;
  }
}

/**
 * The batch without a pause between pages: in a worker, a pause would let the next batch (already
 * queued, see pool.ts) start, and the two would finish together instead of one after the other.
 */
export function renderAndWrite(pages: readonly PagePlan[], layout: Layout, outDir: string, cache?: CacheTarget): BatchResult {
  const writer = new BatchWriter(layout, outDir, cache?.pagesDir);
  const indexes = pages.map((page, i) => writer.write(page, cache?.keys[i]));
  return { lists: writer.lists, pages: indexes, bytes: writer.bytes };
}
