/**
 * The dependency lockfile in cache keys: whichever package manager's the project has, or none (a
 * zip download). Without one, a dependency update goes unnoticed by the caches: delete .cache/.
 */
import type { Hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock', 'bun.lockb'];

/** Adds the bytes of every lockfile the project has to a cache key (bytes only: npm projects keep their digests). */
export function hashLockfiles(hash: Hash, root: string): Hash {
  for (const name of LOCKFILES) {
    const bytes = readIfExists(path.join(root, name));
    if (bytes) hash.update(bytes);
  }
  return hash;
}

function readIfExists(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
