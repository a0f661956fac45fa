/**
 * Rendered pages cached by what determines them: the render code (templates, islands, their
 * dependencies), the shared layout and the page's own plan. An unchanged page is hard-linked from
 * .cache/pages/ instead of being rendered again; its internal links are kept with it, so the link
 * check still covers every page.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { CacheKey, deltaFits, linkAtomic, writeAtomic } from './store.js';
import type { Layout, PagePlan } from '../../contracts/pages.js';

/** Everything a page's markup can depend on; the forms render the lead limits of supabase/functions/_shared/. */
const CODE_DIRS = ['contracts', 'templates', 'src', 'generator/render', 'generator/plan', 'generator/collections', 'supabase/functions/_shared'];

/** A digest of every source file that can change how a page renders, plus the lockfile. */
export function renderCodeVersion(root: string): string {
  return new CacheKey().files(root, CODE_DIRS).lockfile(root).digest();
}

/** A page's cache key, where it is written, and the length of its plan's JSON (a worker's heap limits it). */
export interface Keyed { key: string; route: string; file: string; size: number }

/**
 * index.json: each distinct list of links once, each URL once (10,000 articles' lists were 14 MB
 * written out). index.delta.json, the same with the keys removed since, holds what builds that
 * changed a few pages changed, read on top of it; past a bound the index is written whole.
 */
interface IndexFile {
  version: 2;
  /** key → index into refs */
  pages: Record<string, number>;
  urls: string[];
  /** Each list as indexes into urls. */
  refs: number[][];
  /** In the delta: the keys gone since index.json. */
  removed?: string[];
}

interface Index {
  pages: Record<string, number>;
  refs: (readonly string[])[];
}

/** What index.delta.json holds: pages added since index.json (key → links) and keys removed. */
interface Delta { added: Map<string, readonly string[]>; removed: Set<string> }


/** The lists read from index.json: distinct from one another already, so the next save need not compare them by value. */
const indexed = new WeakSet<readonly string[]>();

function decode(text: string): { pages: Map<string, readonly string[]>; removed: string[] } | undefined {
  const file = JSON.parse(text) as IndexFile;
  if (file.version !== 2) return undefined;
  const refs = file.refs.map((list) => list.map((i) => file.urls[i]!));
  return { pages: new Map(Object.entries(file.pages).map(([key, n]) => [key, refs[n]!])), removed: file.removed ?? [] };
}

/** The pages' lists as an index file: lists shared by identity or (but for `distinct` ones) by value written once, each URL once. */
function encode(pages: Iterable<[string, readonly string[]]>, distinct: (list: readonly string[]) => boolean, removed?: string[]): string {
  const refs: number[][] = [];
  const urls: string[] = [];
  const urlIds = new Map<string, number>();
  const refIds = new Map<readonly string[], number>();
  const byValue = new Map<string, number>();
  const numbered: Record<string, number> = {};
  for (const [key, list] of pages) {
    // Lists are shared arrays: compared by identity first, by value only for a new one.
    let n = refIds.get(list);
    if (n === undefined) {
      // A list of the last index is kept as it is (a fresh one of the same URLs is then kept twice, harmlessly).
      const id = distinct(list) ? undefined : list.join('\n');
      n = id === undefined ? undefined : byValue.get(id);
      if (n === undefined) {
        n = refs.push(list.map((url) => {
          let u = urlIds.get(url);
          if (u === undefined) urlIds.set(url, (u = urls.push(url) - 1));
          return u;
        })) - 1;
        if (id !== undefined) byValue.set(id, n);
      }
      refIds.set(list, n);
    }
    numbered[key] = n;
  }
  return JSON.stringify({ version: 2, pages: numbered, urls, refs, ...(removed && { removed }) } satisfies IndexFile);
}

/** Where the cache keeps a page: <key>.html in its folder of pages. */
export function cachedPageFile(pagesDir: string, key: string): string {
  return path.join(pagesDir, `${key}.html`);
}

/** A page's cache key: its plan's JSON and what the cache keys every page by (`prefix`). */
export function keyOf(prefix: string, page: PagePlan): Keyed {
  const json = JSON.stringify(page);
  return { key: createHash('sha256').update(prefix).update(json).digest('hex').slice(0, 32), route: page.route, file: page.file, size: json.length };
}

export class PageCache {
  /** This build's pages: key → internal URLs (pages with the same links share one list). */
  private fresh = new Map<string, readonly string[]>();
  private constructor(
    private readonly dir: string,
    private readonly index: Index,
    /** What index.delta.json held when opened; undefined when there is no index.json to add to. */
    private readonly delta: Delta | undefined,
    private readonly prefix: string,
  ) {}

