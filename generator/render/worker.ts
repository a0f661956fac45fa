/** A render worker: receives batches of pages, renders and writes them. */
import '../env.js';
import { parentPort } from 'node:worker_threads';
import type { Chrome, PagePlan } from '../plan/types.js';
import { renderAndWrite } from './renderAndWrite.js';

let chrome: Chrome | undefined;

parentPort!.on('message', async (msg: { chrome?: Chrome; pages?: PagePlan[]; outDir?: string; id: number }) => {
  try {
    if (msg.chrome) chrome = msg.chrome;
    const result = msg.pages ? await renderAndWrite(msg.pages, chrome!, msg.outDir!) : undefined;
    parentPort!.postMessage({ id: msg.id, result });
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, error: err instanceof Error ? err.stack ?? err.message : String(err) });
  }
});
