/**
 * A render worker thread: it holds the layout and renders the batches of pages it is handed
 * (render/renderAndWrite.ts), and in a build it takes the city files through the whole pipeline
 * (cityPages.ts). Started by render/pool.ts.
 */
import './env.js';
import { parentPort } from 'node:worker_threads';
import type { Layout, PagePlan } from '../contracts/pages.js';
import { CityPages, type CitySetup } from './cityPages.js';
import { renderAndWrite } from './render/renderAndWrite.js';

/** Every request a worker answers (render/pool.ts sends them). */
export type WorkerRequest =
  | { layout: Layout }
  | { pages: readonly PagePlan[]; outDir: string }
  | { citySetup: CitySetup }
  | { cityFiles: readonly string[] };

let layout: Layout | undefined;
let cities: CityPages | undefined;

parentPort!.on('message', async (msg: WorkerRequest & { id: number }) => {
  try {
    let result: unknown;
    if ('layout' in msg) layout = msg.layout;
    else if ('citySetup' in msg) cities = new CityPages(msg.citySetup, layout);
    else if ('cityFiles' in msg) result = cities!.run(msg.cityFiles);
    else result = renderAndWrite(msg.pages, layout!, msg.outDir);
    parentPort!.postMessage({ id: msg.id, result });
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, error: err instanceof Error ? err.stack ?? err.message : String(err) });
  }
});
