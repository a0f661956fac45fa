/**
 * Assets made from pinned inputs and committed with the repository, in prebuilt/ (as Hugo sites
 * commit resources/_gen/): the web font's cut (fonts.ts) and the encoded images (images.ts). Making
 * them costs processor time (HarfBuzz and WOFF2's Brotli in WebAssembly, sharp and
 * librsvg), which every fresh clone would spend again: each deploy, each cold build, the first
 * `npm start`. `npm run prebuilt` writes them (cli/authoring/prebuilt.ts).
 *
 * A file's folder or name is a digest of everything it is made from: the source bytes, the
 * settings, the versions of the packages that make it. The build computes that name itself and
 * looks for it in prebuilt/, then in .cache/, and makes the file when neither has it: a stale or
 * foreign file is never used, only not found.
 */
import { existsSync, readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The folder, from the repository's root. */
export const PREBUILT_DIR = 'prebuilt';

/** `name@version` of each package, as installed (read from its package.json, without loading it). */
export function packageVersions(names: readonly string[]): string {
  return names.map((name) => {
    const dir = require.resolve.paths(name)?.map((d) => path.join(d, name)).find((d) => existsSync(path.join(d, 'package.json')));
    if (!dir) throw new Error(`the package ${name} is not installed (run npm install)`);
    return `${name}@${(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version}`;
  }).join(' ');
}

/** Where an asset kind's files are looked for (prebuilt first) and where a build makes the missing ones. */
export interface AssetDirs {
  prebuilt: string;
  cache: string;
}

/** prebuilt/<kind>/<key> and .cache/<kind>/<key> under root. */
export function assetDirs(root: string, kind: string, key: string): AssetDirs {
  return { prebuilt: path.join(root, PREBUILT_DIR, kind, key), cache: path.join(root, '.cache', kind, key) };
}

/** Where the file is: the committed folder first, then the cache; undefined when neither has it. */
export async function findAsset(dirs: AssetDirs, fileName: string): Promise<string | undefined> {
  for (const dir of [dirs.prebuilt, dirs.cache]) {
    const file = path.join(dir, fileName);
    if (await access(file).then(() => true, () => false)) return file;
  }
  return undefined;
}
