/**
 * Every collection's files through the whole pipeline (generator/collections/): those the last
 * build knew are placed from the memo (cache/collectionMemo.ts), the others go to the render
 * workers when there are enough of them (else they are read on this thread): checked and, when the
 * rest of the content is valid (`cache` given), their pages planned and put in place. What comes
 * back is each file's card, problems, page and links; the rules across a collection's files are
 * checked here, on the cards.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SiteModel } from '../../contracts/content.js';
import type { ContentError } from '../../contracts/errors.js';
import { kindOf, kinds, type ContentKind } from '../../contracts/kinds.js';
import type { Layout, WrittenPage } from '../../contracts/pages.js';
import { locator } from '../../contracts/validate/locate.js';
import { collectionOf, COLLECTIONS } from '../collections/index.js';
import type { AnyCollection, CardChange, Collection } from '../collections/collection.js';
import { checkFile } from '../content/check.js';
import type { BuildCache } from '../cache/buildCache.js';
import type { PageCache } from '../cache/pageCache.js';
import { dependsDigest, type CollectionMemo } from '../cache/collectionMemo.js';
import { CacheKey } from '../cache/store.js';
import type { PlanOptions, Publication } from '../plan/context.js';
import type { Translation } from '../model/contentSet.js';
import type { CardRead, CollectionBatchResult, CollectionSetup } from './collectionPages.js';
import { HELD_BYTES, HeldEntries } from './heldEntries.js';
import { PageLinks } from './pageLinks.js';
import { BATCH_PAGES, PARALLEL_THRESHOLD, type RenderPool } from './pool.js';

export interface CollectionsRead {
  /** The model with every collection's cards (when the rest of the content was valid). */
  model?: SiteModel;
  errors: ContentError[];
  /** The collections' pages written, in sitemap order. */
  pages: WrittenPage[];
  links: PageLinks;
  bytes: number;
}

export interface ReadOptions {
  root: string;
  contentDir: string;
  displayPrefix: string;
  /** The collections' files (paths in the content folder), in file order. */
  files: readonly string[];
  /** The model of everything else, when it is valid; then pages are written into outDir. */
  model?: SiteModel;
  plan?: Omit<PlanOptions, 'memo'>;
  /** With `model` and `plan`: the cards' pass (readListedCards) on the same model and publication. */
  listed?: ListedCards;
  layout?: Layout;
  cache?: PageCache;
  /** Where the memo of the last build's files is kept. */
  store: BuildCache;
  outDir: string;
  /** The render workers, started when there are enough files to read. */
  startPool: () => Promise<RenderPool>;
  /** A translation's files (content/es/): read with their language, checked against their English twins, remembered apart. */
  translation?: Translation;
}

/**
 * The collections read as far as their cards: `model` holds every collection's cards, while the
 * pages of the entries that list others (whose cards came first) may still be rendering in the
 * workers. `done` settles once every page is written (and carries the problems found); whatever
 * else the caller does meanwhile (the site's other pages) shares the workers.
 */
export interface CollectionsStarted {
  model?: SiteModel;
  done: Promise<CollectionsRead>;
  /** When pages are written: a digest of everything a page depends on besides the collection files (the memo's version). */
  memoVersion?: string;
}

