/**
 * A server the tests start as a child process (workerd through wrangler, Deno): in a process group
 * of its own, so close() ends whatever it started too; its output kept (the last 64 KB) for failure
 * messages; ready when its output names its address, a signal to wait for rather than a delay.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ChildServer {
  /** The address the child printed (the `ready` pattern's first group). */
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Ends its process group, then runs `cleanup`. */
  close(): Promise<void>;
}

export interface ChildServerOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Matches the line that says it listens; group 1 is its address. */
  ready: RegExp;
  timeoutMs: number;
  /** Its name in errors. */
  what: string;
  /** Text as it is kept (e.g. without colour codes). */
  clean?: (text: string) => string;
  /** After the child has ended (a temporary folder to remove). */
  cleanup?: () => Promise<void>;
}

export function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

export async function startChildServer(command: string, args: readonly string[], options: ChildServerOptions): Promise<ChildServer> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const clean = options.clean ?? ((text: string) => text);
  const append = (chunk: Buffer) => { log = (log + clean(chunk.toString('utf8'))).slice(-64 * 1024); };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);

  const close = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await exited(child);
    }
    await options.cleanup?.();
  };

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${options.what} did not start in ${options.timeoutMs / 1000} s:\n${log}`)), options.timeoutMs);
      const check = () => {
        const ready = options.ready.exec(log);
        if (ready) {
          clearTimeout(timer);
          resolve(ready[1]!);
        }
      };
      child.stdout!.on('data', check);
      child.stderr!.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${options.what} exited (${code}) before it was ready:\n${log}`));
      });
    });
    return { url, child, output: () => log, close };
  } catch (err) {
    await close();
    throw err;
  }
}
