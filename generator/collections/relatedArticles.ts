/**
 * Related articles: those sharing most tags with an article, found around it in its tags' lists;
 * and which articles' related lists an edit can change, so that a warm build works out only those
 * again (Collection.relisted).
 */
import type { ArticleCard } from '../../contracts/content.js';
import { byNewest, byTitle } from '../model/articles.js';
import type { CardChange } from './collection.js';

/** How far either side of an article its tags' lists are searched, for `want` related articles. */
const reachOf = (want: number) => want * 4;

/**
 * The places [from, to) in a tag's list of `length` articles whose articles are candidates for the
 * article at `here`: `reach` either side, more after it near the list's start. The search and the
 * rule of what an edit changes read this one window.
 */
function windowOf(length: number, here: number, reach: number): [number, number] {
  const from = Math.max(0, here - reach);
  return [from, Math.min(length, from + 2 * reach + 1)];
}

/**
 * Each tag's articles as numbers (their place in the model's list) and times, newest first: the
 * search reads these arrays, not the cards, which lie all over the heap of a thread that received
 * them in a message (reading a card's slug was most of the search).
 */
interface TagLists {
  /** Each article's number, by slug. */
  number: Map<string, number>;
  byTag: Map<string, { articles: Int32Array; times: Float64Array; place: Map<number, number> }>;
}
const tagLists = new WeakMap<readonly ArticleCard[], TagLists>();

function tagListsOf(all: readonly ArticleCard[]): TagLists {
  let lists = tagLists.get(all);
  if (!lists) {
    const number = new Map(all.map((card, i) => [card.slug, i]));
    const byTag = new Map([...tagIndex(all)].map(([tag, list]) => {
      const articles = Int32Array.from(list, (card) => number.get(card.slug)!);
      return [tag, { articles, times: Float64Array.from(list, (card) => card.time), place: new Map([...articles].map((n, i) => [n, i])) }];
    }));
    tagLists.set(all, (lists = { number, byTag }));
  }
  return lists;
}

/**
 * The articles sharing most tags with `a`, the nearest in time first among equals. Candidates are
 * the articles around `a` in each of its tags' lists, not every article (a scan of all of them for
 * each page made planning quadratic) nor the newest (a new article would then be related to
 * thousands, and each edit of its title would plan all of them again).
 */
export function relatedArticles(a: ArticleCard, all: readonly ArticleCard[], want: number): ArticleCard[] {
  if (!want) return [];
  // A worker asks twice in a row for the same article: to plan its page, then for the memo (listedInputs).
  const asked = lastRelated;
  if (asked && asked.all === all && asked.want === want && asked.slug === a.slug && asked.time === a.time && sameTags(asked.tags, a.tags)) return asked.related;
  const related = findRelated(a, all, want);
  lastRelated = { all, want, slug: a.slug, time: a.time, tags: a.tags, related };
  return related;
}

let lastRelated: { all: readonly ArticleCard[]; want: number; slug: string; time: number; tags: ArticleCard['tags']; related: ArticleCard[] } | undefined;
const sameTags = (x: ArticleCard['tags'], y: ArticleCard['tags']) => x.length === y.length && x.every((t, i) => t.slug === y[i]!.slug);

