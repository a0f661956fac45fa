/**
 * The articles: content/articles/<slug>.md, each a page at /articles/<slug>, listed newest first on
 * /articles and on each of its tags' pages (numbered pages past `perPage`), and carried in full by
 * the feeds. An article's page lists related articles, so their cards are read before any page is
 * planned (`pagesNeedCards`); a draft, or an article dated after the build's "now", is in no output.
 */
import type { ArticleCard, ArticleEntry, SiteModel } from '../../contracts/content.js';
import type { ValidDocOf } from '../../contracts/documents.js';
import type { FeedInput } from '../../contracts/feeds.js';
import type { ArticleCardView, PagePlan } from '../../contracts/pages.js';
import { articlesPageRoute, FEEDS, ROUTES, tagRoute } from '../../contracts/routes.js';
import { articleCard, articleEntry, articleFileRules, byTitle, repeatedArticleTexts, withArticles } from '../model/articles.js';
import { relatedArticles, relistedArticles, tagIndex } from './relatedArticles.js';
import { renderArticleMarkdown } from '../../contracts/articleMarkdown.js';
import { fill, type PlanContext, type Publication } from '../plan/context.js';
import { blogPosting, breadcrumbs } from '../plan/jsonld.js';
import { pagesOf, pagination } from '../plan/pagination.js';
import type { Collection, Listings } from './collection.js';

export const articles: Collection<ArticleEntry, ArticleCard> = {
  kind: 'article',
  entry: (doc, timeZone) => articleEntry(doc as ValidDocOf<'article'>, timeZone),
  card: articleCard,
  fileRules: (doc, opts) => articleFileRules(doc as ValidDocOf<'article'>, opts),
  acrossRules: (cards, locate) => repeatedArticleTexts(cards, locate),
  entries: (model) => model.articles as ArticleEntry[],
  withCards: (model, cards) => withArticles(model, cards),
  planner: articlePagePlanner,
  needs: (a) => [...(a.image ? [`images/${a.image.src}`] : []), ...bodyPictures(a.body)],
  // Their templates show their texts and nothing else (render/pageTemplate.ts checks each shape's first page against React's drawing).
  templated: ['article', 'articleList'],
  pagesNeedCards: true,
  listedInputs: (card, model) => JSON.stringify(relatedArticles(card, model.articles, model.articlesIndex.article.relatedCount)),
  relisted: (changes, before, model) => relistedArticles(changes, before, model.articles, model.articlesIndex.article.relatedCount),
  published: isPublished,
  listings,
};

function isPublished(card: ArticleCard, { now, drafts }: Publication): boolean {
  return drafts || (!card.draft && card.time <= now);
}

/** The pictures a body shows, as content files (their bytes are part of the page). */
function bodyPictures(body: string): string[] {
  return [...body.matchAll(/\]\(\s*\/images\/([^\s)]+)/g)].map((m) => `images/${decodeURI(m[1]!)}`);
}

/** What every article planner shares in one plan context: the texts, the date format, the tags' index. */
class ArticleTexts {
  readonly index: SiteModel['articlesIndex'];
  private readonly dates: Intl.DateTimeFormat;

  constructor(private readonly ctx: PlanContext) {
    this.index = ctx.model.articlesIndex;
    this.dates = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: ctx.model.site.hours.timeZone });
  }

  date(iso: string, time: number) {
    return { iso, text: this.dates.format(time) };
  }

  /** npm run dev only: how a page or a card says it is not live. */
  mark(card: ArticleCard): string | undefined {
    const { now } = this.ctx.opts.publication;
    if (card.draft) return this.index.article.draft;
    if (card.time > now) return fill(this.index.article.scheduled, { date: this.dates.format(card.time) });
    return undefined;
  }

  /** Each card's view, made once: an article is on /articles, on each of its tags' pages and in related lists. */
  private readonly views = new WeakMap<ArticleCard, ArticleCardView>();

  card(a: ArticleCard): ArticleCardView {
    let view = this.views.get(a);
    if (!view) this.views.set(a, (view = this.view(a)));
    return view;
  }

  private view(a: ArticleCard): ArticleCardView {
    const mark = this.mark(a);
    return {
      title: a.title, href: a.route, description: a.description, date: this.date(a.date, a.time),
      readingTime: fill(this.index.article.readingTime, { minutes: String(a.minutes) }),
      ...(a.image && { image: { ...this.ctx.image(a.image.src), alt: a.image.alt } }),
      ...(mark && { mark }),
    };
  }

  authorUrl(name: string): string {
    const listed = this.index.authors.find((a) => a.name === name);
    return listed ? new URL(listed.url, this.ctx.origin + '/').href : this.ctx.url(ROUTES.home);
  }

  relatedTo(a: ArticleCard): ArticleCard[] {
    return relatedArticles(a, this.ctx.model.articles, this.index.article.relatedCount);
  }
}

