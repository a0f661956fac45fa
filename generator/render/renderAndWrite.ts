/** Render a batch of pages and write them; returns what the link check needs. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Chrome, PagePlan } from '../plan/types.js';
import { internalRefs } from '../write/links.js';
import { renderPage } from './renderPage.js';

export interface BatchResult {
  /** route → the internal URLs its page references, for the link check. */
  refs: [route: string, refs: string[]][];
  bytes: number;
}

export async function renderAndWrite(pages: readonly PagePlan[], chrome: Chrome, outDir: string): Promise<BatchResult> {
  const refs: BatchResult['refs'] = [];
  let bytes = 0;
  for (const page of pages) {
    const html = renderPage(page, chrome);
    bytes += html.length;
    await writeFile(path.join(outDir, page.file), html);
    refs.push([page.route, internalRefs(html)]);
  }
  return { refs, bytes };
}
