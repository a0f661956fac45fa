/**
 * Deno, the runtime of Supabase Edge Functions, from the repository's devDependencies (package
 * `deno`), run on the notify-telegram function as Supabase runs it. Offline: the function's npm:
 * imports (deno.json) resolve from the repository's node_modules (--node-modules-dir=manual), never
 * from the registry; an empty DENO_DIR, --cached-only and an unreachable npm registry make any
 * attempt to download fail instead of passing on a machine that happens to be online.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exited, startChildServer } from './childProcess.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const denoPackage = path.dirname(createRequire(import.meta.url).resolve('deno/package.json'));

/** A function's folder, its entry and its import map (the one `supabase functions deploy` reads). */
const functionDir = (name: string) => path.join(repoRoot, 'supabase', 'functions', name);
export const NOTIFY_TELEGRAM_DIR = functionDir('notify-telegram');

/** The platform binary the package installed, else its launcher (which finds the binary itself). */
function denoCommand(): [string, string[]] {
  const binary = path.join(denoPackage, process.platform === 'win32' ? 'deno.exe' : 'deno');
  return existsSync(binary) ? [binary, []] : [process.execPath, [path.join(denoPackage, 'bin.cjs')]];
}

/** Flags that keep Deno on the repository's node_modules and off the network. */
const offlineFlags = (name: string) => ['--config', path.join(functionDir(name), 'deno.json'), '--node-modules-dir=manual', '--cached-only'];

/** Environment of a Deno process: only what is given (no secrets of the shell), and a DENO_DIR of its own. */
function denoEnv(denoDir: string, env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    DENO_DIR: denoDir,
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
    // Where npm packages would be downloaded from, if Deno tried: nothing listens there.
    NPM_CONFIG_REGISTRY: 'http://127.0.0.1:1/',
    ...env,
  };
}

/** `deno check` of the function, as Supabase's bundler type-checks it: the exit code and the output. */
export async function denoCheck(name = 'notify-telegram'): Promise<{ code: number | null; output: string }> {
  const denoDir = await mkdtemp(path.join(tmpdir(), 'deno-dir-'));
  try {
    const [command, prefix] = denoCommand();
    const child = spawn(command, [...prefix, 'check', ...offlineFlags(name), path.join(functionDir(name), 'index.ts')], { cwd: functionDir(name), env: denoEnv(denoDir, {}), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString('utf8'); });
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString('utf8'); });
    const code = await exited(child);
    return { code, output };
  } finally {
    await rm(denoDir, { recursive: true, force: true });
  }
}

export interface DenoFunction {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** Everything the function printed so far (its log lines). */
  output(): string;
  close(): Promise<void>;
}

/** Longest wait for Deno to load the function and listen (it reads supabase-js from node_modules first). */
const START_TIMEOUT_MS = 120_000;

/**
 * Runs a function of supabase/functions (its index.ts, which reads <NAME>_LOCAL_PORT: _shared/denoEntry.ts)
 * under Deno with `env` as its whole environment (what Supabase injects and the secrets), on a free
 * port of 127.0.0.1; resolves once it listens.
 */
export async function startDenoFunction(name: string, env: Record<string, string>): Promise<DenoFunction> {
  const denoDir = await mkdtemp(path.join(tmpdir(), 'deno-dir-'));
  const [command, prefix] = denoCommand();
  const portVariable = `${name.toUpperCase().replaceAll('-', '_')}_LOCAL_PORT`;
  const server = await startChildServer(command, [...prefix, 'run', ...offlineFlags(name), '--no-prompt', '--allow-net=127.0.0.1', '--allow-env', path.join(functionDir(name), 'index.ts')], {
    cwd: functionDir(name),
    env: denoEnv(denoDir, { ...env, [portVariable]: '0' }),
    // index.ts prints its address once Deno.serve listens.
    ready: new RegExp(`${name} listening on (http:\\/\\/127\\.0\\.0\\.1:\\d+\\/)`),
    timeoutMs: START_TIMEOUT_MS,
    what: `${name} under Deno`,
    cleanup: () => rm(denoDir, { recursive: true, force: true }),
  });
  return { url: server.url, output: server.output, close: server.close };
}

/**
 * Runs `code` (a module: it may import the functions' files by absolute file: URL) under Deno with
 * the functions' import map, offline and with no permissions; resolves what it printed.
 */
export async function denoEval(code: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const denoDir = await mkdtemp(path.join(tmpdir(), 'deno-dir-'));
  try {
    const [command, prefix] = denoCommand();
    const child = spawn(command, [...prefix, 'eval', ...offlineFlags('notify-telegram'), code], { cwd: NOTIFY_TELEGRAM_DIR, env: denoEnv(denoDir, {}), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => { stdout += chunk.toString('utf8'); });
    child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    return { code: await exited(child), stdout, stderr };
  } finally {
    await rm(denoDir, { recursive: true, force: true });
  }
}
