/**
 * The island bundle depends only on src/, contracts/, the lockfile and the build settings: it is
 * built once per distinct input and kept in .cache/islands/<digest>/; Vite is not even loaded on a hit.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CacheKey, fillDirAtomic } from '../cache.js';
import type { IslandBundleOptions, IslandBundle } from './islands.js';

function inputDigest(opts: IslandBundleOptions): string {
  return new CacheKey()
    // Everything the islands import: the lead rules live with the edge function they share.
    .files(opts.root, ['src', 'contracts', 'supabase/functions/_shared'])
    .lockfile(opts.root)
    .add(readFileSync(path.join(opts.root, 'generator/assets/islands.ts')), readFileSync(path.join(opts.root, 'generator/assets/viteBundle.ts')))
    .add(JSON.stringify([opts.supabaseUrl ?? '', opts.supabaseAnonKey ?? '', opts.webhookUrl ?? '']))
    .digest(24);
}

export async function bundleIslandsCached(opts: IslandBundleOptions): Promise<IslandBundle> {
  const cacheDir = path.join(opts.root, '.cache', 'islands', inputDigest(opts));
  const cached = await readFile(path.join(cacheDir, 'result.json'), 'utf8').then((t) => JSON.parse(t) as IslandBundle, () => undefined);
  const result = cached ?? await fillDirAtomic(cacheDir, async (staging) => {
    const built = await bundleInOwnProcess({ ...opts, outDir: path.join(staging, 'files') });
    await writeFile(path.join(staging, 'result.json'), JSON.stringify(built));
    return built;
  });
  await cp(path.join(cacheDir, 'files'), opts.outDir, { recursive: true });
  return result;
}

const run = promisify(execFile);

/**
 * Vite and its native bundler take about 400 MB that a build never gets back while it renders; in a
 * process of their own they give it back when the bundle is written. The child loads TypeScript
 * through tsx, as the generator itself does.
 */
async function bundleInOwnProcess(opts: IslandBundleOptions): Promise<IslandBundle> {
  const script = fileURLToPath(new URL('./islandsProcess.ts', import.meta.url));
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script, JSON.stringify(opts)], {
      cwd: opts.root,
      maxBuffer: 16 << 20,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as IslandBundle;
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    // Node prints the throwing source line first; the cause is the line that names the error.
    const cause = stderr?.split('\n').find((line) => /^\w*Error: /.test(line)) ?? stderr ?? String(err);
    throw new Error(`island bundle failed: ${cause}`, { cause: err });
  }
}
