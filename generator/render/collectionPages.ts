/**
 * A build's collection files (generator/collections/), each taken through the whole pipeline where
 * it is read: in a render worker (on the main thread for a small site) a file is loaded, validated,
 * turned into its model entry, its page planned, then linked from the page cache or rendered and
 * written. What goes back is small: the entry's card, its problems, and its page's cache key and
 * links. So the main thread never holds an entry's page texts or plan, however many files there
 * are; the rules across a collection's files and the pages that list its cards are left to it.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SiteModel } from '../../contracts/content.js';
import type { ContentError } from '../../contracts/errors.js';
import { kindOf } from '../../contracts/kinds.js';
import { writtenPage, type Layout, type PagePlan, type WrittenPage } from '../../contracts/pages.js';
import { collectionOf } from '../collections/index.js';
import type { AnyCollection } from '../collections/collection.js';
import { dependsDigest, fileDigest, type MemoEntry } from '../cache/collectionMemo.js';
import { stampOf, type FileStamp } from '../cache/cardCache.js';
import { cachedPageFile } from '../cache/pageCache.js';
import { createHash } from 'node:crypto';
import { linkFileSync } from '../cache/store.js';
import { checkFile } from '../content/check.js';
import { PlanContext, type PlanOptions } from '../plan/context.js';
import { translationRules, type RuleOptions } from '../model/rules.js';
import type { Translation } from '../model/contentSet.js';
import type { ValidDoc } from '../../contracts/documents.js';

/** A translated file's English twin, read from its file: 'missing', or 'invalid' (its own errors are reported where the English files are read). */
function readTwin(translation: Translation, rel: string): ValidDoc | 'missing' | 'invalid' {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path.join(translation.englishDir, rel));
  } catch {
    return 'missing';
  }
  return checkFile(rel, translation.englishPrefix + rel, bytes).doc ?? 'invalid';
}
import { BatchWriter, type BatchResult } from './renderAndWrite.js';
import type { HeldEntries } from './heldEntries.js';

export interface CollectionSetup {
  contentDir: string;
  /** How messages name the content folder (content/). */
  displayPrefix: string;
  /** The business's time zone: dates written without an offset are its wall clock. */
  timeZone: string;
  /** For a translation's files (content/es/…): its language, and the English folder of its pictures and twins. */
  translation?: Translation;
  /** Absent when the rest of the content has problems: the files are only checked, nothing is written. */
  render?: {
    /** The model of everything but the collections (their files are what is read here), and how pages are planned. */
    model: SiteModel;
    plan: Omit<PlanOptions, 'memo'>;
    outDir: string;
    /** The page cache's folder of pages, what it keys pages by, and the keys it holds. */
    pagesDir: string;
    keyPrefix: string;
    cachedKeys: readonly string[];
    /** The memo's version: a digest of everything a page depends on besides its file and the cards it lists. */
    memoVersion: string;
  };
}

export interface FileResult {
  /** The file as messages name it (content/<folder>/<file>). */
  file: string;
  /** The entry without its page texts, when the file is valid. */
  card?: { slug: string };
  errors?: ContentError[];
  /** Its page, when it has one and it was written: `list` (an index into the batch's lists) when it was rendered, none when it came from the cache. */
  page?: { written: WrittenPage; key: string; list?: number };
  /** With a valid file's page, for the memo of the next build: the file's digest, the files its page needs and what it takes from other cards. */
  memo?: Pick<MemoEntry, 'digest' | 'needs' | 'depends'>;
}

export interface CollectionBatchResult extends Pick<BatchResult, 'lists' | 'bytes'> {
  files: FileResult[];
}


/** A file's card from the cards' pass, with its bytes' digest and its status before they were read. */
export interface CardRead { rel: string; card: { slug: string }; digest: string; stamp: FileStamp }

/** A file read, checked and made its entry: its card, and its problems or its entry. */
interface FileRead { card?: { slug: string }; errors?: ContentError[]; entry?: unknown; digest: string; size?: number }

export class CollectionPages {
  private readonly ctx: PlanContext | undefined;
  private readonly planners = new Map<AnyCollection, (entry: unknown) => PagePlan | undefined>();
  private readonly cached: ReadonlySet<string>;
  private readonly dirs = new Set<string>();

  /** The options of a file's rules: a translation's are checked against their English twins, read from their files. */
  private readonly rules: RuleOptions;

