/** Renders pages on every core: the page list is split between the main thread and worker threads. */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Layout, PagePlan } from '../../contracts/pages.js';
import { renderAndWrite, type BatchResult } from './renderAndWrite.js';

/** Below this many pages, starting workers costs more than it saves. */
const PARALLEL_THRESHOLD = 400;

export function startWorker(): Worker {
  // Workers load the TypeScript sources through tsx's API: Node 20 applies --import loaders in a
  // worker only after its entry module is resolved, so a plain .ts entry cannot be used.
  const api = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./worker.ts', import.meta.url).href;
  const bootstrap = `import { tsImport } from ${JSON.stringify(api)}; await tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`));
}

export function call(worker: Worker, msg: { id: number; layout?: Layout; pages?: readonly PagePlan[]; outDir?: string }): Promise<BatchResult | undefined> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: { id: number; result?: BatchResult; error?: string }) => {
      if (reply.id !== msg.id) return;
      worker.off('message', onMessage);
      worker.off('error', reject);
      if (reply.error) reject(new Error(reply.error));
      else resolve(reply.result);
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.postMessage(msg);
  });
}

export async function renderPages(pages: readonly PagePlan[], layout: Layout, outDir: string, threads = os.availableParallelism()): Promise<BatchResult> {
  if (pages.length < PARALLEL_THRESHOLD || threads < 2) return renderAndWrite(pages, layout, outDir);
  // The main thread renders too: one worker fewer is one copy fewer of React and the templates in
  // memory, and coordinating the batches costs the main thread next to nothing.
  const workers = Array.from({ length: threads - 1 }, startWorker);
  try {
    await Promise.all(workers.map((w, i) => call(w, { id: i, layout })));
    // Small batches handed out on demand keep every core busy to the end.
    const batchSize = Math.max(50, Math.ceil(pages.length / (threads * 8)));
    let next = 0;
    let id = threads;
    const results: BatchResult[] = [];
    const take = () => {
      const batch = pages.slice(next, next + batchSize);
      next += batchSize;
      return batch;
    };
    await Promise.all([
      ...workers.map(async (worker) => {
        while (next < pages.length) results.push((await call(worker, { id: id++, pages: take(), outDir }))!);
      }),
      (async () => {
        // Yield between batches so the workers' messages are answered promptly.
        while (next < pages.length) {
          results.push(await renderAndWrite(take(), layout, outDir));
          await new Promise((resolve) => setImmediate(resolve));
        }
      })(),
    ]);
    return { refs: results.flatMap((r) => r.refs), bytes: results.reduce((n, r) => n + r.bytes, 0) };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
