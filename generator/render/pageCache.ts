/**
 * Rendered pages cached by what determines them: the render code (templates, islands, their
 * dependencies), the shared layout and the page's own plan. An unchanged page is hard-linked from
 * .cache/pages/ instead of being rendered again; its internal links are kept with it, so the link
 * check still covers every page.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { CacheKey, linkAtomic, writeAtomic } from '../cache.js';
import type { Layout, PagePlan } from '../../contracts/pages.js';
import type { PageJob } from './pool.js';
import type { BatchResult } from './renderAndWrite.js';

/** Everything a page's markup can depend on; the forms render the lead limits of supabase/functions/_shared/. */
const CODE_DIRS = ['contracts', 'templates', 'src', 'generator/render', 'generator/plan', 'supabase/functions/_shared'];

/** A digest of every source file that can change how a page renders, plus the lockfile. */
export function renderCodeVersion(root: string): string {
  return new CacheKey().files(root, CODE_DIRS).lockfile(root).digest();
}

/** A page with its cache key, computed once per build. */
export interface Keyed extends PageJob { key: string }

/** File operations, a few dozen at a time: enough to keep the disk busy, few enough for its queue. */
async function inParallel<T>(items: readonly T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) await task(items[i]!);
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}

interface Index {
  version: 1;
  /** key → index into refs */
  pages: Record<string, number>;
  refs: string[][];
}

export class PageCache {
  private fresh = new Map<string, string[]>();
  private constructor(private readonly dir: string, private readonly index: Index, private readonly prefix: string) {}

  static async open(cacheDir: string, codeVersion: string, layout: Layout): Promise<PageCache> {
    const dir = path.join(cacheDir, 'pages');
    await mkdir(dir, { recursive: true });
    const index: Index = await readFile(path.join(dir, 'index.json'), 'utf8').then((t) => JSON.parse(t) as Index, () => ({ version: 1, pages: {}, refs: [] }));
    const prefix = createHash('sha256').update(codeVersion).update(JSON.stringify(layout)).digest('hex');
    return new PageCache(dir, index, prefix);
  }

  private keyed(page: PagePlan): Keyed {
    const json = JSON.stringify(page);
    return { page, key: createHash('sha256').update(this.prefix).update(json).digest('hex').slice(0, 32), size: json.length };
  }

  /** Put the cached pages into outDir; the others are returned, with their keys, to be rendered. */
  async restore(pages: readonly PagePlan[], outDir: string): Promise<{ missing: Keyed[]; refs: BatchResult['refs'] }> {
    const missing: Keyed[] = [];
    const hits: Keyed[] = [];
    for (const page of pages) {
      const keyed = this.keyed(page);
      (this.index.pages[keyed.key] === undefined ? missing : hits).push(keyed);
    }
    const refs: BatchResult['refs'] = [];
    const seen = new Set<number>();
    await inParallel(hits, async (hit) => {
      try {
        await linkAtomic(path.join(this.dir, `${hit.key}.html`), path.join(outDir, hit.page.file));
      } catch {
        missing.push(hit); // removed from the cache meanwhile: render it again
        return;
      }
      const refIndex = this.index.pages[hit.key]!;
      this.fresh.set(hit.key, this.index.refs[refIndex]!);
      // Pages with the same links share one list: the link check needs each list once.
      if (!seen.has(refIndex)) {
        seen.add(refIndex);
        refs.push([hit.page.route, this.index.refs[refIndex]!]);
      }
    });
    return { missing, refs };
  }

  /** Remember freshly rendered pages: their files in outDir are linked into the cache. */
  async store(rendered: readonly Keyed[], outDir: string, refsByRoute: ReadonlyMap<string, string[]>) {
    await inParallel(rendered, async ({ page, key }) => {
      await linkAtomic(path.join(outDir, page.file), path.join(this.dir, `${key}.html`));
      this.fresh.set(key, refsByRoute.get(page.route) ?? []);
    });
  }

  /** Write the index of this build's pages and delete entries no page uses any more. */
  async save(): Promise<void> {
    const refs: string[][] = [];
    const refIds = new Map<string, number>();
    const pages: Record<string, number> = {};
    for (const [key, list] of this.fresh) {
      const id = list.join('\n');
      let n = refIds.get(id);
      if (n === undefined) {
        n = refs.push(list) - 1;
        refIds.set(id, n);
      }
      pages[key] = n;
    }
    await writeAtomic(path.join(this.dir, 'index.json'), JSON.stringify({ version: 1, pages, refs } satisfies Index));
    for (const file of await readdir(this.dir)) {
      if (file.endsWith('.html') && !(file.slice(0, -5) in pages)) await unlink(path.join(this.dir, file)).catch(() => undefined);
    }
  }
}
