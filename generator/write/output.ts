/**
 * The output folder, replaced whole or not at all: a build writes into a work folder beside it
 * (dist.tmp-<pid>) that replaces dist/ only when everything succeeded, so a failed build leaves the
 * previous dist/ exactly as it was.
 */
import { readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Runs `fill` on a fresh work folder and swaps it in for outDir when it succeeds; removes it when it
 * fails (`fill` must settle everything it started before it throws).
 */
export async function replaceOutput<T>(outDir: string, fill: (workDir: string) => Promise<T>): Promise<T> {
  const tmp = `${outDir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await removeAbandoned(outDir);
  try {
    const result = await fill(tmp);
    await swap(tmp, outDir);
    return result;
  } catch (err) {
    // A clean-up that fails too must not hide why the build failed.
    await rm(tmp, { recursive: true, force: true, maxRetries: 3 }).catch((cleanup: unknown) => console.error(`Could not remove ${tmp}:`, cleanup));
    throw err;
  }
}

/** Move every file of `from` into `into` (a folder `into` lacks moves whole), replacing files of the same name. */
export async function moveInto(from: string, into: string): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(into, entry.name);
    if (entry.isDirectory() && await stat(target).then((s) => s.isDirectory(), () => false)) await moveInto(source, target);
    else await rename(source, target);
  }
}

/** The folders a build works in beside outDir, each named by the process that made it. */
const WORK_FOLDER = /^(.*)\.(tmp|old|back-office)-(\d+)$/;

/**
 * Work folders beside outDir whose process is gone: a build or `npm start` stopped midway (Ctrl+C,
 * a crash) leaves its folder of pages behind. Another running build's folder is left alone.
 */
async function removeAbandoned(outDir: string): Promise<void> {
  const parent = path.dirname(outDir);
  for (const name of await readdir(parent).catch(() => [])) {
    const [, base, , pid] = WORK_FOLDER.exec(name) ?? [];
    // This process's own folder counts as running too.
    if (base !== path.basename(outDir) || processRuns(Number(pid))) continue;
    await rm(path.join(parent, name), { recursive: true, force: true });
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Replace outDir by the finished build in two renames; the old output is removed afterwards. */
async function swap(tmp: string, outDir: string): Promise<void> {
  const old = `${outDir}.old-${process.pid}`;
  const hadOld = await rename(outDir, old).then(() => true, (e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return false;
    throw e;
  });
  try {
    await rename(tmp, outDir);
  } catch (err) {
    if (hadOld) await rename(old, outDir); // put the previous site back
    throw err;
  }
  if (hadOld) removeTree(old);
}

/**
 * A folder and everything in it, removed synchronously (the build has nothing else to do) by the
 * entries' types as the folder lists them: fs.rm looks at each file again (lstat) and its promise
 * API waits a round trip per file, which made removing 13,000 pages 0.3 s instead of 0.1 s.
 */
function removeTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) removeTree(child);
    else unlinkSync(child);
  }
  rmdirSync(dir);
}
