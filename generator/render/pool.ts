/**
 * Render worker threads: each holds the layout and renders the batches of pages it is handed. At
 * most one batch per worker is in flight, so a build that plans pages as it goes holds a few
 * hundred plans at a time, however large the site.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Layout, PagePlan } from '../../contracts/pages.js';
import type { BatchResult } from './renderAndWrite.js';
import { Slots } from './slots.js';

/**
 * A render worker's heap for long-lived objects. React's garbage is short-lived; without a limit
 * V8 lets the heap grow to gigabytes before it collects (10,000 pages on the main thread peaked at
 * 1.1 GiB of memory), with one it collects early and a page at a time is all a worker holds.
 */
const WORKER_OLD_SPACE_MIB = 128;
/** Its heap for new objects: 16 MiB instead of V8's default takes 30 MiB off a 10,000-page build's peak. */
const WORKER_YOUNG_SPACE_MIB = 16;

export function startWorker(): Worker {
  // Workers load the TypeScript sources through tsx's API: Node 20 applies --import loaders in a
  // worker only after its entry module is resolved, so a plain .ts entry cannot be used.
  const api = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./worker.ts', import.meta.url).href;
  const bootstrap = `import { tsImport } from ${JSON.stringify(api)}; await tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), {
    resourceLimits: { maxOldGenerationSizeMb: WORKER_OLD_SPACE_MIB, maxYoungGenerationSizeMb: WORKER_YOUNG_SPACE_MIB },
  });
}

let lastId = 0;

/** Send a worker its layout (`layout`) or a batch to render (`pages`, `outDir`); resolves with its answer. */
export function call(worker: Worker, request: { layout?: Layout; pages?: readonly PagePlan[]; outDir?: string }): Promise<BatchResult | undefined> {
  const msg = { id: ++lastId, ...request };
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

/** Workers that hold one layout and take batches of pages as they come. */
export class RenderPool {
  private readonly idle: Worker[];
  /** One batch per worker in flight. */
  private readonly batches: Slots;

  private constructor(private readonly workers: readonly Worker[], private readonly owned: boolean) {
    this.idle = [...workers];
    this.batches = new Slots(workers.length);
  }

  /** New workers, one per core by default, each given the layout. */
  static async start(layout: Layout, threads = os.availableParallelism()): Promise<RenderPool> {
    const pool = new RenderPool(Array.from({ length: Math.max(1, threads) }, startWorker), true);
    await pool.setLayout(layout).catch(async (err: unknown) => {
      await pool.close();
      throw err;
    });
    return pool;
  }

  /** Workers kept by the caller (npm run dev keeps one between updates); close() leaves them running. */
  static over(workers: readonly Worker[]): RenderPool {
    return new RenderPool(workers, false);
  }

  async setLayout(layout: Layout): Promise<void> {
    await Promise.all(this.workers.map((w) => call(w, { layout })));
  }

  /**
   * Hand a batch to the next free worker: resolves once a worker took it (waiting while every
   * worker is busy), and `done` receives the worker's answer. A failed batch fails the next
   * submit() and drain().
   */
  submit(pages: readonly PagePlan[], outDir: string, done: (result: BatchResult) => void): Promise<void> {
    return this.batches.run(async () => {
      const worker = this.idle.pop()!;
      try {
        done((await call(worker, { pages, outDir }))!);
      } finally {
        this.idle.push(worker);
      }
    });
  }

  /** Resolves when every batch handed out is answered; rejects with the first failure. */
  drain(): Promise<void> {
    return this.batches.idle();
  }

  async close(): Promise<void> {
    await this.batches.idle().catch(() => undefined);
    if (this.owned) await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
