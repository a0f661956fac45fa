/** Render pages and write them; returns what the link check needs. */
import path from 'node:path';
import type { Layout, PagePlan } from '../../contracts/pages.js';
import { createOrReplaceFileSync } from '../cache/store.js';
import { renderTemplated } from './pageTemplate.js';

export interface BatchResult {
  /** The distinct lists of internal URLs the batch's pages reference (most pages share one). */
  lists: string[][];
  /** For each page of the batch, in order: the index of its list in `lists`. */
  pages: number[];
  bytes: number;
}

/** Renders and writes pages one at a time, keeping each distinct list of their links once. */
export class BatchWriter {
  readonly lists: string[][] = [];
  bytes = 0;
  private readonly listIndex = new Map<string, number>();

  constructor(private readonly layout: Layout, private readonly outDir: string) {}

  /** Writes the page; returns the index of its links in `lists`. */
  write(page: PagePlan): number {
    const { chunks, refs } = renderTemplated(page, this.layout);
    for (const chunk of chunks) this.bytes += chunk.byteLength;
    // Synchronous: the thread has nothing else to do, and fs/promises' open-write-close-rename
    // cost a worker several times as much.
    createOrReplaceFileSync(path.join(this.outDir, page.file), chunks);
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
export function renderAndWrite(pages: readonly PagePlan[], layout: Layout, outDir: string): BatchResult {
  const writer = new BatchWriter(layout, outDir);
  const indexes = pages.map((page) => writer.write(page));
  return { lists: writer.lists, pages: indexes, bytes: writer.bytes };
}
