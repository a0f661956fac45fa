/**
 * A request to a render worker (generator/render/pool.ts) always settles: with the worker's answer,
 * its error, or the news that it ended. A build or `npm run dev` waiting on a worker that is gone
 * would otherwise hang with no message.
 */
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { call, RenderPool, startWorker } from '../../generator/render/pool.js';
import { cardsHeld } from '../../generator/render/readCollections.js';
import { HeldEntries } from '../../generator/render/heldEntries.js';

/** A worker that answers `{ double }` and ends itself on `{ quit }`. */
const WORKER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (msg) => {
  if (msg.quit !== undefined) process.exit(msg.quit);
  if (msg.fail) parentPort.postMessage({ id: msg.id, error: 'no such page' });
  else parentPort.postMessage({ id: msg.id, result: msg.double * 2 });
});`;

describe('a request to a render worker', () => {
  let worker: Worker;
  afterEach(() => worker.terminate());

  it('resolves with its answer, rejects with its error, and rejects when the worker ends before it answers', async () => {
    worker = new Worker(WORKER, { eval: true });
    await expect(call<number>(worker, { double: 21 })).resolves.toBe(42);
    await expect(call(worker, { fail: true })).rejects.toThrow('no such page');
    const pending = call(worker, { double: 1 });
    const quitting = call(worker, { quit: 3 });
    await expect(quitting).rejects.toThrow('a render worker ended (exit code 3) before it answered');
    // The request that was answered before the worker ended keeps its answer.
    await expect(pending).resolves.toBe(2);
    // Settled calls leave no listeners behind on the worker.
    expect(worker.listenerCount('message') + worker.listenerCount('error') + worker.listenerCount('exit')).toBe(0);
  });
});

describe('requests meant for one worker (RenderPool.distribute)', () => {
  /** A worker that answers with its name and the request's number; on `hold` it waits until the test lets it go. */
  const NAMED = `
const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', (msg) => {
  if (msg.fail) return parentPort.postMessage({ id: msg.id, error: 'broken file' });
  if (msg.hold) Atomics.wait(new Int32Array(workerData.gate), 0, 0);
  parentPort.postMessage({ id: msg.id, result: { worker: workerData.name, n: msg.n } });
});`;
  let workers: Worker[] = [];
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.terminate()));
    workers = [];
  });

  it('answers every request once, each by its own worker, but a worker with nothing left takes what waits for a busy one', async () => {
    const gate = new SharedArrayBuffer(4);
    workers = [new Worker(NAMED, { eval: true, workerData: { name: 'a', gate } }), new Worker(NAMED, { eval: true, workerData: { name: 'b', gate } })];
    const pool = RenderPool.over(workers);
    // Worker a is held on its first request (its second waits behind it) until b has answered all it can.
    const requests = [
      { worker: 0, request: { n: 0, hold: true } },
      ...Array.from({ length: 5 }, (_, i) => ({ worker: 0, request: { n: 1 + i } })),
      ...Array.from({ length: 2 }, (_, i) => ({ worker: 1, request: { n: 6 + i } })),
      { request: { n: 8 } },
    ];
    const answers: { worker: string; n: number }[] = [];
    await pool.distribute<{ worker: string; n: number }>(requests, (answer) => {
      answers.push(answer);
      if (answers.length === 7) {
        Atomics.store(new Int32Array(gate), 0, 1);
        Atomics.notify(new Int32Array(gate), 0);
      }
    });
    expect(answers.map((a) => a.n).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const by = (name: string) => answers.filter((a) => a.worker === name).map((a) => a.n).sort((x, y) => x - y);
    expect(by('a')).toEqual([0, 1]);
    expect(by('b')).toEqual([2, 3, 4, 5, 6, 7, 8]);
  });

  it('fails with the first request that fails, and hands out nothing after it', async () => {
    workers = [new Worker(NAMED, { eval: true, workerData: { name: 'a', gate: new SharedArrayBuffer(4) } })];
    const pool = RenderPool.over(workers);
    const answered: number[] = [];
    const requests = [{ worker: 0, request: { n: 0 } }, { worker: 0, request: { fail: true } }, ...Array.from({ length: 5 }, (_, i) => ({ worker: 0, request: { n: 1 + i } }))];
    await expect(pool.distribute<{ n: number }>(requests, (a) => answered.push(a.n))).rejects.toThrow('broken file');
    // Two requests are in flight at a time: only the one taken beside the failure may be answered after it.
    expect(answered.filter((n) => n > 0).length).toBeLessThanOrEqual(1);
  });
});

describe('the entries a thread keeps between the cards\' pass and the pages\' pass', () => {
  it('keeps entries up to its budget of file bytes and gives each up once', () => {
    const held = new HeldEntries(10_000);
    const entry = (slug: string) => ({ entry: { slug }, card: { slug }, digest: slug });
    held.hold('content/articles/a.md', entry('a'), 6_000);
    held.hold('content/articles/b.md', entry('b'), 6_000);
    held.hold('content/articles/c.md', entry('c'), 4_000);
    expect(held.take('content/articles/a.md')?.card.slug).toBe('a');
    expect(held.take('content/articles/a.md')).toBeUndefined();
    // b did not fit beside a; c did: a page of b is made from its file, read again.
    expect(held.take('content/articles/b.md')).toBeUndefined();
    expect(held.take('content/articles/c.md')?.card.slug).toBe('c');
  });
});

describe("a render worker's heap", () => {
  it('has room for every card the worker holds: 50,000 articles took 1.2 KB of it each, past the fixed limit', async () => {
    const files = [...Array.from({ length: 50_000 }, (_, n) => `articles/question-${n}.md`), ...Array.from({ length: 500 }, (_, n) => `cities/city-${n}.yaml`)];
    // A city's page lists no other entry: a worker holds no city's card.
    expect(cardsHeld(files)).toBe(50_000);
    const [plain, holding] = [startWorker(), startWorker(cardsHeld(files))];
    try {
      const room = holding.resourceLimits!.maxOldGenerationSizeMb! - plain.resourceLimits!.maxOldGenerationSizeMb!;
      expect(room).toBeGreaterThanOrEqual(Math.ceil((50_000 * 1_200) / 2 ** 20));
    } finally {
      await Promise.all([plain.terminate(), holding.terminate()]);
    }
  });
});