export async function readCollections(opts: ReadOptions): Promise<CollectionsStarted> {
  const { root, contentDir, displayPrefix, plan, layout, cache, store, outDir } = opts;
  const links = new PageLinks();
  const errors: ContentError[] = [];
  let bytes = 0;
  /** Each valid file's card and page, as the workers answer (put in file order once all are read). */
  const read: { rel: string; card: { slug: string }; page?: WrittenPage }[] = [];
  const relOf = (file: string) => file.slice(displayPrefix.length);
  const timeZone = opts.model?.site.hours.timeZone ?? 'UTC';
  const published = publishedAt(plan?.publication);
  // The collections whose pages list other entries get every card first: the model their pages are planned from holds them.
  const { listed } = opts;
  const held = listed?.held ?? new HeldEntries(HELD_BYTES);
  const model = listed?.model;
  // Everything a page depends on besides its file: the code that reads, checks and plans it (the
  // render code and the layout are in the page cache's prefix), the rest of the model (without the
  // listed cards: what a page takes of those is each entry's `depends`) and the plan options but the
  // build's "now", which decides only which entries have a page (it marks pages only in drafts mode).
  const memoVersion = model && plan && cache && new CacheKey()
    .add(cache.keyPrefix).files(root, ['generator', 'contracts'])
    .add(JSON.stringify(opts.model), JSON.stringify({ ...plan, images: [...plan.images], publication: plan.publication.drafts ? plan.publication : { drafts: false } }))
    .digest(32);
  const setup: CollectionSetup = {
    contentDir, displayPrefix, timeZone, ...(opts.translation && { translation: opts.translation }),
    ...(model && plan && layout && cache && memoVersion && {
      render: { model, plan, outDir, pagesDir: cache.pagesDir, keyPrefix: cache.keyPrefix, cachedKeys: cache.keys(), memoVersion },
    }),
  };
  const memo = setup.render && await store.collections(opts.translation?.lang, setup.render.memoVersion);
  const relisted = memo && listed && relistedEntries(memo, listed, published);
  /**
   * What a listed entry's page takes from the other cards (collection.listedInputs), as a digest;
   * undefined for other entries. `before`: what it took last time, still true when its collection
   * does not name it among those an edit may have changed (collection.relisted).
   */
  const depends = (rel: string, before?: string): string | undefined => {
    const collection = collectionOf(kindOf(rel));
    if (!collection?.listedInputs || !model) return undefined;
    const card = listed!.cards.get(rel);
    // An entry not published now has no page to place, whatever the last build wrote.
    if (!card || !published(collection, card)) return 'unpublished';
    if (before && relisted?.has(collection) && !relisted.get(collection)!.has(card.slug)) return before;
    return dependsDigest(collection.listedInputs(card, model));
  };
  const take = (batch: CollectionBatchResult) => {
    bytes += batch.bytes;
    for (const result of batch.files) {
      if (result.errors) errors.push(...result.errors);
      if (!result.card) continue;
      const rel = relOf(result.file);
      const page = result.page;
      read.push({ rel, card: result.card, ...(page && { page: page.written }) });
      if (!page) continue;
      // The worker says what the page took from other cards (result.memo.depends), as depends() would.
      if (result.memo) memo!.learn(rel, { ...result.memo, key: page.key, card: result.card, written: page.written });
      const refs = page.list === undefined ? cache!.adopt(page.key) : batch.lists[page.list]!;
      if (!refs) throw new Error(`the page cache lost ${page.key} (${page.written.route})`);
      const kept = links.add(page.written.route, refs, page.list === undefined);
      if (page.list !== undefined) cache!.remember(page.key, kept);
    }
  };
  const { placed, rest } = memo
    ? memo.place(opts.files, { contentDir, outDir, pagesDir: cache!.pagesDir, cachedKeys: new Set(setup.render!.cachedKeys), depends, digests: listed?.digests })
    : { placed: new Map(), rest: opts.files };
  take({
    files: [...placed].map(([rel, { card, written, key }]) => ({ file: displayPrefix + rel, card, page: { written, key } })),
    lists: [], bytes: 0,
  });
  // The other collections' files first: once they are read, every card is known (the listed
  // ones' came from the cards' pass) and the model is whole while the listed entries' pages render.
  const isListed = (rel: string) => listed !== undefined && needsCards(rel);
  const render = await renderFiles(opts, setup, held, listed?.holders, take, rest.length);
  await render(rest.filter((rel) => !isListed(rel)));

  // Each collection's cards into the model: a listed one's as the cards' pass read them (in file order), the others' as their pages' pass did.
  const cardsOf = (collection: AnyCollection) => (collection.pagesNeedCards && listed ? [...listed.cards] : read.map((r) => [r.rel, r.card] as const))
    .filter(([rel]) => kindOf(rel) === collection.kind).map(([, card]) => card);
  let withCards = model ?? opts.model;
  for (const collection of COLLECTIONS) {
    if (!withCards) break;
    const cards = cardsOf(collection);
    withCards = collection.withCards(withCards, cards.filter((card) => published(collection, card)));
  }

  const done = (async (): Promise<CollectionsRead> => {
    await render(rest.filter(isListed));
    // Each collection: the rules across its files, its pages in the model's order. The files in
    // their order, not in the order the workers answered: which of two files with one title is
    // "already" using it must not change from build to build.
    const locate = (file: string, field: readonly (string | number)[]) => locator(readFileSync(path.join(contentDir, relOf(file)), 'utf8'), 0).value([...field]);
    const order = new Map(opts.files.map((rel, i) => [rel, i]));
    read.sort((a, b) => order.get(a.rel)! - order.get(b.rel)!);
    const pages: WrittenPage[] = [];
    for (const collection of COLLECTIONS) {
      const own = read.filter((r) => kindOf(r.rel) === collection.kind);
      errors.push(...collection.acrossRules(own.map((r) => ({ card: r.card, file: displayPrefix + r.rel })), locate));
      if (!withCards) continue;
      const pageOf = new Map(own.flatMap((r) => (r.page ? [[r.card.slug, r.page] as const] : [])));
      for (const entry of collection.entries(withCards)) {
        const page = pageOf.get((entry as { slug: string }).slug);
        if (page) pages.push(page);
      }
    }
    return { ...(withCards && { model: withCards }), errors, pages, links, bytes };
  })();
  // The caller awaits it after its own work; a failure meanwhile must not count as unhandled.
  done.catch(() => undefined);
  return { ...(withCards && { model: withCards }), done, ...(memoVersion && { memoVersion }) };
}

