/**
 * Rendered pages cached by what determines them: the render code (templates, islands, their
 * dependencies), the shared layout and the page's own plan. An unchanged page is copied from
 * .cache/pages/ instead of being rendered again; its internal links are kept with it, so the
 * link check still covers every page.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { CacheKey, copyAtomic, writeAtomic } from '../cache.js';
import type { Layout, PagePlan } from '../../contracts/pages.js';
import type { BatchResult } from './renderAndWrite.js';

const CODE_DIRS = ['contracts', 'templates', 'src', 'generator/render', 'generator/plan'];

/** A digest of every source file that can change how a page renders, plus the lockfile. */
export function renderCodeVersion(root: string): string {
  return new CacheKey().files(root, CODE_DIRS).lockfile(root).digest();
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

  keyOf(page: PagePlan): string {
    return createHash('sha256').update(this.prefix).update(JSON.stringify(page)).digest('hex').slice(0, 32);
  }

  /** Split pages into those copied from the cache (done here) and those still to render. */
  async restore(pages: readonly PagePlan[], outDir: string): Promise<{ missing: PagePlan[]; refs: BatchResult['refs'] }> {
    const missing: PagePlan[] = [];
    const refs: BatchResult['refs'] = [];
    const hits: [PagePlan, string][] = [];
    for (const page of pages) {
      const key = this.keyOf(page);
      const refIndex = this.index.pages[key];
      if (refIndex === undefined) missing.push(page);
      else hits.push([page, key]);
    }
    const seen = new Set<number>();
    let next = 0;
    const copyOne = async () => {
      for (let i = next++; i < hits.length; i = next++) {
        const [page, key] = hits[i]!;
        try {
          await copyFile(path.join(this.dir, `${key}.html`), path.join(outDir, page.file));
          const refIndex = this.index.pages[key]!;
          this.fresh.set(key, this.index.refs[refIndex]!);
          if (!seen.has(refIndex)) {
            seen.add(refIndex);
            refs.push([page.route, this.index.refs[refIndex]!]);
          }
        } catch {
          missing.push(page);
        }
      }
    };
    await Promise.all(Array.from({ length: 32 }, copyOne));
    return { missing, refs };
  }

  /** Remember freshly rendered pages (their files are copied from outDir). */
  async store(pages: readonly PagePlan[], outDir: string, refsByRoute: ReadonlyMap<string, string[]>) {
    let next = 0;
    const storeOne = async () => {
      for (let i = next++; i < pages.length; i = next++) {
        const page = pages[i]!;
        const key = this.keyOf(page);
        await copyAtomic(path.join(outDir, page.file), path.join(this.dir, `${key}.html`));
        this.fresh.set(key, refsByRoute.get(page.route) ?? []);
      }
    };
    await Promise.all(Array.from({ length: 32 }, storeOne));
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
