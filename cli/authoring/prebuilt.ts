/**
 * `npm run prebuilt`: the assets committed in prebuilt/ (assets/prebuilt.ts), made for the
 * sources and settings as they are now: the font's cut and every content image's encoded files.
 * Whatever else is there (other versions, removed images) is removed, so prebuilt/ holds exactly
 * what a cold build of this commit would otherwise make.
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { FONT_FILE, fontDirs, fontSource, subsetFontInto } from '../../generator/assets/fonts.js';
import { encodeImages, imageDirs, listImages } from '../../generator/assets/images.js';
import { PREBUILT_DIR } from '../../generator/assets/prebuilt.js';

export interface PrebuiltChange {
  /** Paths made, from the repository's root. */
  written: string[];
  /** Paths removed, from the repository's root. */
  removed: string[];
}

export async function writePrebuilt(root: string, contentDir: string): Promise<PrebuiltChange> {
  const change: PrebuiltChange = { written: [], removed: [] };
  const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const before = new Set((await filesBelow(path.join(root, PREBUILT_DIR))).map(rel));
  const keep = new Set<string>();

  const font = path.join(fontDirs(root, await readFile(fontSource())).prebuilt, FONT_FILE);
  if (!before.has(rel(font))) await subsetFontInto(fontSource(), font);
  keep.add(rel(font));

  // Made straight into prebuilt/: the cache folder given to the encoder is prebuilt's own.
  const images = imageDirs(root);
  for (const name of await encodeImages(contentDir, { prebuilt: images.prebuilt, cache: images.prebuilt }, await listImages(contentDir))) {
    keep.add(rel(path.join(images.prebuilt, name)));
  }

  for (const file of [...keep].sort()) if (!before.has(file)) change.written.push(file);
  for (const file of [...before].sort()) {
    if (keep.has(file) || file === `${PREBUILT_DIR}/README.md`) continue;
    await rm(path.join(root, file));
    change.removed.push(file);
  }
  await removeEmptyFolders(path.join(root, PREBUILT_DIR));
  return change;
}

async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function removeEmptyFolders(dir: string): Promise<boolean> {
  if (!(await stat(dir).catch(() => undefined))?.isDirectory()) return false;
  let empty = true;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !(await removeEmptyFolders(path.join(dir, entry.name)))) empty = false;
  }
  if (empty) await rm(dir, { recursive: true });
  return empty;
}
