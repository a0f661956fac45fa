/**
 * Asset work that loads large libraries (Vite, Tailwind's compiler, HarfBuzz, sharp) runs in a Node
 * process of its own: the build's process would keep their memory while it renders pages. The
 * child (generator/ownProcessEntry.ts, compiled: generator/compiled.mjs) runs one job of
 * generator/ownProcessJobs.ts and prints its result as JSON.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { compiledCode } from '../compiled.mjs';
import type { JobFunction, OwnProcessJob } from '../ownProcessJobs.js';

const run = promisify(execFile);

export interface OwnProcessCall<K extends OwnProcessJob> {
  job: K;
  /** The function's arguments, as JSON. */
  args: Parameters<JobFunction<K>>;
  /** Named in the error: "<what> failed: <the child's error>". */
  what: string;
  cwd?: string;
}

/** The job's result (JSON), computed in a process of its own. */
export async function runInOwnProcess<K extends OwnProcessJob>({ job, args, what, cwd }: OwnProcessCall<K>): Promise<Awaited<ReturnType<JobFunction<K>>>> {
  const started = performance.now();
  try {
    const entry = (await compiledCode()).entry('ownProcess');
    const { stdout, stderr } = await run(process.execPath, ['--enable-source-maps', fileURLToPath(entry), JSON.stringify({ job, args })], {
      ...(cwd && { cwd }),
      maxBuffer: 16 << 20,
    });
    if (process.env.GENERATOR_TIMINGS) console.error(`    ${job} (own process): ${Math.round(performance.now() - started)} ms, ${/cpu (\d+ ms)/.exec(stderr)?.[1] ?? '?'} processor time`);
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as Awaited<ReturnType<JobFunction<K>>>;
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    // Node prints the throwing source line first; the cause is the line that names the error.
    const cause = stderr?.split('\n').find((line) => /^\w*Error: /.test(line)) ?? stderr ?? String(err);
    throw new Error(`${what} failed: ${cause}`, { cause: err });
  }
}
