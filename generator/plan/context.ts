/** What every page kind's planner shares: the model, addresses, images, the business node, common pieces. */
import type { HomeAndConstructionBusiness } from 'schema-dts';
import { CITIES_PER_PAGE, type ServiceEntry, type Site, type SiteModel } from '../../contracts/content.js';
import type { Breadcrumb, ImageRef, Layout, PageBody, PageHead, PagePlan, ReviewsProps, ServiceCard } from '../../contracts/pages.js';
import { DEFAULT_LANGUAGE, LANGUAGE_INFO, type Lang } from '../../contracts/languages.js';
import { fileForRoute, ROUTE_TABLES, type RouteTable } from '../../contracts/routes.js';
import { business, webPage, type Node } from './jsonld.js';
import { versionsOf, type Twins } from './twins.js';
import { NO_MEMO, type Memo } from './memo.js';

export interface PlanOptions {
  /** Production origin without trailing slash (SITE_URL, else site.siteUrl). */
  origin: string;
  images: ReadonlyMap<string, ImageRef>;
  assets: Layout['assets'];
  year: number;
  /** Plans remembered from the last run (npm run dev keeps one); a build plans everything afresh. */
  memo?: Memo;
  /** What is published: the build's "now", and whether drafts and later entries are shown too (npm run dev). */
  publication: Publication;
  /** Which pages are versions of one another (absent: a site in one language). */
  twins?: Twins;
  /**
   * A translation's pages carry the English site's business node: one entity with one set of facts
   * on every page of every language (tools/schemaOrg.ts checks it is the same everywhere).
   */
  businessSite?: Site;
}

/** The build's "now" (milliseconds since the epoch; an explicit input: the deploy's time, fixed in tests), and npm run dev's showing of the unpublished. */
export interface Publication { now: number; drafts: boolean }

export { fill } from '../../contracts/fill.js';

interface ServedCities {
  shown: { name: string; href?: string }[];
  /** Whether more cities are served than shown (each of the others then has a card on /locations). */
  more: boolean;
  /** The two as one string: an input of the memo that compares by value. */
  key: string;
}

function servedCities({ servedCities: all, cities }: SiteModel): ServedCities {
  const names = all.slice(0, CITIES_PER_PAGE);
  const wanted = new Set(names);
  // Only the shown cities' routes, looked up in one pass: a scan per city was quadratic.
  const routeOf = new Map(cities.filter((c) => c.route && wanted.has(c.name)).map((c) => [c.name, c.route!]));
  const shown = names.map((name) => {
    const href = routeOf.get(name);
    return href ? { name, href } : { name };
  });
  const more = all.length > names.length;
  return { shown, more, key: JSON.stringify([shown, more]) };
}

export class PlanContext {
  readonly origin: string;
  /**
   * The business as structured data, built once; every indexed page carries this one node, the
   * same everywhere (one entity, one set of facts). Its area is the list the owner keeps in
   * site.yaml, not every city file: a node listing 10,000 cities on 10,000 pages would make the
   * site's size grow with the square of its cities. A city page names its city in its Service.
   */
  readonly business: Node<HomeAndConstructionBusiness>;
  readonly reviews: ReviewsProps;
  /** The first breadcrumb of every trail. */
  readonly homeCrumb: Breadcrumb;
  readonly memo: Memo;
  /** The language of the model's texts, and its addresses. */
  readonly lang: Lang;
  readonly routes: RouteTable;

  constructor(readonly model: SiteModel, readonly opts: PlanOptions) {
    const { site } = model;
    this.lang = model.lang;
    this.routes = ROUTE_TABLES[model.lang];
    this.origin = opts.origin;
    const entity = opts.businessSite ?? site;
    this.business = business(entity, opts.origin, entity.servedCities);
    this.reviews = {
      heading: site.reviews.heading, scriptUrl: site.reviews.scriptUrl, widgetId: site.reviews.widgetId, loading: site.reviews.loading,
      fallback: site.reviews.fallback, linkLabel: site.reviews.linkLabel, linkUrl: site.reviews.linkUrl,
    };
    this.homeCrumb = { name: site.labels.breadcrumbHome, href: this.routes.fixed.home };
    this.memo = opts.memo ?? NO_MEMO;
  }

  /** What a page's plan may read besides its own entries, as inputs for the memo. */
  get sharedInputs(): readonly unknown[] {
    const { site, locations, forms, services } = this.model;
    return [site, locations, forms, this.opts.images, this.opts.origin, ...services];
  }

  private servedList: ServedCities | undefined;

  /**
   * What a service page and /services list of the served cities: the first CITIES_PER_PAGE (site.yaml's
   * list, which the schema keeps within it, comes first), linked to their pages.
   */
  get served(): ServedCities {
    return (this.servedList ??= servedCities(this.model));
  }

  /** The canonical URL of a route. */
  url(route: string): string {
    return this.origin + (route === '/' ? '/' : route);
  }

  /**
   * An image as a page refers to it. The pre-blurred copy (inlined as base64) only where a hero starts
   * blurred: carried in 10,000 city plans, it made every page key and worker message larger.
   */
  image(name: string, { blurred = false } = {}): ImageRef {
    const ref = this.opts.images.get(name);
    if (!ref) throw new Error(`image ${name} was not processed`);
    const { blurredSrc, ...rest } = ref;
    return blurred && blurredSrc ? { ...rest, blurredSrc } : rest;
  }

  /** A page head; its JSON-LD is the business and the web page unless `extra` says otherwise. */
  head(route: string, title: string, description: string, extra: Partial<PageHead> = {}): PageHead {
    const canonical = this.url(route);
    const inLanguage = this.opts.twins ? LANGUAGE_INFO[this.lang].htmlLang : undefined;
    const head = { title, description, canonical, jsonLd: [this.business, webPage(title, description, canonical, inLanguage)], ...extra, ...this.versions(route, extra.noindex) };
    // og:image is shared as an absolute URL, the picture's address read from the page's.
    return extra.ogImage ? { ...head, ogImage: new URL(extra.ogImage, canonical).href } : head;
  }

  /** The page's alternates and language switch (plan/twins.ts): every head has them once the site has a translation. */
  versions(route: string, noindex?: boolean): Pick<PageHead, 'alternates' | 'languageSwitch'> {
    return versionsOf(this.opts.twins, this.lang, route, this.origin, noindex);
  }

  page(route: string, head: PageHead, body: PageBody): PagePlan {
    const plan: PagePlan = { route, file: fileForRoute(route), head, body };
    return this.lang === DEFAULT_LANGUAGE ? plan : { lang: this.lang, ...plan };
  }

  serviceCard(s: ServiceEntry): ServiceCard {
    return { name: s.name, href: s.route, icon: s.icon, summary: s.summary, included: s.included };
  }
}
