/**
 * Render worker threads: each holds the layout and renders the batches of pages it is handed. At
 * most two batches per worker are in flight, so a build that plans pages as it goes holds a few
 * hundred plans at a time, however large the site.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Layout, PagePlan } from '../../contracts/pages.js';
import type { BatchResult, CacheTarget } from './renderAndWrite.js';
import { Slots } from './slots.js';

/**
 * A render worker's heap for long-lived objects. React's garbage is short-lived; without a limit
 * V8 lets the heap grow far before it collects; with one it collects early and a page at a time
 * is all a worker holds.
 */
const WORKER_OLD_SPACE_MIB = 128;
/**
 * What each card a worker holds adds to that: where pages list other entries, every worker holds
 * every card of their collection. 50,000 cards took 1.2 KB each of a worker's heap
 * (v8.getHeapStatistics once they were in it); under the fixed limit a worker of that build ran
 * out of memory.
 */
const CARD_HEAP_BYTES = 1_536;
/** Its heap for new objects: 16 MiB instead of V8's default lowers a large build's peak. */
const WORKER_YOUNG_SPACE_MIB = 32;

/** A render worker; `cards`: how many cards it will hold (see CARD_HEAP_BYTES). */
export function startWorker(cards = 0): Worker {
  // The worker runs the compiled code of the sources as they are when it starts (generator/
  // compiled.mjs), so one restarted by `npm run dev` after a templates/ change renders with the
  // new templates. Messages sent meanwhile wait in its port until renderWorker.ts listens.
  const compiled = new URL('../runtime/compiled.mjs', import.meta.url).href;
  const bootstrap = `process.setSourceMapsEnabled(true); const { compiledCode } = await import(${JSON.stringify(compiled)}); await import((await compiledCode()).entry('worker'));`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), {
    resourceLimits: { maxOldGenerationSizeMb: WORKER_OLD_SPACE_MIB + Math.ceil((cards * CARD_HEAP_BYTES) / 2 ** 20), maxYoungGenerationSizeMb: WORKER_YOUNG_SPACE_MIB },
  });
}

/**
 * What a worker is asked: here, its layout and batches of pages; the worker's entry
 * (generator/render/worker.ts) lists every request it answers.
 */
export type WorkerRequest = Record<string, unknown>;

/** Below this many pages (or collection files) to render, starting workers costs more than it saves. */
export const PARALLEL_THRESHOLD = 400;
/** Pages (or collection files) per batch handed to a worker: work worth a message, plans that take little memory. */
export const BATCH_PAGES = 100;

let lastId = 0;

/** Send a worker a request; resolves with its answer. */
export function call<T>(worker: Worker, request: WorkerRequest): Promise<T> {
  const msg = { id: ++lastId, ...request };
  return new Promise((resolve, reject) => {
    const settle = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (reply: { id: number; result?: T; error?: string }) => {
      if (reply.id !== msg.id) return;
      settle();
      if (reply.error) reject(new Error(reply.error));
      else resolve(reply.result as T);
    };
    const onError = (err: Error) => {
      settle();
      reject(err);
    };
    // A worker can end without an error event (process.exit, terminate()): the call would wait forever.
    const onExit = (code: number) => {
      settle();
      reject(new Error(`a render worker ended (exit code ${code}) before it answered`));
    };
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage(msg);
  });
}

/**
 * Requests in flight per worker: a second one waits in the worker's queue, so the worker starts on
 * it as soon as it answers the first instead of idling while this thread takes the answer in.
 */
const IN_FLIGHT_PER_WORKER = 2;

/** Workers that hold one layout and take batches of pages as they come. */
export class RenderPool {
  /** Requests in flight on each worker. */
  private readonly load: Map<Worker, number>;
  private readonly batches: Slots;

  private constructor(private readonly workers: readonly Worker[], private readonly owned: boolean) {
    this.load = new Map(workers.map((w) => [w, 0]));
    this.batches = new Slots(workers.length * IN_FLIGHT_PER_WORKER);
  }

  /** New workers, one per core by default, each given the layout if there is one yet and room for `cards` cards. */
  static async start(layout: Layout | undefined, threads = os.availableParallelism(), cards = 0): Promise<RenderPool> {
    const pool = new RenderPool(Array.from({ length: Math.max(1, threads) }, () => startWorker(cards)), true);
    if (layout) {
      await pool.setLayout(layout).catch(async (err: unknown) => {
        await pool.close();
        throw err;
      });
    }
    return pool;
  }

  /** Workers kept by the caller (npm run dev keeps one between updates); close() leaves them running. */
  static over(workers: readonly Worker[]): RenderPool {
    return new RenderPool(workers, false);
  }

  setLayout(layout: Layout): Promise<void> {
    return this.broadcast({ layout });
  }

  /** The same request to every worker (say, what every later request needs). */
  async broadcast(request: WorkerRequest): Promise<void> {
    await Promise.all(this.workers.map((w) => call(w, request)));
  }

  /**
   * Hand a batch to the next free worker: resolves once a worker took it (waiting while every
   * worker is busy), and `done` receives the worker's answer. A failed batch fails the next
   * submit() and drain(). With `cache`, each page written is linked into the page cache.
   */
  submit(pages: readonly PagePlan[], outDir: string, done: (result: BatchResult) => void, cache?: CacheTarget): Promise<void> {
    return this.ask<BatchResult>({ pages, outDir, ...(cache && { cache }) }, done);
  }

  /** submit() for any request: the next free worker takes it, `done` gets its answer and which worker (0, 1…) gave it. */
  ask<T>(request: WorkerRequest, done: (result: T, worker: number) => void): Promise<void> {
    return this.batches.run(async () => {
      // The least busy worker.
      const worker = [...this.load].reduce((a, b) => (b[1] < a[1] ? b : a))[0];
      this.load.set(worker, this.load.get(worker)! + 1);
      try {
        done(await call<T>(worker, request), this.workers.indexOf(worker));
      } finally {
        this.load.set(worker, this.load.get(worker)! - 1);
      }
    });
  }

  /**
   * Requests each meant for one worker (`worker`: it holds what the request needs, and does it
   * faster) or for any: a worker takes its own first, then any, then another's (which it can do
   * too, more slowly), so none idles while requests wait. Resolves once every one is answered.
   */
  async distribute<T>(requests: readonly { worker?: number; request: WorkerRequest }[], done: (result: T) => void): Promise<void> {
    await this.batches.idle();
    const own = this.workers.map(() => [] as WorkerRequest[]);
    const any: WorkerRequest[] = [];
    for (const { worker, request } of requests) (worker !== undefined && own[worker] ? own[worker] : any).push(request);
    let failed = false;
    const next = (i: number): WorkerRequest | undefined => {
      if (failed) return undefined;
      const other = own.reduce((a, b) => (b.length > a.length ? b : a));
      return own[i]!.shift() ?? any.shift() ?? other.pop();
    };
    const loop = async (i: number) => {
      for (let request = next(i); request; request = next(i)) {
        try {
          done(await call<T>(this.workers[i]!, request));
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    };
    await Promise.all(this.workers.flatMap((_, i) => Array.from({ length: IN_FLIGHT_PER_WORKER }, () => loop(i))));
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
