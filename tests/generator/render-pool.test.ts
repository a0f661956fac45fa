/**
 * A request to a render worker (generator/render/pool.ts) always settles: with the worker's answer,
 * its error, or the news that it ended. A build or `npm run dev` waiting on a worker that is gone
 * would otherwise hang with no message.
 */
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../../generator/render/pool.js';

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