  /** `layout` is needed when the setup renders; `held`: the entries the cards' pass keeps for the pages' pass. */
  constructor(private readonly setup: CollectionSetup, private readonly layout?: Layout, private readonly held?: HeldEntries) {
    const { render, translation, contentDir, displayPrefix } = setup;
    this.rules = translation
      ? {
        contentDir: translation.englishDir, displayPrefix,
        translation: { lang: translation.lang, englishPrefix: translation.englishPrefix, twinOf: (doc) => readTwin(translation, doc.file.slice(displayPrefix.length)) },
      }
      : { contentDir, displayPrefix };
    this.ctx = render && new PlanContext(render.model, render.plan);
    this.cached = new Set(render?.cachedKeys ?? []);
  }

  private plannerOf(collection: AnyCollection) {
    let planner = this.planners.get(collection);
    if (!planner) {
      planner = this.ctx ? collection.planner(this.ctx) : () => undefined;
      this.planners.set(collection, planner);
    }
    return planner;
  }

  /**
   * The cards of these files (paths in the content folder), in order, with their bytes' digest; a
   * file with problems has none (the pages' pass reports them). Entries without problems are held
   * for the pages' pass when this thread keeps them.
   */
  cards(rels: readonly string[]): CardRead[] {
    return rels.flatMap((rel) => {
      // Before the bytes are read: a change in between shows in the next build's status.
      const stamp = stampOf(path.join(this.setup.contentDir, rel));
      const read = this.read(rel);
      if (!read.card) return [];
      if (this.held && read.entry) this.held.hold(this.setup.displayPrefix + rel, { entry: read.entry, card: read.card, digest: read.digest }, read.size!);
      return [{ rel, card: read.card, digest: read.digest, stamp }];
    });
  }

  private read(rel: string): FileRead {
    const file = this.setup.displayPrefix + rel;
    const collection = collectionOf(kindOf(rel));
    if (!collection) throw new Error(`${rel} is in no collection`);
    const bytes = readFileSync(path.join(this.setup.contentDir, rel));
    const digest = fileDigest(bytes);
    const checked = checkFile(rel, file, bytes, undefined, this.setup.translation?.lang);
    if (!checked.doc) return { errors: checked.errors, digest };
    const errors = collection.fileRules(checked.doc, this.rules);
    if (!errors.length) errors.push(...translationRules(checked.doc, this.rules));
    const entry = collection.entry(checked.doc, this.setup.timeZone);
    const card = collection.card(entry);
    return errors.length ? { card, errors, digest } : { card, entry, digest, size: bytes.length };
  }

  /** These collection files (paths in the content folder), in order. */
  run(rels: readonly string[]): CollectionBatchResult {
    const files: FileResult[] = [];
    const { displayPrefix, render } = this.setup;
    const writer = render && new BatchWriter(this.layout!, render.outDir, render.pagesDir);
    for (const rel of rels) {
      const file = displayPrefix + rel;
      const collection = collectionOf(kindOf(rel))!;
      const { card, errors, entry, digest }: FileRead = this.held?.take(file) ?? this.read(rel);
      if (!card || errors) {
        files.push({ file, ...(card && { card }), ...(errors && { errors }) });
        continue;
      }
      // Unpublished at the build's "now" (a draft, a later date): no page.
      if (render && collection.published && !collection.published(card, render.plan.publication)) {
        files.push({ file, card });
        continue;
      }
      const plan = this.plannerOf(collection)(entry);
      if (!plan) {
        files.push({ file, card });
        continue;
      }
      const depends = collection.listedInputs && dependsDigest(collection.listedInputs(card, render!.model));
      const key = pageKey(render!, file, digest, depends);
      files.push({ file, card, page: this.write(plan, key, writer!), memo: { digest, needs: collection.needs(entry), ...(depends && { depends }) } });
    }
    return { files, lists: writer?.lists ?? [], bytes: writer?.bytes ?? 0 };
  }

  /** The page from the cache when it holds it, else rendered and written. */
  private write(plan: PagePlan, key: string, writer: BatchWriter): FileResult['page'] {
    const { outDir, pagesDir } = this.setup.render!;
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
    return { written: writtenPage(plan), key, list: writer.write(plan, key) };
  }
}

/**
 * A collection page's key in the page cache: what the memo of unchanged files knows it by (its
 * version, the file's bytes, what it takes from other cards), not its plan's JSON, which cost a
 * worker a tenth of its time. The memo places a page on these alone, so they determine the page.
 */
function pageKey({ keyPrefix, memoVersion }: NonNullable<CollectionSetup['render']>, file: string, digest: string, depends: string | undefined): string {
  return createHash('sha256').update(`${keyPrefix}\n${memoVersion}\n${file}\n${digest}\n${depends ?? ''}`).digest('hex').slice(0, 32);
}
