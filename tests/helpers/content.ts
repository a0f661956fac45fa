/** Temporary copies of content/ that a test may break or extend without touching the real one. */
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { checkContent } from '../../generator/build.js';
import { ContentErrors, formatError } from '../../contracts/validate/errors.js';
import { LANGUAGE_INFO, TRANSLATIONS } from '../../contracts/languages.js';

export const ROOT = process.cwd();

export async function tempDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** One temporary folder for the tests of a file or describe block (beforeAll), removed after them. */
export function useTempDir(prefix: string): { dir: string } {
  const tmp = { dir: '' };
  let remove: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const made = await tempDir(prefix);
    tmp.dir = made.dir;
    remove = made.remove;
  });
  afterAll(() => remove?.());
  return tmp;
}

/** Runs `body` with a fresh temporary folder, removed afterwards whatever happens. */
export async function withTempDir<T>(prefix: string, body: (dir: string) => Promise<T>): Promise<T> {
  const { dir, remove } = await tempDir(prefix);
  try {
    return await body(dir);
  } finally {
    await remove();
  }
}

/** A fresh copy of content/ in a temporary folder for each test (beforeEach), removed after it. */
export function useContentCopy(prefix: string): { dir: string; contentDir: string } {
  const copy = { dir: '', contentDir: '' };
  let remove: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    const tmp = await tempDir(prefix);
    remove = tmp.remove;
    copy.dir = tmp.dir;
    copy.contentDir = await contentCopy(tmp.dir);
  });
  afterEach(() => remove?.());
  return copy;
}

/** A copy of content/ in dir/content, with `overlay` (a fixture folder) copied over it. */
export async function contentCopy(dir: string, overlay?: string): Promise<string> {
  const contentDir = path.join(dir, 'content');
  await cp(path.join(ROOT, 'content'), contentDir, { recursive: true });
  if (overlay) await cp(overlay, contentDir, { recursive: true });
  return contentDir;
}

/**
 * A copy of the English site alone (content/ without its translations' folders): for tests of the
 * English files' rules, where breaking a fact in English would also be a twin error of its
 * Spanish file (tests/generator/languages.test.ts tests those).
 */
export async function englishContentCopy(dir: string): Promise<string> {
  const contentDir = await contentCopy(dir);
  for (const lang of TRANSLATIONS) await rm(path.join(contentDir, LANGUAGE_INFO[lang].folder), { recursive: true, force: true });
  return contentDir;
}

/** Every file below dir with the sha256 of its bytes, sorted by path. */
export async function treeDigest(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
  const digest = new Map<string, string>();
  for (const file of files) digest.set(file, createHash('sha256').update(await readFile(path.join(dir, file))).digest('hex'));
  return digest;
}

/** The formatted content errors of the content folder, or [] when it is valid. */
export async function problems(contentDir: string): Promise<string[]> {
  try {
    await checkContent({ root: path.dirname(contentDir), contentDir });
  } catch (err) {
    if (err instanceof ContentErrors) return err.errors.map(formatError);
    throw err;
  }
  return [];
}
