/** Stage: the site model → the list of pages (route, file, head, body) and the shared layout data. */
import type { Link, SiteModel } from '../../contracts/content.js';
import { DEFAULT_LANGUAGE, LANGUAGE_INFO } from '../../contracts/languages.js';
import type { FeedInput } from '../../contracts/feeds.js';
import type { Layout, LayoutLink, PagePlan } from '../../contracts/pages.js';
import { FEEDS, ROUTE_TABLES } from '../../contracts/routes.js';
import { fill, PlanContext, type PlanOptions } from './context.js';
import { PAGE_KINDS } from './pages.js';

export type { PlanOptions };

/**
 * The layout of the model's language. `other`: the model of the other language once the site has
 * a translation (the header's switch names it).
 */
export function planLayout(model: SiteModel, opts: PlanOptions, other?: SiteModel): Layout {
  const { site } = model;
  const info = LANGUAGE_INFO[model.lang];
  const languages = opts.twins?.languages ?? [model.lang];
  const own = site.language;
  const theirs = other?.site.language;
  const links = markEnglishOnly(model);
  return {
    language: { htmlLang: info.htmlLang, ogLocale: info.ogLocale, ogAlternates: languages.filter((l) => l !== model.lang).map((l) => LANGUAGE_INFO[l].ogLocale) },
    ...(other && own && theirs && {
      languageSwitch: { label: own.switchLabel, name: theirs.name, htmlLang: LANGUAGE_INFO[other.lang].htmlLang, hreflang: LANGUAGE_INFO[other.lang].hreflang },
    }),
    home: ROUTE_TABLES[model.lang].fixed.home,
    routes: ROUTE_TABLES[model.lang].fixed,
    brand: site.brand.name,
    tagline: site.brand.tagline,
    phone: { display: site.phone.display, href: `tel:${site.phone.e164}` },
    email: site.email,
    locality: `${site.address.locality}, ${site.address.region}`,
    hours: site.hours.display,
    navigation: { ...site.navigation, primary: site.navigation.primary.map(links) },
    footer: {
      ...site.footer, quickLinks: site.footer.quickLinks.map(links), legal: site.footer.legal.map(links),
      copyrightText: fill(site.footer.copyright, { year: String(opts.year), brand: site.brand.name }),
    },
    services: model.services.map((s) => ({ name: s.name, href: s.route })),
    feeds: [
      { type: FEEDS.rss.type, href: FEEDS.rss.path, title: model.articlesIndex.feed.title },
      { type: FEEDS.atom.type, href: FEEDS.atom.path, title: model.articlesIndex.feed.title },
      { type: FEEDS.json.type, href: FEEDS.json.path, title: model.articlesIndex.feed.title },
    ],
    assets: opts.assets,
  };
}

/**
 * A translation's link to a page of the site outside its own folder (the articles, the legal pages:
 * English only) says so, in its text and its hreflang.
 */
function markEnglishOnly(model: SiteModel): (link: Link) => LayoutLink {
  const { prefix } = LANGUAGE_INFO[model.lang];
  const note = model.site.language?.onlyInEnglish;
  if (!prefix) return (link) => link;
  return (link) => {
    const internal = link.href.startsWith('/') && !link.href.startsWith('//');
    if (!internal || link.href === prefix || link.href.startsWith(`${prefix}/`)) return link;
    return { label: note ? `${link.label} ${note}` : link.label, href: link.href, hreflang: LANGUAGE_INFO[DEFAULT_LANGUAGE].hreflang };
  };
}

/**
 * A collection's pages as this stage plans them (generator/collections/): its entries' pages from
 * the model and its planner (npm run dev; a build plans those where it reads their files), and its
 * listings (its index, tag pages and feed) from its cards.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- collections of different entries
export interface EntryPages<Entry = any> {
  entries?(model: SiteModel): readonly Entry[];
  planner?(ctx: PlanContext): (entry: Entry) => PagePlan | undefined;
  /** `full`: a card's entry in full; here the card itself (a model of full entries), unless the caller reads it. */
  listings?(ctx: PlanContext, full: (card: Entry) => Entry): { pages: Iterable<PagePlan>; feed?: FeedInput };
}

/** Every page of the site, in sitemap order (npm run dev, the content manager's previews, tests). */
export function planPages(model: SiteModel, opts: PlanOptions, collections: readonly EntryPages[]): PagePlan[] {
  return [...planEachPage(model, opts, collections)];
}

/** The feeds planned with the pages, as each collection's listings give them. */
export type FeedSink = (feed: FeedInput) => void;

/**
 * The pages one at a time, in sitemap order: a build renders and forgets each plan as it comes,
 * so it never holds the plans of every page at once. `collections`: those whose pages are planned
 * here, after the other pages (a build plans its collections' pages where it reads their files).
 */
export function* planEachPage(model: SiteModel, opts: PlanOptions, collections: readonly EntryPages[], feeds: FeedSink = () => undefined): Generator<PagePlan> {
  const ctx = new PlanContext(model, opts);
  // Content cannot give two pages one route (the model's rules refuse it); a planner could.
  const routes = new Set<string>();
  const planners = [
    ...PAGE_KINDS,
    ...collections.map((c) => function* (): Generator<PagePlan> {
      if (!c.listings) return;
      const { pages, feed } = c.listings(ctx, (card) => card);
      if (feed) feeds(feed);
      yield* pages;
    }),
    ...collections.map((c) => function* (): Generator<PagePlan> {
      if (!c.planner || !c.entries) return;
      const plan = c.planner(ctx);
      for (const entry of c.entries(model)) {
        const page = plan(entry);
        if (page) yield page;
      }
    }),
  ];
  for (const planner of planners) {
    for (const page of planner(ctx)) {
      if (routes.has(page.route)) throw new Error(`two pages were planned at ${page.route}`);
      routes.add(page.route);
      yield page;
    }
  }
  ctx.memo.retain(routes);
}
