/**
 * The one cache machinery of .cache/: digests of the inputs a cached result depends on, and writes
 * that a crash or a parallel build can never leave half done. Deleting .cache/ is always safe.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, copyFileSync, linkSync, openSync, readdirSync, readFileSync, renameSync, writevSync } from 'node:fs';
import { copyFile, cp, link, mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { threadId } from 'node:worker_threads';

const LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock', 'bun.lockb'];

/**
 * A digest builder for a cache key: `.files(root, dirs)` adds every file below those folders (path
 * relative to root, and bytes), `.lockfile(root)` whichever package manager's lockfile the project
 * has. Without a lockfile (a zip download), a dependency update goes unnoticed: delete .cache/.
 */
export class CacheKey {
  private readonly hash: Hash = createHash('sha256');

  add(...parts: (string | Uint8Array)[]): this {
    for (const part of parts) this.hash.update(part);
    return this;
  }

  /** Every file below root/dir for each dir, in a stable order. */
  files(root: string, dirs: readonly string[]): this {
    for (const dir of dirs) {
      const files = readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name))
        .sort();
      for (const file of files) this.hash.update(path.relative(root, file).split(path.sep).join('/')).update(readFileSync(file));
    }
    return this;
  }

  /** The bytes of every lockfile the project has (bytes only: npm projects keep their digests). */
  lockfile(root: string): this {
    for (const name of LOCKFILES) {
      const bytes = readIfExists(path.join(root, name));
      if (bytes) this.hash.update(bytes);
    }
    return this;
  }

  digest(length = 64): string {
    return this.hash.digest('hex').slice(0, length);
  }
}

let temporaries = 0;
/** A temporary name beside `file` that no other write uses: render workers share one process id. */
function temporaryName(file: string): string {
  return `${file}.${process.pid}-${threadId}-${++temporaries}.tmp`;
}

/** Write file as a whole or not at all (a temporary file renamed into place). */
export async function writeAtomic(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await replaceFile(file, data);
}

/**
 * Replace a file in an existing folder by a new one, never writing into the old one: pages in dist/
 * share their bytes with .cache/pages/ (hard links), and a write in place would change both.
 */
export async function replaceFile(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = temporaryName(file);
  await writeFile(tmp, data);
  await rename(tmp, file);
}

/** Write all of `chunks` to a file descriptor, however many calls it takes. */
function writeChunksSync(fd: number, chunks: readonly Uint8Array[]): void {
  let rest = chunks.filter((c) => c.byteLength > 0);
  while (rest.length) {
    let written = writevSync(fd, rest);
    const left: Uint8Array[] = [];
    for (const chunk of rest) {
      if (written >= chunk.byteLength) written -= chunk.byteLength;
      else {
        left.push(chunk.subarray(written));
        written = 0;
      }
    }
    rest = left;
  }
}

/** Write a new file from chunks with open flags `flag` ('wx': only if it is not there). */
function writeNewSync(file: string, chunks: readonly Uint8Array[], flag: string): void {
  const fd = openSync(file, flag);
  try {
    writeChunksSync(fd, chunks);
  } finally {
    closeSync(fd);
  }
}

/**
 * Write a file that is not there yet straight into place (a build's fresh folder: no temporary
 * file, no rename), or replace one that is (npm run dev's output). The exclusive create never
 * opens an existing file, so bytes shared with .cache/pages/ are never written into. The chunks
 * go to the file in one call, without being joined first.
 */
export function createOrReplaceFileSync(file: string, chunks: readonly Uint8Array[]): void {
  try {
    writeNewSync(file, chunks, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const tmp = temporaryName(file);
    writeNewSync(tmp, chunks, 'w');
    renameSync(tmp, file);
  }
}

/** A direct link failed because the target exists or links are impossible here: go through a temporary name. */
const linkFallsBack = (err: unknown) => ['EEXIST', 'EXDEV', 'EPERM'].includes((err as NodeJS.ErrnoException).code ?? '');

/** linkAtomic, synchronously (a render worker's way of writing). */
export function linkFileSync(from: string, to: string): void {
  try {
    linkSync(from, to);
    return;
  } catch (err) {
    if (!linkFallsBack(err)) throw err;
  }
  const tmp = temporaryName(to);
  try {
    linkSync(from, tmp);
  } catch {
    copyFileSync(from, tmp);
  }
  renameSync(tmp, to);
}

/**
 * Make `to` the same file as `from`: a hard link (no bytes copied, so a warm build's pages
 * cost next to nothing), or a copy where links are impossible (another
 * file system). Safe because every writer here replaces files instead of writing into them. A
 * target that is not there yet (a build's fresh folder) is linked straight into place; one that
 * is, through a temporary name and a rename, so it is never seen half made.
 */
export async function linkAtomic(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
    return;
  } catch (err) {
    if (!linkFallsBack(err)) throw err;
  }
  const tmp = temporaryName(to);
  await link(from, tmp).catch(() => copyFile(from, tmp));
  await rename(tmp, to);
}

