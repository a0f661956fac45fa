/**
 * The island bundle depends only on src/, contracts/, the lockfile and the build settings: it is
 * built once per distinct input and kept in .cache/islands/<digest>/; Vite is not even loaded on a hit.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CacheKey, cachedOutput } from '../cache.js';
import type { IslandBundleOptions, IslandBundle } from './islands.js';
import { runInOwnProcess } from './ownProcess.js';

function inputDigest(opts: IslandBundleOptions): string {
  return new CacheKey()
    // Everything the islands import: the lead rules live with the edge function they share.
    .files(opts.root, ['src', 'contracts', 'supabase/functions/_shared'])
    .lockfile(opts.root)
    .add(readFileSync(path.join(opts.root, 'generator/assets/islands.ts')), readFileSync(path.join(opts.root, 'generator/assets/viteBundle.ts')))
    .add(JSON.stringify([opts.supabaseUrl ?? '', opts.supabaseAnonKey ?? '', opts.webhookUrl ?? '']))
    .digest(24);
}

export function bundleIslandsCached(opts: IslandBundleOptions): Promise<IslandBundle> {
  const cacheDir = path.join(opts.root, '.cache', 'islands', inputDigest(opts));
  return cachedOutput(cacheDir, opts.outDir, (filesDir) => bundleInOwnProcess({ ...opts, outDir: filesDir }));
}

/** Vite and its native bundler take about 400 MB that the build would keep while it renders. */
function bundleInOwnProcess(opts: IslandBundleOptions): Promise<IslandBundle> {
  return runInOwnProcess({ job: 'bundleIslands', args: [opts], what: 'island bundle', cwd: opts.root });
}
