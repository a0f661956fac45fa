/**
 * A build or `npm start` stopped midway (Ctrl+C, a crash) leaves its work folder beside dist/
 * (dist.tmp-<pid>, dist.back-office-<pid>, dist.old-<pid>): the next build removes those whose
 * process is gone, and leaves a running one's alone.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { build } from '../../generator/build.js';
import { ROOT, useTempDir } from '../helpers/content.js';

const run = promisify(execFile);

describe('work folders of stopped builds', () => {
  const tmp = useTempDir('abandoned-');

  it('are removed by the next build; a running process keeps its own', async () => {
    // A process id that was just used and is gone.
    const { stdout } = await run(process.execPath, ['-e', 'console.log(process.pid)']);
    const gone = Number(stdout.trim());
    const folder = async (name: string) => {
      await mkdir(path.join(tmp.dir, name, 'locations'), { recursive: true });
      await writeFile(path.join(tmp.dir, name, 'locations', 'half-written.html'), '<!doctype html><title>');
      return path.join(tmp.dir, name);
    };
    const abandoned = [await folder(`dist.tmp-${gone}`), await folder(`dist.back-office-${gone}`), await folder(`dist.old-${gone}`)];
    const running = await folder(`dist.tmp-${process.ppid}`);
    const notOurs = [await folder(`site.tmp-${gone}`), await folder(`dist.tmp-${gone}x`)];

    await build({ root: ROOT, outDir: path.join(tmp.dir, 'dist'), skipIslands: true });

    for (const dir of abandoned) expect(existsSync(dir), dir).toBe(false);
    for (const dir of [running, ...notOurs]) expect(existsSync(dir), dir).toBe(true);
    expect(existsSync(path.join(tmp.dir, 'dist', 'index.html'))).toBe(true);
  });
});
