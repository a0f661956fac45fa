/**
 * One command as a user runs it, measured from outside: wall time from spawn to exit, and the peak
 * memory of its whole process tree (the command, npm's shell and node, render threads inside it,
 * asset helper processes, Vite's workers), the sum of the tree's resident sets sampled from /proc.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const PAGE_BYTES = 4096;
const SAMPLE_MS = 20;

export interface Measured {
  wallMs: number;
  /** Peak of the summed resident memory of the process and all its descendants, MiB. */
  peakTreeMiB: number;
  /** Peak resident memory of its largest single process, MiB (what GNU time's %M reports for a peer). */
  peakProcessMiB: number;
  stdout: string;
  stderr: string;
}

/** The process and its descendants (Linux: /proc/<pid>/task/<tid>/children). */
function tree(pid: number, into: number[] = []): number[] {
  into.push(pid);
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return into; // ended meanwhile
  }
  for (const tid of tasks) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(' ').filter(Boolean)) tree(Number(child), into);
  }
  return into;
}

function residentBytes(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return 0;
  }
}

/** Run `command args` in `cwd` with `env`; rejects with its output when it exits non-zero. */
export function measure(command: string, args: readonly string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString('utf8'); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    let peak = 0;
    let peakProcess = 0;
    const sample = () => {
      if (child.pid === undefined) return;
      const sizes = tree(child.pid).map(residentBytes);
      peak = Math.max(peak, sizes.reduce((sum, bytes) => sum + bytes, 0));
      peakProcess = Math.max(peakProcess, ...sizes);
    };
    const sampler = setInterval(sample, SAMPLE_MS);
    child.once('error', (err) => {
      clearInterval(sampler);
      reject(err);
    });
    // 'close': the process has exited and its output is all read.
    child.once('close', (code) => {
      clearInterval(sampler);
      const wallMs = performance.now() - started;
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${stderr.slice(-4000)}`));
      else resolve({ wallMs, peakTreeMiB: peak / 2 ** 20, peakProcessMiB: peakProcess / 2 ** 20, stdout, stderr });
    });
  });
}
