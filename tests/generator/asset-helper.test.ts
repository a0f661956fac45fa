/**
 * The asset helper started before the generator is compiled (generator/assets/helper/start.mjs): the first
 * job takes it, a build that needs none ends it, and a command that never asks for a job is not kept
 * alive by it.
 */
import { execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { prestartAssetHelper, takePrestartedAssetHelper } from '../../generator/assets/helper/start.mjs';
import { runInAssetHelper } from '../../generator/assets/helper/client.js';
import { build } from '../../generator/build.js';
import { ROOT, useTempDir } from '../helpers/content.js';

const run = promisify(execFile);
const prestarted = () => (globalThis as Record<symbol, { child: ChildProcess } | undefined>)[Symbol.for('bayshine.prestartedAssetHelper')]?.child;

/** Whether a process of that id is running (an ended one its parent has not reaped yet is not: state Z). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('the prestarted asset helper', () => {
  const tmp = useTempDir('asset-helper-');

  it('runs the first jobs asked for in its folder, sent before it has loaded the compiled code', async () => {
    prestartAssetHelper(ROOT);
    const child = prestarted()!;
    const exited = once(child, 'exit');
    const dirs = (name: string) => ({ prebuilt: path.join(tmp.dir, 'none'), cache: path.join(tmp.dir, name) });
    const content = path.join(ROOT, 'content');
    // Three jobs at once, in the helper's first moments: each is answered, none lost.
    await Promise.all([
      runInAssetHelper({ job: 'encodeImages', args: [content, dirs('a'), ['home/hero.svg']], what: 'image encoding', cwd: ROOT }),
      runInAssetHelper({ job: 'encodeImages', args: [content, dirs('b'), ['home/about.svg']], what: 'image encoding', cwd: ROOT }),
      runInAssetHelper({ job: 'encodeImages', args: [content, dirs('c'), ['cities/colma.svg']], what: 'image encoding', cwd: ROOT }),
    ]);
    for (const name of ['a', 'b', 'c']) expect(await readdir(path.join(tmp.dir, name))).toHaveLength(1);
    // It was that helper that ran them: with nothing left it ended, and no other is waiting.
    expect(await exited).toEqual([0, null]);
    expect(takePrestartedAssetHelper(ROOT)).toBeUndefined();
  });

  it('is not taken for another folder, and then ends', async () => {
    prestartAssetHelper(ROOT);
    const child = prestarted()!;
    const exited = once(child, 'exit');
    expect(takePrestartedAssetHelper(tmp.dir)).toBeUndefined();
    expect(await exited).toEqual([0, null]);
  });

  it('does not outlive a build that needed no job from it (a long npm run dev would keep it idle)', async () => {
    const outDir = path.join(tmp.dir, 'dist');
    // The first build makes what the second needs: the second asks for no job.
    await build({ root: ROOT, outDir, skipIslands: true });
    prestartAssetHelper(ROOT);
    const child = prestarted()!;
    const exited = once(child, 'exit');
    await build({ root: ROOT, outDir, skipIslands: true });
    expect(await exited).toEqual([0, null]);
    expect(takePrestartedAssetHelper(ROOT)).toBeUndefined();
  });

  it('keeps no command alive that never asks for a job, and ends with it', async () => {
    const script = `import { prestartAssetHelper } from ${JSON.stringify(path.join(ROOT, 'generator/assets/helper/start.mjs'))};
prestartAssetHelper(process.cwd());
console.log(globalThis[Symbol.for('bayshine.prestartedAssetHelper')].child.pid);`;
    // Resolves once the command has exited by itself (the test's timeout fails it otherwise).
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    const pid = Number(stdout.trim());
    expect(pid).toBeGreaterThan(0);
    // Its channel closed with the command: it ends (polled, each check a fresh look at the process table).
    for (let tries = 0; alive(pid) && tries < 400; tries++) await new Promise((r) => setTimeout(r, 25));
    expect(alive(pid)).toBe(false);
  });
});