  static async open(cacheDir: string, codeVersion: string, layout: Layout): Promise<PageCache> {
    const dir = path.join(cacheDir, 'pages');
    await mkdir(dir, { recursive: true });
    // A file missing or unreadable is an index to start again from (every page rendered once more).
    const read = async (name: string) => readFile(path.join(dir, name), 'utf8').then(decode).catch(() => undefined);
    const base = await read('index.json');
    const index: Index = { pages: {}, refs: [] };
    let delta: Delta | undefined;
    if (base) {
      const changes = await read('index.delta.json');
      delta = { added: changes?.pages ?? new Map(), removed: new Set(changes?.removed) };
      for (const key of delta.removed) base.pages.delete(key);
      for (const [key, list] of delta.added) base.pages.set(key, list);
      const ids = new Map<readonly string[], number>();
      for (const [key, list] of base.pages) {
        let n = ids.get(list);
        if (n === undefined) {
          ids.set(list, (n = index.refs.push(list) - 1));
          indexed.add(list);
        }
        index.pages[key] = n;
      }
    }
    const prefix = createHash('sha256').update(codeVersion).update(JSON.stringify(layout)).digest('hex');
    return new PageCache(dir, index, delta, prefix);
  }

  /** What keys the cache's pages besides their plans: the render code and the layout (send it to a worker that keys pages). */
  get keyPrefix(): string {
    return this.prefix;
  }

  /** The keys of the pages the cache holds (for a worker that keys pages itself). */
  keys(): string[] {
    return Object.keys(this.index.pages);
  }

  keyed(page: PagePlan): Keyed {
    return keyOf(this.prefix, page);
  }

  /** A page a worker found in the cache and linked into place: its internal URLs, or undefined if the index does not name it. */
  adopt(key: string): readonly string[] | undefined {
    const refIndex = this.index.pages[key];
    if (refIndex === undefined) return undefined;
    const refs = this.index.refs[refIndex]!;
    this.fresh.set(key, refs);
    return refs;
  }

  /**
   * Put the cached page into outDir: resolves with its internal URLs, or undefined when the cache
   * does not hold it (or it was removed meanwhile), and it must be rendered.
   */
  async restore({ file, key }: Keyed, outDir: string): Promise<readonly string[] | undefined> {
    if (!this.has(key)) return undefined;
    try {
      await linkAtomic(cachedPageFile(this.dir, key), path.join(outDir, file));
    } catch {
      return undefined;
    }
    return this.adopt(key);
  }

  /** Whether the index names the page (restore() may still find its file gone). */
  has(key: string): boolean {
    return this.index.pages[key] !== undefined;
  }

  /** The folder of the cached pages (<key>.html). */
  get pagesDir(): string {
    return this.dir;
  }

  /** Remember a freshly rendered page, which its writer linked into the cache's folder (render/renderAndWrite.ts). */
  remember(key: string, refs: readonly string[]): void {
    this.fresh.set(key, refs);
  }

  /**
   * Write the index of this build's pages and delete the cached pages no page uses any more: only
   * what changed (index.delta.json) when a few pages did, the whole index past that.
   */
  async save(): Promise<void> {
    const before = this.index.pages;
    const added = [...this.fresh].filter(([key]) => before[key] === undefined);
    const removed = Object.keys(before).filter((key) => !this.fresh.has(key));
    // Every page of the index found again and no other: it is this build's already.
    if (!added.length && !removed.length) return;
    if (this.delta) {
      const delta: Delta = { added: new Map(this.delta.added), removed: new Set(this.delta.removed) };
      for (const key of removed) {
        delta.added.delete(key);
        delta.removed.add(key);
      }
      for (const [key, list] of added) {
        delta.added.set(key, list);
        delta.removed.delete(key);
      }
      if (deltaFits(delta.added.size + delta.removed.size, this.fresh.size)) {
        await writeAtomic(path.join(this.dir, 'index.delta.json'), encode(delta.added, () => false, [...delta.removed]));
        for (const key of removed) await unlink(cachedPageFile(this.dir, key)).catch(() => undefined);
        return;
      }
    }
    await writeAtomic(path.join(this.dir, 'index.json'), encode(this.fresh, (list) => indexed.has(list)));
    await unlink(path.join(this.dir, 'index.delta.json')).catch(() => undefined);
    // Listed, not taken from the last index: a build that failed after it stored pages left them unindexed.
    for (const file of await readdir(this.dir)) {
      if (file.endsWith('.html') && !this.fresh.has(file.slice(0, -5))) await unlink(path.join(this.dir, file)).catch(() => undefined);
    }
  }
}
