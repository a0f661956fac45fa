/** Render a batch of pages and write them; returns what the link check needs. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Chrome, PagePlan } from '../plan/types.js';
import { internalRefs } from '../write/links.js';
import { renderPage } from './renderPage.js';

export interface BatchResult {
  /** route → internal URLs it references; pages sharing the same set are listed once per set. */
  refs: [route: string, refs: string[]][];
  bytes: number;
}

export async function renderAndWrite(pages: readonly PagePlan[], chrome: Chrome, outDir: string): Promise<BatchResult> {
  const refs: BatchResult['refs'] = [];
  const seen = new Set<string>();
  let bytes = 0;
  for (const page of pages) {
    const html = renderPage(page, chrome);
    bytes += html.length;
    await writeFile(path.join(outDir, page.file), html);
    const pageRefs = internalRefs(html);
    const key = pageRefs.join('\n');
    if (!seen.has(key)) {
      seen.add(key);
      refs.push([page.route, pageRefs]);
    }
  }
  return { refs, bytes };
}