/**
 * How the files are read and their pages put in place: in the render workers when there are
 * enough of them (`count`), each file to the worker that read it for its card (and holds its
 * entry); else on this thread.
 */
async function renderFiles(
  opts: ReadOptions, setup: CollectionSetup, held: HeldEntries, holders: ReadonlyMap<string, number> | undefined,
  take: (batch: CollectionBatchResult) => void, count: number,
): Promise<(rels: readonly string[]) => Promise<void>> {
  if (count >= PARALLEL_THRESHOLD) {
    const pool = await opts.startPool();
    await pool.broadcast({ collectionSetup: setup });
    return async (rels) => {
      const byWorker = new Map<number | undefined, string[]>();
      for (const rel of rels) {
        const worker = holders?.get(rel);
        byWorker.get(worker)?.push(rel) ?? byWorker.set(worker, [rel]);
      }
      const requests = [...byWorker].flatMap(([worker, own]) => batches(own).map((files) => ({ ...(worker !== undefined && { worker }), request: { collectionFiles: files } })));
      await pool.distribute<CollectionBatchResult>(requests, take);
    };
  }
  return async (rels) => {
    if (!rels.length) return;
    // Loaded only here: a large site reads its collections in the workers, and this thread need not hold React.
    const { CollectionPages } = await import('./collectionPages.js');
    take(new CollectionPages(setup, opts.layout, held).run(rels));
  };
}

/**
 * For each collection that says which of its entries an edit may relist (collection.relisted),
 * those entries, given the cards that are not the last build's: changed, come or gone, or
 * published then and not now or the other way. A file the memo knows with the same bytes has the
 * same card (the memo's version holds the code and the time zone), and one whose new bytes make
 * the same card (an edit of the body alone) changes no other entry's page. The memo knows only
 * the entries the last build published (the others had no page): a published card it does not
 * know is new.
 */
function relistedEntries(
  memo: CollectionMemo, listed: { model: SiteModel; cards: ReadonlyMap<string, { slug: string }>; digests: ReadonlyMap<string, string> },
  published: (collection: AnyCollection, card: { slug: string }) => boolean,
): Map<AnyCollection, ReadonlySet<string>> {
  const known = new Map(memo.known());
  // A first build places no page from the memo: no list is kept, none needs working out again.
  if (!known.size) return new Map();
  const collections = new Map(COLLECTIONS.filter((c) => c.relisted).map((c) => [c.kind, { collection: c, changes: [] as CardChange<{ slug: string }>[], before: [] as { slug: string }[] }]));
  for (const [rel, card] of listed.cards) {
    const own = collections.get(kindOf(rel)!);
    if (!own || !published(own.collection, card)) continue;
    const then = known.get(rel);
    const digest = listed.digests.get(rel);
    if (then && digest !== undefined && then.digest === digest) continue;
    if (then && JSON.stringify(then.card) === JSON.stringify(card)) continue;
    own.changes.push({ after: card, ...(then && { before: then.card }) });
  }
  for (const [rel, then] of known) {
    const own = collections.get(kindOf(rel)!);
    if (!own) continue;
    own.before.push(then.card);
    // A file the last build published that is gone, or not published now.
    const card = listed.cards.get(rel);
    if (!card || !published(own.collection, card)) own.changes.push({ before: then.card });
  }
  return new Map([...collections.values()].map(({ collection, changes, before }) => [collection, changes.length ? collection.relisted!(changes, before, listed.model) : new Set<string>()]));
}

/** Whether a card has a page at the build's "now" (`publication`; without one, every card counts). */
const publishedAt = (publication: Publication | undefined) => (collection: AnyCollection, card: { slug: string }): boolean =>
  !publication || !collection.published || collection.published(card, publication);

/** What the cards' pass reads: the content of one language (as readCollections is given it) and what is published. */
export type CardsOptions = Pick<ReadOptions, 'root' | 'contentDir' | 'displayPrefix' | 'files' | 'store' | 'startPool' | 'translation'> & {
  model: SiteModel;
  publication: Publication;
};

