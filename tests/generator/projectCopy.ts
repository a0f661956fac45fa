/**
 * A copy of the project a build can use as its root: the code the build reads and hashes, the
 * content, and node_modules linked. Its .cache/ is its own, so tests neither use nor fill the
 * project's caches.
 */
import { cp, symlink } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from '../helpers/content.js';

/** Copy the project into dir; without `lockfile`, as a pnpm or yarn user or a zip download has it. */
export async function projectCopy(dir: string, opts: { lockfile: boolean }): Promise<string> {
  for (const entry of ['contracts', 'src', 'templates', 'generator', 'cli', 'ops', 'tools', 'serve', 'supabase-standin', 'cms', 'staff', 'supabase', 'content', 'prebuilt', 'package.json', ...(opts.lockfile ? ['package-lock.json'] : [])]) {
    await cp(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}
