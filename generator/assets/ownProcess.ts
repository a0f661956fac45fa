/**
 * Asset work that loads large libraries (Vite, Tailwind's compiler, HarfBuzz, sharp) runs in a Node
 * process of its own: the build's process would keep their memory while it renders pages. The
 * child (ownProcessEntry.ts) imports the module, calls the function and prints its result as JSON;
 * it loads TypeScript through tsx, as the generator itself does.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const entry = fileURLToPath(new URL('./ownProcessEntry.ts', import.meta.url));

export interface OwnProcessCall {
  /** The module (its URL: new URL('./x.ts', import.meta.url)) and the exported function to call. */
  module: URL;
  fn: string;
  /** The function's arguments, as JSON. */
  args: unknown[];
  /** Named in the error: "<what> failed: <the child's error>". */
  what: string;
  cwd?: string;
}

/** The function's result (JSON), computed in a process of its own. */
export async function runInOwnProcess<T>({ module, fn, args, what, cwd }: OwnProcessCall): Promise<T> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', entry, JSON.stringify({ module: module.href, fn, args })], {
      ...(cwd && { cwd }),
      maxBuffer: 16 << 20,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    // Node prints the throwing source line first; the cause is the line that names the error.
    const cause = stderr?.split('\n').find((line) => /^\w*Error: /.test(line)) ?? stderr ?? String(err);
    throw new Error(`${what} failed: ${cause}`, { cause: err });
  }
}
