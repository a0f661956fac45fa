/**
 * The collection contract. A collection is a folder of content files that become one page each
 * (cities today), where other pages know an entry only by its card (a name, a link, a summary).
 * What makes a large site fast is the same for every collection, and the build gives it to each
 * through this contract alone: its files are read, checked, planned and rendered in the render
 * workers (render/collectionPages.ts), an unchanged file is placed from the memo of the last build
 * (cache/collectionMemo.ts), its pages go through the page cache, and, where its pages share a
 * layout, they are drawn once per shape (render/pageTemplate.ts). A collection whose pages list
 * other entries (an article's related articles) has its cards read first, apart, and only what is
 * published at the build's "now" is in any output. The orchestrator, the render and the write
 * stages name no collection: adding one is its schema (contracts/), this object (its model entry,
 * its rules, its planners) in one file here, its entry in COLLECTIONS and its templates.
 */
import type { SiteModel } from '../../contracts/content.js';
import type { ValidDoc } from '../../contracts/documents.js';
import type { FeedInput } from '../../contracts/feeds.js';
import type { ContentError } from '../../contracts/errors.js';
import type { KindName } from '../../contracts/kinds.js';
import type { PageBody, PagePlan } from '../../contracts/pages.js';
import type { AssembleOptions } from '../model/assemble.js';
import type { PlanContext, Publication } from '../plan/context.js';

/** Where a file writes a field (1-based line and column). */
export type Locate = (file: string, field: readonly (string | number)[]) => { line: number; column: number };

export interface Collection<Entry extends { slug: string } = { slug: string }, Card extends { slug: string } = Entry> {
  /** Its content kind (contracts/kinds.ts): its folder and its schema. */
  readonly kind: KindName;
  /** A valid file's entry in the model, page texts included; `timeZone` reads the dates it writes without an offset. */
  entry(doc: ValidDoc, timeZone: string): Entry;
  /** What other pages need of an entry: the entry without its page texts. */
  card(entry: Entry): Card;
  /** The rules of one file that need nothing but it and the content folder. */
  fileRules(doc: ValidDoc, opts: AssembleOptions): ContentError[];
  /** The rules across its files, on their cards (`file` as messages name it). */
  acrossRules(cards: readonly { card: Card; file: string }[], locate: Locate): ContentError[];
  /** The model's entries of the collection. */
  entries(model: SiteModel): readonly Entry[];
  /** The model with these cards as its entries (a build reads the collection apart from the rest). */
  withCards(model: SiteModel, cards: readonly Card[]): SiteModel;
  /** The planner of an entry's page: undefined for an entry without one. */
  planner(ctx: PlanContext): (entry: Entry) => PagePlan | undefined;
  /** Content files besides its own that an entry's page is made from (its picture), relative to the content folder. */
  needs(entry: Entry): string[];
  /** The body kinds of its pages (its entries' and its listings') that share one layout: drawn once per shape and filled in. */
  readonly templated?: readonly PageBody['kind'][];
  /** Its pages show other entries' cards: every card is read before any of its pages is planned. */
  readonly pagesNeedCards?: boolean;
  /**
   * With pagesNeedCards: what an entry's page takes from the other entries' cards (its related
   * articles), as text. The memo of unchanged files compares it, so a changed card plans again only
   * the pages that show it, not every page of the collection.
   */
  listedInputs?(card: Card, model: SiteModel): string;
  /**
   * With listedInputs: the entries (their slugs) whose listed inputs may differ from the last
   * build's, given the cards that changed, came or went since then (`changes`, never empty), the
   * last build's published cards and this build's model. Every other entry lists what it listed
   * then, and a warm build need not work its list out again.
   */
  relisted?(changes: readonly CardChange<Card>[], before: readonly Card[], model: SiteModel): ReadonlySet<string>;
  /** Whether an entry is in the output at `when` (absent: always); an entry that is not has no page, card or listing. */
  published?(card: Card, when: Publication): boolean;
  /**
   * The pages made from its cards in the model (an index, tag pages) and its feed, planned on
   * the main thread once every card is known. `full` gives an entry with its page texts (read
   * again from its file in a build, whose model holds only cards).
   */
  listings?(ctx: PlanContext, full: (card: Card) => Entry): Listings;
}

/** A card of the last build (published then) and of this one (published now): one of them absent when it came or went. */
export interface CardChange<Card> {
  before?: Card;
  after?: Card;
}

/** A collection's listing pages, and its feed (the write stage writes it in each format). */
export interface Listings {
  pages: Iterable<PagePlan>;
  feed?: FeedInput;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of collections of different entries
export type AnyCollection = Collection<any, any>;
