/**
 * Asset work that loads large libraries (Tailwind's compiler, HarfBuzz, sharp) runs in a Node
 * process of its own on a cache miss: the build's process would keep their memory while it renders.
 * The child writes its results into .cache/; the build reads them from there.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Run `script` (a module of generator/ that reads its argument as JSON) and wait for it. */
export async function runInOwnProcess(script: URL, arg: unknown, what: string): Promise<void> {
  try {
    await run(process.execPath, ['--import', 'tsx', fileURLToPath(script), JSON.stringify(arg)], { maxBuffer: 16 << 20 });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    // Node prints the throwing source line first; the cause is the line that names the error.
    const cause = stderr?.split('\n').find((line) => /^\w*Error: /.test(line)) ?? stderr ?? String(err);
    throw new Error(`${what} failed: ${cause}`, { cause: err });
  }
}

/** The JSON argument a script run by runInOwnProcess was given. */
export const ownProcessArg = <T>(): T => JSON.parse(process.argv[2] ?? '{}') as T;