/**
 * Fill a cache folder as a whole or not at all: `fill` writes into a staging folder that is renamed
 * to dir when it succeeded (another build that got there first wins; its result is the same).
 */
export async function fillDirAtomic<T>(dir: string, fill: (staging: string) => Promise<T>): Promise<T> {
  const staging = temporaryName(dir);
  await rm(staging, { recursive: true, force: true });
  const result = await fill(staging).catch(async (err: unknown) => {
    await rm(staging, { recursive: true, force: true });
    throw err;
  });
  await mkdir(path.dirname(dir), { recursive: true });
  await rename(staging, dir).catch(() => rm(staging, { recursive: true, force: true }));
  return result;
}

/**
 * A build step whose output is a folder of files and a JSON result, kept in cacheDir (keyed by its
 * inputs): on a miss `build` writes into the folder it is given and returns the result; hit or
 * miss, the files are copied to outDir and the result returned.
 */
export async function cachedOutput<T>(cacheDir: string, outDir: string, build: (filesDir: string) => Promise<T>): Promise<T> {
  const cached = await readFile(path.join(cacheDir, 'result.json'), 'utf8').then((t) => JSON.parse(t) as T, () => undefined);
  const result = cached ?? await fillDirAtomic(cacheDir, async (staging) => {
    const built = await build(path.join(staging, 'files'));
    await writeFile(path.join(staging, 'result.json'), JSON.stringify(built));
    return built;
  });
  await cp(path.join(cacheDir, 'files'), outDir, { recursive: true });
  return result;
}

function readIfExists(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Changes kept apart from a store's file (here and the page cache's index): at most this many or a twentieth of its entries, whichever is more. */
export const deltaFits = (changes: number, entries: number) => changes <= Math.max(256, entries / 20);

/**
 * What the last build learnt, by key, in .cache/<kind>/<version>.v8: read whole when opened, and
 * saved with exactly the entries this build used or learnt, under its version only (the files of
 * other versions removed): a store that never grows with entries no build asks for. A build that
 * changed a few entries writes only those (and the removals) to <version>.v8.delta, read on top of
 * the file, instead of serializing 10,000 entries again; past `deltaFits` the file is written
 * whole. Every entry is a fact about its key's inputs (a file's digest
 * → its card), so a delta read over a file it was not written for is still true, only older.
 */
export class VersionedStore<V> {
  /** This build's entries: those found again and those learnt. */
  private readonly used = new Map<string, V>();

  private constructor(
    private readonly dir: string,
    private readonly file: string,
    private readonly known: ReadonlyMap<string, V>,
    /** The changes the delta file held when opened (null: removed), or undefined when there is no file to add to. */
    private readonly delta: ReadonlyMap<string, V | null> | undefined,
  ) {}

  static async open<V>(cacheDir: string, kind: string, version: string): Promise<VersionedStore<V>> {
    const dir = path.join(cacheDir, kind);
    const file = path.join(dir, `${version}.v8`);
    const base = await readFile(file).then((b) => deserialize(b) as Map<string, V>, () => undefined);
    if (!base) return new VersionedStore(dir, file, new Map(), undefined);
    const delta = await readFile(`${file}.delta`).then((b) => deserialize(b) as Map<string, V | null>, () => new Map<string, V | null>());
    for (const [key, value] of delta) {
      if (value === null) base.delete(key);
      else base.set(key, value);
    }
    return new VersionedStore(dir, file, base, delta);
  }

  /** Whether the last build of this version left nothing. */
  get empty(): boolean {
    return this.known.size === 0;
  }

  /** What the last build knew of `key`; a found entry is kept for the next build only when `use` is called. */
  get(key: string): V | undefined {
    return this.known.get(key);
  }

  /** Every entry the last build of this version left. */
  entries(): Iterable<[string, V]> {
    return this.known.entries();
  }

  /** Keep this entry for the next build. */
  use(key: string, value: V): void {
    this.used.set(key, value);
  }

  async save(): Promise<void> {
    const changes = new Map<string, V | null>();
    for (const [key, value] of this.used) if (this.known.get(key) !== value) changes.set(key, value);
    for (const key of this.known.keys()) if (!this.used.has(key)) changes.set(key, null);
    // Every entry found again as it was and none other: the files hold exactly this already.
    if (!changes.size) return;
    if (this.delta) {
      const delta = new Map([...this.delta, ...changes]);
      if (deltaFits(delta.size, this.used.size)) {
        await writeAtomic(`${this.file}.delta`, serialize(delta));
        return;
      }
    }
    await writeAtomic(this.file, serialize(this.used));
    // This version's delta is in the file now; other versions' files go.
    for (const name of await readdir(this.dir).catch(() => [])) {
      const other = path.join(this.dir, name);
      if ((name.endsWith('.v8') && other !== this.file) || name.endsWith('.v8.delta')) await unlink(other).catch(() => undefined);
    }
  }
}
