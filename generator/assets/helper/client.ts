/**
 * Asset work that loads large libraries (Vite, Tailwind's compiler, HarfBuzz, sharp) runs outside
 * the build's process, which would keep their memory while it renders pages. The jobs a build
 * starts together share one helper process (generator/assets/helper/entry.ts, compiled by
 * generator/runtime/compiled.mjs, started by generator/assets/helper/start.mjs, perhaps while the generator was
 * still compiling), which runs them side by side: Node and Vite start once, not once per job. The
 * helper ends when it has nothing left to do; a job asked for later starts another.
 */
import type { ChildProcess } from 'node:child_process';
import { forkAssetHelper, takePrestartedAssetHelper } from './start.mjs';
import { compiledCode } from '../../runtime/compiled.mjs';
import type { JobFunction, AssetHelperJob } from './jobs.js';

export interface AssetHelperCall<K extends AssetHelperJob> {
  job: K;
  /** The function's arguments, as JSON. */
  args: Parameters<JobFunction<K>>;
  /** Named in the error: "<what> failed: <the job's error>". */
  what: string;
  /** The root of the build asking: its jobs share one helper, started there (Vite resolves from it). */
  cwd: string;
}

type Result<K extends AssetHelperJob> = Awaited<ReturnType<JobFunction<K>>>;

/** What the helper answers: the job's result, or its error. */
export interface JobReply { id: number; result?: unknown; error?: string; cpuMs?: number }

interface Helper {
  child: ChildProcess;
  waiting: Map<number, { resolve: (reply: JobReply) => void; reject: (err: Error) => void }>;
  /** The helper's output, for the error when it dies (the last 16 KB). */
  output: string;
}

/** The shared helper of each working folder (Vite resolves from it). */
const shared = new Map<string, Promise<Helper>>();
let lastId = 0;

async function startHelper(cwd: string, onEmpty: () => void): Promise<Helper> {
  const entry = (await compiledCode()).entry('assetHelper');
  const child = takePrestartedAssetHelper(cwd) ?? forkAssetHelper({ cwd });
  const helper: Helper = { child, waiting: new Map(), output: '' };
  const keep = (chunk: Buffer) => { helper.output = (helper.output + chunk.toString('utf8')).slice(-16_384); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('message', (reply: JobReply) => {
    const waiter = helper.waiting.get(reply.id);
    if (!waiter) return;
    helper.waiting.delete(reply.id);
    waiter.resolve(reply);
    if (!helper.waiting.size) {
      // Nothing left: the helper ends (its memory goes with it) once the channel is closed.
      onEmpty();
      child.disconnect();
    }
  });
  const fail = (why: string) => {
    onEmpty();
    for (const waiter of helper.waiting.values()) waiter.reject(new Error(`${why}${helper.output.trim() ? `:\n${helper.output.trim()}` : ''}`));
    helper.waiting.clear();
  };
  child.on('error', (err) => fail(`the asset process could not run (${err.message})`));
  child.on('exit', (code, signal) => { if (helper.waiting.size) fail(`the asset process ended (${signal ?? `code ${code}`})`); });
  // Its first message names the compiled entry (generator/assets/helper/start.mjs).
  child.send({ entry });
  return helper;
}

function send(helper: Helper, job: AssetHelperJob, args: unknown[]): Promise<JobReply> {
  const id = ++lastId;
  return new Promise((resolve, reject) => {
    helper.waiting.set(id, { resolve, reject });
    helper.child.send({ id, job, args }, (err) => {
      if (!err) return;
      helper.waiting.delete(id);
      reject(err);
    });
  });
}

/** The job's result (JSON), computed outside this process. */
export async function runInAssetHelper<K extends AssetHelperJob>({ job, args, what, cwd }: AssetHelperCall<K>): Promise<Result<K>> {
  const started = performance.now();
  let reply: JobReply;
  try {
    let helper = shared.get(cwd);
    if (!helper || !(await helper.catch(() => undefined))?.child.connected) {
      helper = startHelper(cwd, () => { if (shared.get(cwd) === helper) shared.delete(cwd); });
      shared.set(cwd, helper);
      helper.catch(() => shared.delete(cwd));
    }
    reply = await send(await helper, job, args);
  } catch (err) {
    throw new Error(`${what} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (reply.error !== undefined) throw new Error(`${what} failed: ${reply.error}`);
  // GENERATOR_TIMINGS=1: each job's wall time, and the processor time of the helper it ran in.
  if (process.env.GENERATOR_TIMINGS) console.error(`    ${job} (asset process): ${Math.round(performance.now() - started)} ms, helper at ${reply.cpuMs ?? '?'} ms processor time`);
  return reply.result as Result<K>;
}
