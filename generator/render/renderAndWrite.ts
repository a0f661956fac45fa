/** Render a batch of pages and write them; returns what the link check needs. */
import path from 'node:path';
import type { Layout, PagePlan } from '../../contracts/pages.js';
import { replaceFile } from '../cache.js';
import { renderPage } from './renderPage.js';

export interface BatchResult {
  /** route → the internal URLs its page references, for the link check. */
  refs: [route: string, refs: string[]][];
  bytes: number;
}

/** Writes under way at once: enough to keep the disk busy while the next page renders. */
const WRITES_IN_FLIGHT = 16;

export async function renderAndWrite(pages: readonly PagePlan[], layout: Layout, outDir: string): Promise<BatchResult> {
  const refs: BatchResult['refs'] = [];
  let bytes = 0;
  const writing = new Set<Promise<void>>();
  let failed: unknown;
  for (const page of pages) {
    const html = renderPage(page, layout);
    bytes += html.length;
    refs.push([page.route, internalRefs(html)]);
    // Rendering goes on while the file is written; awaiting each write left the core idle.
    const write: Promise<void> = replaceFile(path.join(outDir, page.file), html)
      .catch((err: unknown) => { failed ??= err; })
      .finally(() => writing.delete(write));
    writing.add(write);
    if (writing.size >= WRITES_IN_FLIGHT) await Promise.race(writing);
    if (failed) break;
  }
  await Promise.all(writing);
  if (failed) throw failed;
  return { refs, bytes };
}

const ATTR = /\s(?:href|src|srcset|imagesrcset)="([^"]*)"/g;

/** Internal URLs (paths starting with /) referenced by one HTML document. */
function internalRefs(html: string): string[] {
  const refs = new Set<string>();
  for (const match of html.matchAll(ATTR)) {
    const value = (match[1] ?? '').replace(/&amp;/g, '&');
    for (const part of value.split(',')) {
      const url = part.trim().split(/\s+/)[0] ?? '';
      if (url.startsWith('/') && !url.startsWith('//')) refs.add(url.split(/[?#]/)[0] ?? url);
    }
  }
  // A copy through JSON: the matches are slices of the page's HTML, and a slice keeps the whole
  // document alive; kept for the link check, they held every page of a build in memory.
  return JSON.parse(JSON.stringify([...refs])) as string[];
}
