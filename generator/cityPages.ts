/**
 * A build's city files, each taken through the whole pipeline where it is read: in a render worker
 * (on the main thread for a small site) a city file is loaded, validated, turned into its model
 * entry, its page planned, then linked from the page cache or rendered and written. What goes back
 * is small: the city without its page texts (its card), its problems, and its page's cache key
 * and links. So the main thread never holds a city's page texts or plan, however many cities there
 * are; the rules across cities (a name used twice) and the pages that list cities are left to it.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CityEntry, SiteModel } from '../contracts/content.js';
import type { ValidDocOf } from '../contracts/documents.js';
import type { ContentError } from '../contracts/errors.js';
import { writtenPage, type Layout, type PagePlan, type WrittenPage } from '../contracts/pages.js';
import { linkFileSync } from './cache.js';
import { cityFileDigest, type CityMemoEntry } from './cityMemo.js';
import { checkFile } from './content.js';
import { cityEntry, cityFileRules } from './model/assemble.js';
import { PlanContext, type PlanOptions } from './plan/context.js';
import { cityPagePlanner } from './plan/pages.js';
import { cachedPageFile, keyOf } from './render/pageCache.js';
import { BatchWriter, type BatchResult } from './render/renderAndWrite.js';

export interface CitySetup {
  contentDir: string;
  /** How messages name the content folder (content/). */
  displayPrefix: string;
  /** Absent when the rest of the content has problems: the files are only checked, nothing is written. */
  render?: {
    /** The model of everything but the cities (they are what is read here), and how pages are planned. */
    model: SiteModel;
    plan: Omit<PlanOptions, 'memo'>;
    outDir: string;
    /** The page cache's folder of pages, what it keys pages by, and the keys it holds. */
    pagesDir: string;
    keyPrefix: string;
    cachedKeys: readonly string[];
  };
}

export interface CityResult {
  /** The file as messages name it (content/cities/colma.yaml). */
  file: string;
  /** The city without its page texts, when the file is valid. */
  card?: CityEntry;
  errors?: ContentError[];
  /** Its page, when it has one and it was written: `list` (an index into the batch's lists) when it was rendered, none when it came from the cache. */
  page?: { written: WrittenPage; key: string; list?: number };
  /** With a valid file's page, for the memo of the next build: the file's digest and hero image. */
  memo?: Pick<CityMemoEntry, 'digest' | 'image'>;
}

export interface CityBatchResult extends Pick<BatchResult, 'lists' | 'bytes'> {
  cities: CityResult[];
}

export class CityPages {
  private readonly planCity: (city: CityEntry) => PagePlan | undefined;
  private readonly cached: ReadonlySet<string>;
  private readonly dirs = new Set<string>();

  /** `layout` is needed when the setup renders. */
  constructor(private readonly setup: CitySetup, private readonly layout?: Layout) {
    const { render } = setup;
    this.planCity = render ? cityPagePlanner(new PlanContext(render.model, render.plan)) : () => undefined;
    this.cached = new Set(render?.cachedKeys ?? []);
  }

  /** These city files (paths in the content folder), in order. */
  run(rels: readonly string[]): CityBatchResult {
    const cities: CityResult[] = [];
    const { contentDir, displayPrefix, render } = this.setup;
    const writer = render && new BatchWriter(this.layout!, render.outDir);
    for (const rel of rels) {
      const file = displayPrefix + rel;
      const bytes = readFileSync(path.join(contentDir, rel));
      const checked = checkFile(rel, file, bytes);
      if (!checked.doc) {
        cities.push({ file, errors: checked.errors });
        continue;
      }
      const doc = checked.doc as ValidDocOf<'city'>;
      const errors = cityFileRules(doc, { contentDir, displayPrefix });
      const entry = cityEntry(doc);
      const { page: _texts, ...card } = entry;
      if (errors.length) {
        cities.push({ file, card, errors });
        continue;
      }
      const plan = this.planCity(entry);
      const image = entry.page?.heroImage;
      cities.push({ file, card, ...(plan && { page: this.write(plan, writer!), memo: { digest: cityFileDigest(bytes), ...(image && { image }) } }) });
    }
    return { cities, lists: writer?.lists ?? [], bytes: writer?.bytes ?? 0 };
  }

  /** The page from the cache when it holds it, else rendered and written. */
  private write(plan: PagePlan, writer: BatchWriter): CityResult['page'] {
    const { outDir, keyPrefix, pagesDir } = this.setup.render!;
    const { key } = keyOf(keyPrefix, plan);
    const dir = path.dirname(path.join(outDir, plan.file));
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
    if (this.cached.has(key)) {
      try {
        linkFileSync(cachedPageFile(pagesDir, key), path.join(outDir, plan.file));
        return { written: writtenPage(plan), key };
      } catch {
        // removed from the cache meanwhile: render it
      }
    }
    return { written: writtenPage(plan), key, list: writer.write(plan) };
  }
}
