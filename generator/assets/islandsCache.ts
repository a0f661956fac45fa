/**
 * The island bundle depends only on src/, the lockfile and the build settings: it is built once
 * per distinct input and kept in .cache/islands/<digest>/; Vite is not even loaded on a hit.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuildIslandsOptions, BuildIslandsResult } from './islands.js';
import { hashLockfiles } from './lockfile.js';

function inputDigest(opts: BuildIslandsOptions): string {
  const hash = createHash('sha256');
  const src = path.join(opts.root, 'src');
  const files = readdirSync(src, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
  for (const file of files) hash.update(path.relative(src, file)).update(readFileSync(file));
  hashLockfiles(hash, opts.root);
  hash.update(readFileSync(path.join(opts.root, 'generator/assets/islands.ts')));
  hash.update(JSON.stringify([opts.supabaseUrl ?? '', opts.supabaseAnonKey ?? '', opts.webhookUrl ?? '']));
  return hash.digest('hex').slice(0, 24);
}

export async function buildIslandsCached(opts: BuildIslandsOptions): Promise<BuildIslandsResult> {
  const cacheDir = path.join(opts.root, '.cache', 'islands', inputDigest(opts));
  const manifest = path.join(cacheDir, 'result.json');
  const cached = await readFile(manifest, 'utf8').then((t) => JSON.parse(t) as BuildIslandsResult, () => undefined);
  if (cached) {
    await cp(path.join(cacheDir, 'files'), opts.outDir, { recursive: true });
    return cached;
  }
  const { buildIslands } = await import('./islands.js');
  const staging = `${cacheDir}.${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  const result = await buildIslands({ ...opts, outDir: path.join(staging, 'files') }).catch(async (err: unknown) => {
    await rm(staging, { recursive: true, force: true });
    throw err;
  });
  await writeFile(path.join(staging, 'result.json'), JSON.stringify(result));
  await mkdir(path.dirname(cacheDir), { recursive: true });
  await rename(staging, cacheDir).catch(() => rm(staging, { recursive: true, force: true }));
  await cp(path.join(cacheDir, 'files'), opts.outDir, { recursive: true });
  return result;
}
