/** Renders pages on every core: the page list is split between the main thread and worker threads. */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Layout, PagePlan } from '../../contracts/pages.js';
import type { BatchResult } from './renderAndWrite.js';

/** Below this many pages, starting workers costs more than it saves. */
const PARALLEL_THRESHOLD = 400;

/**
 * A render worker's heap for long-lived objects. React's garbage is short-lived; without a limit
 * V8 lets the heap grow to gigabytes before it collects (10,000 pages on the main thread peaked at
 * 1.1 GiB of memory), with one it collects early and a page at a time is all a worker holds.
 */
const WORKER_OLD_SPACE_MIB = 128;
/** Its heap for new objects: 16 MiB instead of V8's default takes 30 MiB off a 10,000-page build's peak. */
const WORKER_YOUNG_SPACE_MIB = 16;

/**
 * A page whose plan is larger than this (JSON characters) renders on the main thread, whose heap
 * is not capped: /locations of a 50,000-city site lists 50,000 cards, more than a worker's heap
 * holds while React renders them. 10,000 cities stay below it.
 */
const WORKER_PAGE_MAX_JSON = 3_000_000;

/** A page to render, and the length of its plan's JSON (the page cache computes it anyway). */
export interface PageJob { page: PagePlan; size: number }

export function startWorker(): Worker {
  // The worker runs the compiled code of the sources as they are when it starts (generator/
  // compiled.mjs), so one restarted by `npm run dev` after a templates/ change renders with the
  // new templates. Messages sent meanwhile wait in its port until worker.ts listens.
  const compiled = new URL('../compiled.mjs', import.meta.url).href;
  const bootstrap = `process.setSourceMapsEnabled(true); const { compiledCode } = await import(${JSON.stringify(compiled)}); await import((await compiledCode()).entry('worker'));`;
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

export async function renderPages(jobs: readonly PageJob[], layout: Layout, outDir: string, threads = os.availableParallelism()): Promise<BatchResult> {
  if (jobs.length < PARALLEL_THRESHOLD) return renderOnMain(jobs.map((j) => j.page), layout, outDir);
  const workers = Array.from({ length: Math.max(1, threads) }, startWorker);
  try {
    await Promise.all(workers.map((w) => call(w, { layout })));
    return await renderSplit(workers, jobs, layout, outDir);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * Workers with their capped heaps render the pages; the main thread hands out batches and renders
 * the few pages too large for a worker.
 */
export async function renderSplit(workers: readonly Worker[], jobs: readonly PageJob[], layout: Layout, outDir: string): Promise<BatchResult> {
  const fits = (j: PageJob) => j.size <= WORKER_PAGE_MAX_JSON;
  const [a, b] = await Promise.all([
    renderOn(workers, jobs.filter(fits).map((j) => j.page), outDir),
    renderOnMain(jobs.filter((j) => !fits(j)).map((j) => j.page), layout, outDir),
  ]);
  return { refs: [...a.refs, ...b.refs], bytes: a.bytes + b.bytes };
}

async function renderOnMain(pages: readonly PagePlan[], layout: Layout, outDir: string): Promise<BatchResult> {
  if (!pages.length) return { refs: [], bytes: 0 };
  // Loaded only here: most builds never render on the main thread, which then need not hold
  // React and the templates.
  const { renderAndWrite } = await import('./renderAndWrite.js');
  return renderAndWrite(pages, layout, outDir);
}

/**
 * Render pages on workers that already hold the layout, in batches handed out on demand (every
 * core busy to the end; no worker ever holds more than a batch, which its capped heap requires).
 */
export async function renderOn(workers: readonly Worker[], pages: readonly PagePlan[], outDir: string): Promise<BatchResult> {
  if (!pages.length) return { refs: [], bytes: 0 };
  const batchSize = Math.min(500, Math.max(50, Math.ceil(pages.length / (workers.length * 8))));
  let next = 0;
  const refs: BatchResult['refs'] = [];
  let bytes = 0;
  // Every page links to nearly the same URLs: one string each instead of one per page and link
  // (400,000 strings for 10,000 pages, held until the link check).
  const urls = new Map<string, string>();
  const intern = (url: string) => urls.get(url) ?? (urls.set(url, url), url);
  await Promise.all(workers.map(async (worker) => {
    while (next < pages.length) {
      const batch = pages.slice(next, next += batchSize);
      const result = (await call(worker, { pages: batch, outDir }))!;
      for (const [route, list] of result.refs) refs.push([route, list.map(intern)]);
      bytes += result.bytes;
    }
  }));
  return { refs, bytes };
}
