/** Render a batch of pages and write them; returns what the link check needs. */
import path from 'node:path';
import type { Layout, PagePlan } from '../../contracts/pages.js';
import { replaceFileSync } from '../cache.js';
import { renderPage } from './renderPage.js';

export interface BatchResult {
  /** route → the internal URLs its page references, for the link check. */
  refs: [route: string, refs: string[]][];
  bytes: number;
}

export async function renderAndWrite(pages: readonly PagePlan[], layout: Layout, outDir: string): Promise<BatchResult> {
  const refs: BatchResult['refs'] = [];
  let bytes = 0;
  for (const page of pages) {
    const { html, refs: pageRefs } = renderPage(page, layout);
    bytes += html.length;
    refs.push([page.route, pageRefs]);
    // Synchronous: the thread has nothing else to do, and fs/promises' open-write-close-rename
    // cost a worker 1.2 s per 5,000 pages against a quarter of that.
    replaceFileSync(path.join(outDir, page.file), html);
    // On the main thread, the workers' requests for their next batch are answered between pages.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { refs, bytes };
}