const textsOf = new WeakMap<PlanContext, ArticleTexts>();
const texts = (ctx: PlanContext) => {
  let t = textsOf.get(ctx);
  if (!t) textsOf.set(ctx, (t = new ArticleTexts(ctx)));
  return t;
};

function articlePagePlanner(ctx: PlanContext): (entry: ArticleEntry) => PagePlan | undefined {
  const t = texts(ctx);
  const { site } = ctx.model;
  const { article: labels, cta, externalLinkRel, heading } = t.index;
  return (a) => {
    if (!isPublished(a, ctx.opts.publication)) return undefined;
    const related = t.relatedTo(a);
    // A plan is remembered by what it reads: its entry, the cards it lists and the shared texts.
    return ctx.memo.plan(a.route, [...ctx.sharedInputs, t.index, a, ...related], () => {
      const body = renderArticleMarkdown(a.body, { origin: ctx.origin, image: (p) => ctx.opts.images.get(p), externalRel: externalLinkRel });
      const canonical = ctx.url(a.route);
      const image = a.image && { ...ctx.image(a.image.src), alt: a.image.alt };
      const crumbs = [ctx.homeCrumb, { name: heading, href: ROUTES.articles }, { name: a.title, href: a.route }];
      const modified = a.updated ?? a.date;
      const mark = t.mark(a);
      return ctx.page(a.route, {
        title: `${a.title} | ${site.brand.name}`, description: a.description, canonical, modified, ...ctx.versions(a.route),
        ...(image && { preloadImage: image, ogImage: new URL(image.src, canonical).href }),
        jsonLd: [
          ctx.business,
          blogPosting({
            headline: a.title, description: a.description, url: canonical, ...(image && { image: new URL(image.src, canonical).href }),
            published: a.date, modified, author: { name: a.author, url: t.authorUrl(a.author) }, keywords: a.tags.map((tag) => tag.name),
          }, ctx.origin),
          breadcrumbs(crumbs, ctx.origin),
        ],
      }, {
        kind: 'article', title: a.title,
        published: { label: labels.published, ...t.date(a.date, a.time) },
        ...(a.updated && { updated: { label: labels.updated, iso: a.updated, text: t.date(a.updated, Date.parse(a.updated)).text } }),
        readingTime: fill(labels.readingTime, { minutes: String(a.minutes) }),
        author: { label: labels.by, name: a.author },
        tags: { label: labels.tags, items: a.tags.map((tag) => ({ name: tag.name, href: tagRoute(tag.slug) })) },
        html: body.html,
        ...(body.headings.filter((h) => h.depth === 2).length >= labels.tocMinHeadings && { toc: { heading: labels.toc, items: body.headings } }),
        ...(image && { image }),
        related: { heading: labels.related, cards: related.map((r) => t.card(r)) },
        cta, breadcrumbs: crumbs, breadcrumbLabel: site.navigation.breadcrumbLabel,
        ...(mark && { mark }),
      });
    });
  };
}

/** /articles and each tag's pages, `perPage` cards to a page, and the feeds of the newest. */
function listings(ctx: PlanContext, full: (card: ArticleCard) => ArticleEntry): Listings {
  const t = texts(ctx);
  const all = ctx.model.articles;
  const byTag = tagIndex(all);
  const tags = [...byTag].map(([slug, list]) => ({ slug, name: list[0]!.tags.find((tag) => tag.slug === slug)!.name, list }))
    .sort((a, b) => b.list.length - a.list.length || byTitle(a.name, b.name));
  return {
    pages: (function* () {
      yield* listPages(ctx, t, all, { heading: t.index.heading, intro: t.index.intro, routeOf: articlesPageRoute, seo: t.index.seo }, tags);
      for (const tag of tags) {
        const vars = { tag: tag.name, brand: ctx.model.site.brand.name, count: String(tag.list.length) };
        yield* listPages(ctx, t, tag.list, {
          heading: fill(t.index.tagPage.heading, vars), intro: fill(t.index.tagPage.intro, vars), routeOf: (n) => tagRoute(tag.slug, n),
          seo: { title: fill(t.index.tagPage.seoTitle, vars), description: fill(t.index.tagPage.seoDescription, vars) },
        });
      }
    })(),
    feed: feed(ctx, t, all.slice(0, t.index.feed.items).map(full)),
  };
}

