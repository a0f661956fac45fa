/**
 * The asset helper process of runInAssetHelper (generator/assets/helper/client.ts), once
 * generator/assets/helper/start.mjs has imported it: runs the jobs it is sent, side by side, and answers
 * each with its result (JSON) or its error. It ends when the build closes the channel, which it
 * does once no job is left.
 *
 * A job that computes for a second or more without yielding (the font's WebAssembly) runs on a
 * thread of its own, so it does not stall the others; a thread rather than another process, which
 * would load Node a second time.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { assetHelperJobs, type AssetHelperJob } from './jobs.js';
import type { JobReply } from './client.js';

const ON_A_THREAD: ReadonlySet<AssetHelperJob> = new Set(['subsetFontInto']);

interface JobMessage { job: AssetHelperJob; args: unknown[] }

async function run({ job, args }: JobMessage): Promise<unknown> {
  const fn = (await assetHelperJobs[job]()) as (...args: unknown[]) => unknown;
  return (await fn(...args)) ?? null;
}

function runOnThread(message: JobMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // This very file, compiled: the helper process was told where it is (generator/assets/helper/start.mjs).
    const worker = new Worker(process.argv[1]!, { workerData: message });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the ${message.job} thread ended (code ${code})`)));
  });
}

/**
 * Answer the jobs the build sends (`message`: generator/assets/helper/start.mjs hands it each message,
 * those that came while this module loaded first).
 */
export function serveJobs(): (message: JobMessage & { id: number }) => void {
  const reply = (message: JobReply) => {
    const { user, system } = process.cpuUsage();
    process.send!({ ...message, cpuMs: Math.round((user + system) / 1000) });
  };
  return async ({ id, ...message }) => {
    try {
      reply({ id, result: await (ON_A_THREAD.has(message.job) ? runOnThread(message) : run(message)) });
    } catch (err) {
      reply({ id, error: err instanceof Error ? err.message : String(err) });
    }
  };
}

if (!isMainThread) {
  // An error thrown here reaches runOnThread as the worker's 'error' event.
  parentPort!.postMessage(await run(workerData as JobMessage));
}
