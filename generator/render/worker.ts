/** A render worker: receives batches of pages, renders and writes them. */
import '../env.js';
import { parentPort } from 'node:worker_threads';
import type { Layout, PagePlan } from '../../contracts/pages.js';
import { renderAndWrite } from './renderAndWrite.js';

let layout: Layout | undefined;

parentPort!.on('message', async (msg: { layout?: Layout; pages?: PagePlan[]; outDir?: string; id: number }) => {
  try {
    if (msg.layout) layout = msg.layout;
    const result = msg.pages ? await renderAndWrite(msg.pages, layout!, msg.outDir!) : undefined;
    parentPort!.postMessage({ id: msg.id, result });
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, error: err instanceof Error ? err.stack ?? err.message : String(err) });
  }
});