interface ListTexts { heading: string; intro: string; routeOf: (n: number) => string; seo: { title: string; description: string } }

function* listPages(ctx: PlanContext, t: ArticleTexts, cards: readonly ArticleCard[], texts: ListTexts, tags?: { slug: string; name: string; list: unknown[] }[]): Generator<PagePlan> {
  const { site } = ctx.model;
  const { pagination: nav, feed, emptyText } = t.index;
  const pages = pagesOf(cards, t.index.perPage);
  const count = pages.length;
  const first = texts.routeOf(1);
  const tagList = tags && { heading: t.index.tagPage.allTags, items: tags.map((tag) => ({ name: tag.name, href: tagRoute(tag.slug), count: tag.list.length })) };
  for (const [i, own] of pages.entries()) {
    const n = i + 1;
    const route = texts.routeOf(n);
    // The list's own texts too: a tag's say how many articles it has, which its later pages do not show.
    const inputs = [...ctx.sharedInputs, t.index, texts.heading, texts.intro, texts.seo.title, texts.seo.description, count, ...own, ...(n === 1 && tags ? [JSON.stringify(tagList)] : [])];
    yield ctx.memo.plan(route, inputs, () => {
      const vars = { page: String(n), pages: String(count), heading: texts.heading, brand: site.brand.name };
      const crumbs = [ctx.homeCrumb, ...(first === ROUTES.articles ? [] : [{ name: t.index.heading, href: ROUTES.articles }]), { name: texts.heading, href: first }];
      if (n > 1) crumbs.push({ name: fill(nav.status, vars), href: route });
      const title = n === 1 ? texts.seo.title : fill(nav.seoTitle, vars);
      const description = n === 1 ? texts.seo.description : fill(nav.seoDescription, vars);
      return ctx.page(route, ctx.head(route, title, description, {
        jsonLd: [ctx.business, breadcrumbs(crumbs, ctx.origin)],
        ...(n > 1 && { prev: ctx.url(texts.routeOf(n - 1)) }),
        ...(n < count && { next: ctx.url(texts.routeOf(n + 1)) }),
      }), {
        kind: 'articleList', heading: texts.heading, intro: texts.intro, cards: own.map((c) => t.card(c)), emptyText,
        ...(count > 1 && { pagination: pagination(n, count, texts.routeOf, nav) }),
        breadcrumbs: { items: crumbs, label: site.navigation.breadcrumbLabel },
        ...(n === 1 && tagList && tagList.items.length > 0 && { tags: tagList }),
        feed: { label: feed.label, href: FEEDS.rss.path },
      });
    });
  }
}

function feed(ctx: PlanContext, t: ArticleTexts, newest: readonly ArticleEntry[]): FeedInput {
  const { site } = ctx.model;
  return {
    origin: ctx.origin, title: t.index.feed.title, description: t.index.feed.description, home: ROUTES.articles, language: 'en-US',
    copyright: fill(site.footer.copyright, { year: String(ctx.opts.year), brand: site.brand.name }),
    items: newest.map((a) => {
      const image = a.image && ctx.image(a.image.src);
      return {
        route: a.route, title: a.title, summary: a.description,
        html: renderArticleMarkdown(a.body, { origin: ctx.origin, image: (p) => ctx.opts.images.get(p), externalRel: t.index.externalLinkRel }).html,
        published: a.date, ...(a.updated && { updated: a.updated }),
        author: { name: a.author, url: t.authorUrl(a.author) }, tags: a.tags.map((tag) => tag.name),
        ...(image && { image: { src: image.src, type: mediaType(image.src) } }),
      };
    }),
  };
}

const mediaType = (src: string) => ({ webp: 'image/webp', avif: 'image/avif', png: 'image/png', svg: 'image/svg+xml' } as Record<string, string>)[src.split('.').pop()!] ?? 'image/jpeg';
