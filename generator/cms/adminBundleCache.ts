/**
 * The admin bundle is built once per distinct input (the files it imports, the lockfile) and kept
 * in .cache/admin/<digest>/ (cachedOutput, as the islands): an unchanged build does not even start Vite. Vite
 * runs in a process of its own, which gives its memory back.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInOwnProcess } from '../assets/ownProcess.js';
import { CacheKey, cachedOutput } from '../cache.js';
import type { AdminBundle, AdminBundleOptions } from './adminBundle.js';

function inputDigest(root: string): string {
  return new CacheKey()
    // Everything the admin script imports: its own code, the templates it previews with (and the
    // islands and lead rules they import), the model, and the generator's validation (check.ts).
    .files(root, ['src', 'templates', 'contracts', 'supabase/functions/_shared'])
    .lockfile(root)
    .add(readFileSync(path.join(root, 'generator/cms/adminBundle.ts')), readFileSync(path.join(root, 'generator/assets/viteBundle.ts')))
    .digest(24);
}

export function bundleAdminCached(opts: AdminBundleOptions): Promise<AdminBundle> {
  const cacheDir = path.join(opts.root, '.cache', 'admin', inputDigest(opts.root));
  return cachedOutput(cacheDir, opts.outDir, (filesDir) => runInOwnProcess({
    job: 'bundleAdmin', args: [{ ...opts, outDir: filesDir }], what: 'admin bundle', cwd: opts.root,
  }));
}