/** The cards' pass of one language, for readCollections. */
export interface ListedCards {
  /** The model with the published cards of every collection whose pages list other entries. */
  model: SiteModel;
  /** Each such file's card (paths in the content folder), and the bytes' digests read on the way. */
  cards: Map<string, { slug: string }>;
  digests: Map<string, string>;
  /** Which render worker read each file (and holds its entry). */
  holders: Map<string, number>;
  /** The entries read on this thread (a small site), for the pages' pass. */
  held: HeldEntries;
}

/**
 * The cards' pass: the published cards of every collection whose pages list other entries, read
 * apart, before any of their pages is planned (in the render workers when there are enough
 * files). It needs no layout: a build runs it while the site's assets are still being built.
 */
export async function readListedCards(opts: CardsOptions): Promise<ListedCards> {
  const { model } = opts;
  const timeZone = model.site.hours.timeZone;
  const published = publishedAt(opts.publication);
  const held = new HeldEntries(HELD_BYTES);
  const listed = COLLECTIONS.filter((c) => c.pagesNeedCards);
  const holders = new Map<string, number>();
  if (!listed.length) return { model, cards: new Map(), digests: new Map(), holders, held };
  const rels = opts.files.filter(needsCards);
  const known = await opts.store.cards(opts.translation?.lang, new CacheKey().files(opts.root, ['generator', 'contracts']).add(timeZone).digest(32));
  const found: { rel: string; card: { slug: string } }[] = [];
  // A file as the last build read it gives its card from the cache (a first build has none to look up).
  const digests = new Map<string, string>();
  const toRead = known.empty ? rels : rels.filter((rel) => {
    const { digest, card } = known.find(rel, path.join(opts.contentDir, rel));
    digests.set(rel, digest);
    if (card) found.push({ rel, card });
    return !card;
  });
  const take = (cards: CardRead[]) => {
    for (const { rel, card, digest, stamp } of cards) {
      found.push({ rel, card });
      known.learn(rel, { digest, card, stamp });
    }
  };
  const setup: CollectionSetup = { contentDir: opts.contentDir, displayPrefix: opts.displayPrefix, timeZone, ...(opts.translation && { translation: opts.translation }) };
  if (toRead.length >= PARALLEL_THRESHOLD) {
    const pool = await opts.startPool();
    await pool.broadcast({ collectionSetup: setup });
    for (const files of batches(toRead)) {
      await pool.ask<CardRead[]>({ collectionCards: files }, (cards, worker) => {
        take(cards);
        for (const rel of files) holders.set(rel, worker);
      });
    }
    await pool.drain();
  } else if (toRead.length) {
    const { CollectionPages } = await import('./collectionPages.js');
    take(new CollectionPages(setup, undefined, held).cards(toRead));
  }
  // In file order, whichever way each card came: the model's order must not depend on the cache.
  const order = new Map(rels.map((rel, i) => [rel, i]));
  found.sort((a, b) => order.get(a.rel)! - order.get(b.rel)!);
  return {
    model: listed.reduce((m, c) => c.withCards(m, found.filter((f) => kindOf(f.rel) === c.kind && published(c, f.card)).map((f) => f.card)), model),
    cards: new Map(found.map((f) => [f.rel, f.card])),
    // The memo of unchanged files need not read these bytes again.
    digests,
    holders,
    held,
  };
}

/**
 * How many cards a render worker holds when it reads these collection files (paths in the content
 * folder): every card of the collections whose pages list other entries.
 */
export function cardsHeld(files: readonly string[]): number {
  return files.filter(needsCards).length;
}

const LISTED_KINDS = new Set(COLLECTIONS.filter((c) => c.pagesNeedCards).map((c) => c.kind));
/** Whether a collection file (a path in the content folder) is of a collection whose pages list other entries: its card is read first. */
const needsCards = (rel: string): boolean => LISTED_KINDS.has(kindOf(rel)!);

const batches = (rels: readonly string[]): string[][] => Array.from({ length: Math.ceil(rels.length / BATCH_PAGES) }, (_, i) => rels.slice(i * BATCH_PAGES, (i + 1) * BATCH_PAGES));

/**
 * A function giving a card's entry in full, read again from its file (a build's model holds only
 * cards; a listing such as a feed needs a few entries whole). Only valid files have cards.
 */
export function entryFromFile<Entry, Card extends { slug: string }>(collection: Collection<Entry & { slug: string }, Card>, contentDir: string, timeZone: string): (card: Card) => Entry {
  const { dir, format } = kinds[collection.kind] as ContentKind;
  return (card) => {
    const rel = `${dir}/${card.slug}.${format === 'markdown' ? 'md' : 'yaml'}`;
    const { doc } = checkFile(rel, rel, readFileSync(path.join(contentDir, rel)));
    if (!doc) throw new Error(`${rel} was valid and is not any more`);
    return collection.entry(doc, timeZone);
  };
}
