/**
 * A render worker thread: it holds the layout and renders the batches of pages it is handed
 * (renderAndWrite.ts), and in a build it takes collection files through the whole pipeline
 * (collectionPages.ts). Started by pool.ts.
 */
import '../runtime/env.js';
import { parentPort } from 'node:worker_threads';
import type { Layout, PagePlan } from '../../contracts/pages.js';
import { CollectionPages, type CollectionSetup } from './collectionPages.js';
import { HELD_BYTES, HeldEntries } from './heldEntries.js';
import { renderAndWrite, type CacheTarget } from './renderAndWrite.js';

/** Every request a worker answers (pool.ts sends them). */
export type WorkerRequest =
  | { layout: Layout }
  | { pages: readonly PagePlan[]; outDir: string; cache?: CacheTarget }
  | { collectionSetup: CollectionSetup }
  | { collectionFiles: readonly string[] }
  | { collectionCards: readonly string[] };

let layout: Layout | undefined;
let collections: CollectionPages | undefined;
/** The entries this thread's cards' passes read (every language's, by file), for the pages' passes: a worker serves one build. */
const held = new HeldEntries(HELD_BYTES);

parentPort!.on('message', async (msg: WorkerRequest & { id: number }) => {
  try {
    let result: unknown;
    if ('layout' in msg) layout = msg.layout;
    else if ('collectionSetup' in msg) collections = new CollectionPages(msg.collectionSetup, layout, held);
    else if ('collectionFiles' in msg) result = collections!.run(msg.collectionFiles);
    else if ('collectionCards' in msg) result = collections!.cards(msg.collectionCards);
    else result = renderAndWrite(msg.pages, layout!, msg.outDir, msg.cache);
    parentPort!.postMessage({ id: msg.id, result });
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, error: err instanceof Error ? err.stack ?? err.message : String(err) });
  }
});