function findRelated(a: ArticleCard, all: readonly ArticleCard[], want: number): ArticleCard[] {
  const lists = tagListsOf(all);
  const self = lists.number.get(a.slug) ?? -1;
  const reach = reachOf(want);
  /** Each candidate's number → how many of a's tags it shares, and its time. */
  const shared = new Map<number, { n: number; time: number }>();
  for (const tag of a.tags) {
    const list = lists.byTag.get(tag.slug);
    if (!list) continue;
    const { articles, times } = list;
    // An article not in the lists (a draft previewed): around where its date would put it.
    const here = list.place.get(self) ?? times.findIndex((t) => t <= a.time);
    const [from, to] = windowOf(articles.length, here < 0 ? articles.length : here, reach);
    for (let i = from; i < to; i++) {
      const other = articles[i]!;
      if (other === self) continue;
      const seen = shared.get(other);
      if (seen) seen.n++;
      else shared.set(other, { n: 1, time: times[i]! });
    }
  }
  // The best `want` by insertion: a full sort of the candidates cost more than the rest of the search.
  const best: { article: number; n: number; time: number; distance: number }[] = [];
  const before = (x: (typeof best)[number], y: (typeof best)[number]) =>
    y.n - x.n || x.distance - y.distance || y.time - x.time || byTitle(all[x.article]!.title, all[y.article]!.title);
  for (const [article, { n, time }] of shared) {
    const candidate = { article, n, time, distance: Math.abs(time - a.time) };
    if (best.length === want && before(candidate, best[want - 1]!) >= 0) continue;
    let at = best.length === want ? want - 1 : best.length;
    while (at > 0 && before(candidate, best[at - 1]!) < 0) at--;
    best.splice(at, 0, candidate);
    if (best.length > want) best.pop();
  }
  return best.map((b) => all[b.article]!);
}

/** Each tag's articles, newest first (the model's order), by the tag's address segment. */
export function tagIndex(all: readonly ArticleCard[]): Map<string, ArticleCard[]> {
  const byTag = new Map<string, ArticleCard[]>();
  for (const card of all) {
    for (const tag of card.tags) {
      const list = byTag.get(tag.slug);
      if (list) list.push(card);
      else byTag.set(tag.slug, [card]);
    }
  }
  return byTag;
}


/**
 * The articles whose related lists may differ from the last build's, given the cards that changed,
 * came or went since then, and the last build's published cards and this build's (newest first).
 * An article's related ones are chosen among the articles in its tags' windows (windowOf), by their
 * cards alone: its list can differ only where one of its windows holds a changed card, or other
 * articles than it did. So in each tag of a changed card (before or after the change), each
 * article's window now is compared with its window then; the other tags' lists are as they were.
 * Around a title edit that is a few dozen articles, not the thousands sharing its tags.
 */
export function relistedArticles(changes: readonly CardChange<ArticleCard>[], before: readonly ArticleCard[], now: readonly ArticleCard[], want: number): Set<string> {
  const relisted = new Set<string>();
  if (!want || !changes.length) return relisted;
  const reach = reachOf(want);
  const changed = new Set(changes.flatMap((c) => [c.before, c.after]).flatMap((card) => (card ? [card.slug] : [])));
  const tags = new Set(changes.flatMap((c) => [...(c.before?.tags ?? []), ...(c.after?.tags ?? [])]).map((tag) => tag.slug));
  const inTags = (card: ArticleCard) => card.tags.some((tag) => tags.has(tag.slug));
  const then = tagIndex(before.filter(inTags).sort(byNewest));
  const lists = tagIndex(now.filter(inTags));
  for (const tag of tags) {
    const old = then.get(tag) ?? [];
    const cur = lists.get(tag) ?? [];
    const placeThen = new Map(old.map((card, i) => [card.slug, i]));
    for (const [here, card] of cur.entries()) {
      const was = placeThen.get(card.slug);
      if (was === undefined || changed.has(card.slug) || windowChanged(cur, here, old, was, reach, changed)) relisted.add(card.slug);
    }
  }
  return relisted;
}

/** Whether the window at `here` in a tag's list now holds other articles than the one at `was` in its list then, or a changed one. */
function windowChanged(now: readonly ArticleCard[], here: number, then: readonly ArticleCard[], was: number, reach: number, changed: ReadonlySet<string>): boolean {
  const [from, to] = windowOf(now.length, here, reach);
  const [fromThen, toThen] = windowOf(then.length, was, reach);
  if (to - from !== toThen - fromThen) return true;
  for (let i = from; i < to; i++) {
    const slug = now[i]!.slug;
    if (slug !== then[fromThen + i - from]!.slug || changed.has(slug)) return true;
  }
  return false;
}
