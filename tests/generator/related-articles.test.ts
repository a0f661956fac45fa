/**
 * Which articles' related lists an edit may change (the article collection's `relisted`): a warm
 * build works out again only the lists of those, and places every other article's page as the
 * last build wrote it. Missing one would leave a page listing an old title, a gone article or the
 * wrong neighbours, so the rule is checked against the search itself: after random edits of random
 * blogs, every article it leaves out lists exactly what it listed before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ArticleCard, SiteModel } from '../../contracts/content.js';
import { articles } from '../../generator/collections/articles.js';
import type { CardChange } from '../../generator/collections/collection.js';
import { withArticles } from '../../generator/model/articles.js';

const TAGS = ['deep-cleaning', 'kitchens', 'move-out', 'pets'];
const DAY = 86_400_000;

function card(slug: string, title: string, day: number, tags: readonly string[], description = `About ${title}.`): ArticleCard {
  return {
    slug, route: `/articles/${slug}`, lang: 'en', title, description, author: 'The team', draft: false, minutes: 4,
    date: new Date(Date.UTC(2026, 0, 1) + day * DAY).toISOString(), time: Date.UTC(2026, 0, 1) + day * DAY,
    tags: tags.map((slug) => ({ slug, name: slug.replace('-', ' ') })),
  } as ArticleCard;
}

const modelOf = (cards: readonly ArticleCard[], want: number) =>
  withArticles({ articlesIndex: { article: { relatedCount: want } } } as unknown as SiteModel, cards);

/** What each article's page takes from the others' cards. */
const listsOf = (model: SiteModel) => new Map(model.articles.map((a) => [a.slug, articles.listedInputs!(a, model)]));

/** The changes a build finds between the last build's published cards and this one's, as readCollections finds them. */
function changesBetween(before: readonly ArticleCard[], after: readonly ArticleCard[]): CardChange<ArticleCard>[] {
  const then = new Map(before.map((c) => [c.slug, c]));
  const now = new Set(after.map((c) => c.slug));
  return [
    ...after.flatMap((c) => (JSON.stringify(then.get(c.slug)) === JSON.stringify(c) ? [] : [{ after: c, ...(then.has(c.slug) && { before: then.get(c.slug)! }) }])),
    ...before.filter((c) => !now.has(c.slug)).map((c) => ({ before: c })),
  ];
}

type Edit =
  | { kind: 'title'; i: number; accent: boolean }
  | { kind: 'date'; i: number; day: number }
  | { kind: 'tags'; i: number; tags: string[] }
  | { kind: 'description'; i: number }
  | { kind: 'published'; i: number }
  | { kind: 'new'; day: number; tags: string[] };

const tags = fc.subarray(TAGS, { minLength: 1, maxLength: 3 });
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('title' as const), i: fc.nat(), accent: fc.boolean() }),
  fc.record({ kind: fc.constant('date' as const), i: fc.nat(), day: fc.nat(40) }),
  fc.record({ kind: fc.constant('tags' as const), i: fc.nat(), tags }),
  fc.record({ kind: fc.constant('description' as const), i: fc.nat() }),
  fc.record({ kind: fc.constant('published' as const), i: fc.nat() }),
  fc.record({ kind: fc.constant('new' as const), day: fc.nat(40), tags }),
);

describe('the articles an edit may relist', () => {
  it('name every article whose related list an edit changes (random blogs, random edits)', () => {
    fc.assert(fc.property(
      // Few days for many articles: articles of one moment, ordered by title then file name.
      fc.array(fc.record({ day: fc.nat(40), tags, published: fc.nat(9) }), { minLength: 1, maxLength: 90 }),
      fc.array(edit, { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 1, max: 3 }),
      (blog, edits, want) => {
        // "Cafe" and "Café" are one title to the order (by title, accents aside): ties go to the file name.
        const all = blog.map((a, n) => ({ ...card(`q-${n}`, `Question ${n % 7 === 0 ? 'Cafe' : 'Café'} ${n}`, a.day, a.tags), published: a.published > 0 }));
        const published = (list: typeof all) => list.filter((a) => a.published).map(({ published: _, ...c }) => c as ArticleCard);
        const before = published(all);
        const after = all.map((a) => ({ ...a }));
        for (const e of edits) {
          if (e.kind === 'new') {
            after.push({ ...card(`new-${after.length}`, `A New Question ${after.length}`, e.day, e.tags), published: true });
            continue;
          }
          const a = after[e.i % after.length]!;
          const i = after.indexOf(a);
          if (e.kind === 'title') after[i] = { ...a, title: `${e.accent ? 'Édited' : 'Edited'} ${a.title}` };
          if (e.kind === 'date') after[i] = { ...a, ...card(a.slug, a.title, e.day, a.tags.map((t) => t.slug), a.description) };
          if (e.kind === 'tags') after[i] = { ...a, tags: card(a.slug, a.title, 0, e.tags).tags };
          if (e.kind === 'description') after[i] = { ...a, description: `${a.description} More.` };
          if (e.kind === 'published') after[i] = { ...a, published: !a.published };
        }
        const now = published(after);
        const changes = changesBetween(before, now);
        const listedThen = listsOf(modelOf(before, want));
        const model = modelOf(now, want);
        const relisted = changes.length ? articles.relisted!(changes, before, model) : new Set<string>();
        const changed = new Set(changes.flatMap((c) => [c.before?.slug, c.after?.slug]));
        for (const [slug, listed] of listsOf(model)) {
          // A changed or new article's page is made again anyway; every other one left out must list what it did.
          if (!changed.has(slug) && !relisted.has(slug)) expect([slug, listed]).toEqual([slug, listedThen.get(slug)]);
        }
      },
    ), { numRuns: 1_500 });
  });

  it("name the articles around an edited title in its tag's list, not every article of the tag", () => {
    const blog = Array.from({ length: 300 }, (_, n) => card(`q-${n}`, `Question ${n}`, n, ['kitchens']));
    const edited = blog.map((a) => (a.slug === 'q-150' ? { ...a, title: 'A Retitled Question' } : a));
    const model = modelOf(edited, 3);
    const relisted = articles.relisted!(changesBetween(blog, edited), blog, model);
    // Three related articles are looked for among the twelve either side: those 24 and itself.
    expect([...relisted].sort()).toEqual(Array.from({ length: 25 }, (_, k) => `q-${138 + k}`).sort());
    // And the newest, at the head of the list: the 12 after it see it, and those up to 12 further.
    const newest = blog.map((a) => (a.slug === 'q-299' ? { ...a, title: 'A Retitled Question' } : a));
    expect(articles.relisted!(changesBetween(blog, newest), blog, modelOf(newest, 3)).size).toBe(13);
  });
});
