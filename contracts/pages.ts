/**
 * What the plan stage hands to render and the templates: plain, serializable data (it crosses
 * worker boundaries).
 */
import type { Lang } from './languages.js';
import type { FixedPage } from './routes.js';
import type {
  ArticlesIndex, Checklist, CityPageContent, Contact, ContactTexts, DiscountTexts, EmbedPage, FaqItem, Home, IconName, Link,
  Locations, Service, ServicesIndex, Site, Stat,
} from './content.js';

export type { FaqItem };


/** A processed image as pages reference it. */
export interface ImageRef {
  /** The image for browsers that take neither source set (WebP for photos, the SVG itself for art). */
  src: string;
  avifSrcSet?: string;
  webpSrcSet?: string;
  width: number;
  height: number;
  /** The image pre-blurred, small, as a data: URL: what the home hero shows until the visitor scrolls. */
  blurredSrc?: string;
}

export interface PageHead {
  title: string;
  description: string;
  canonical: string;
  /** The absolute URL of the picture a shared link shows (og:image). */
  ogImage?: string;
  /** JSON-LD graph nodes; serialized into one script element. */
  jsonLd: object[];
  /** Images the page shows first, preloaded. */
  preloadImage?: ImageRef;
  noindex?: boolean;
  /** When the page's content last changed (ISO 8601 with offset): the sitemap's lastmod, never the build's time. */
  modified?: string;
  /** Canonical URLs of the previous and next page of a numbered series (/locations past one page). */
  prev?: string;
  next?: string;
  /**
   * Once the site has a translation: every version of the page, itself included, and x-default
   * (the English one), with absolute URLs; the sitemap writes the same list (plan/twins.ts).
   */
  alternates?: Alternate[];
  /** Once the site has a translation: where the header's language switch leads (the twin, else the other language's home). */
  languageSwitch?: string;
}

/** A version of a page in one language (hreflang, or x-default), as <link rel="alternate"> and the sitemap name it. */
export interface Alternate { hreflang: string; href: string }

/** What is kept of a page once it is written: what the sitemap and the host files need of it. */
export interface WrittenPage { route: string; canonical: string; noindex: boolean; lastmod?: string; alternates?: Alternate[] }

/** The WrittenPage of a plan. */
export const writtenPage = (plan: PagePlan): WrittenPage => ({
  route: plan.route, canonical: plan.head.canonical, noindex: plan.head.noindex === true, ...(plan.head.modified && { lastmod: plan.head.modified }),
  ...(plan.head.alternates && { alternates: plan.head.alternates }),
});

/** A link of the header or footer; `hreflang` when it leads to a page in another language (a Spanish page's link to an English-only one). */
export interface LayoutLink extends Link { hreflang?: string }

/** Data the layout (header, footer, document head) needs on every page of one language. */
export interface Layout {
  /** <html lang>, og:locale and the other languages' og:locale:alternate. */
  language: { htmlLang: string; ogLocale: string; ogAlternates: string[] };
  /** Once the site has a translation: the header's link to the other language (its href is the page's head.languageSwitch). */
  languageSwitch?: { label: string; name: string; htmlLang: string; hreflang: string };
  /** The layouts of the other languages' pages (a page's plan says its language): on the default language's layout only. */
  translations?: Partial<Record<Lang, Layout>>;
  /** The home page of the language: where the logo leads. */
  home: string;
  /** The language's fixed pages (contracts/routes.ts ROUTE_TABLES): where the templates' own buttons lead. */
  routes: Record<FixedPage, string>;
  brand: string;
  tagline: string;
  phone: { display: string; href: string };
  email: string;
  locality: string;
  hours: string;
  navigation: Omit<Site['navigation'], 'primary'> & { primary: LayoutLink[] };
  footer: Omit<Site['footer'], 'quickLinks' | 'legal'> & { quickLinks: LayoutLink[]; legal: LayoutLink[]; copyrightText: string };
  services: { name: string; href: string }[];
  /** The feeds every page's head links to (<link rel="alternate">). */
  feeds: { type: string; href: string; title: string }[];
  /** Asset URLs (and the web font). */
  assets: { css: string; font: WebFont; entry?: string; heroBlur?: string; notFound?: string };
}

/**
 * The web font, which pages add after their first paint (generator/assets/fonts.ts says why): the
 * loader script, inlined in <head>, reads the face from its data attributes.
 */
export interface WebFont {
  family: string;
  src: string;
  weight: string;
  /** Its @font-face rule: for visitors without JavaScript, and for the content manager's previews. */
  faceCss: string;
  /** The text of src/scripts/font-loader.js (allowed by its hash in the Content-Security-Policy). */
  loader: string;
}

export interface ServiceCard {
  name: string;
  href: string;
  icon: IconName;
  summary: string;
  included: string[];
}

export interface ReviewsProps {
  heading: string;
  scriptUrl: string;
  widgetId: string;
  loading: string;
  fallback: string;
  linkLabel: string;
  linkUrl: string;
}

interface CityCard {
  name: string;
  population: string;
  description: string;
  href: string;
}

export interface Breadcrumb { name: string; href: string }

/** A link of a pagination nav: `label` is its accessible name, the visible text is `number` or the label. */
export interface PageLink { href: string; label: string }

/** The links between the numbered pages of a list (a bounded window, whatever the number of pages). */
export interface Pagination {
  /** Accessible name of the nav. */
  label: string;
  /** "Page 2 of 11". */
  status: string;
  previous?: PageLink;
  next?: PageLink;
  /**
   * The first page, the last, the current one and its neighbours, in order; null where pages are
   * left out. `number` is the page's number as shown: a text, so that the numbered pages of a list
   * share one shape (render/pageTemplate.ts) and are filled in, not drawn.
   */
  pages: (PageLink & { number: string; current: boolean } | null)[];
}

/** An article as a card on /articles, a tag page and under "Related articles". */
export interface ArticleCardView {
  title: string;
  href: string;
  description: string;
  /** ISO 8601 with the offset, and as shown ("November 20, 2026"). */
  date: { iso: string; text: string };
  readingTime: string;
  image?: ImageRef & { alt: string };
  /** npm run dev only: "Draft", "Scheduled: goes live …". */
  mark?: string;
}

/** One heading of an article's table of contents. */
export interface TocItem { id: string; text: string; depth: 2 | 3 }

/** The layout a page is drawn in: its language's. */
export const layoutOf = (layout: Layout, lang: Lang | undefined): Layout => (lang && layout.translations?.[lang]) || layout;

export type PageBody =
  | { kind: 'home'; home: Home; claims: Site['claims']; stats: Stat[]; services: ServiceCard[]; reviews: ReviewsProps; discount: DiscountTexts; heroImage: ImageRef; aboutImage: ImageRef; labels: Site['labels'] }
  | { kind: 'services'; page: ServicesIndex; cards: ServiceCard[]; labels: Site['labels'] }
  | {
    /** One page of /locations: its cards, at most CITIES_PER_PAGE; the stats only on the first page. */
    kind: 'locations'; page: Locations; stats: Stat[]; cities: CityCard[];
    /** When the cities take more than one page. */
    pagination?: Pagination;
    /** The pages after the first: the way back to the first. */
    breadcrumbs?: { items: Breadcrumb[]; label: string };
  }
  | { kind: 'checklist'; page: Checklist; labels: Site['labels'] }
  | { kind: 'contact'; page: Contact; texts: ContactTexts; cards: { kind: Contact['cards'][number]['kind']; title: string; value: string; href?: string; note: string }[]; toastClose: string }
  | { kind: 'embed'; page: EmbedPage; frame: { src: string }; variant: 'login' | 'booking' }
  | { kind: 'legal'; title: string; lastUpdated: string; /** The same date as YYYY-MM-DD, for machines. */ lastUpdatedIso: string; lastUpdatedLabel: string; html: string }
  | {
    kind: 'service'; service: Service; heroImage: ImageRef;
    /** The served cities, at most CITIES_PER_PAGE; those with a city page link to it. */
    servedCities: { name: string; href?: string }[];
    /** When there are more served cities than shown: the link to all of them. */
    moreCities?: { href: string; label: string };
    related: ServiceCard[];
    reviews: ReviewsProps; discount: DiscountTexts; labels: Site['labels']; breadcrumbs: Breadcrumb[]; breadcrumbLabel: string;
  }
  | {
    kind: 'city'; name: string; content: Omit<CityPageContent, 'heroImage'>; texts: CityTexts; heroImage: ImageRef;
    related: { name: string; href: string; icon: IconName; text: string }[];
    reviews: ReviewsProps; discount: DiscountTexts; breadcrumbs: Breadcrumb[]; breadcrumbLabel: string;
  }
  | {
    kind: 'article'; title: string;
    published: { label: string; iso: string; text: string };
    updated?: { label: string; iso: string; text: string };
    readingTime: string; author: { label: string; name: string };
    tags: { label: string; items: { name: string; href: string }[] };
    /** The body as sanitized HTML (contracts/articleMarkdown.ts): headings carry ids, pictures their sizes. */
    html: string;
    /** For a long article: its section headings. */
    toc?: { heading: string; items: TocItem[] };
    image?: ImageRef & { alt: string };
    related: { heading: string; cards: ArticleCardView[] };
    cta: ArticlesIndex['cta'];
    breadcrumbs: Breadcrumb[]; breadcrumbLabel: string;
    /** npm run dev only: the mark on a draft or an article dated later. */
    mark?: string;
  }
  | {
    /** A page of /articles, or of a tag's articles: at most perPage cards, newest first. */
    kind: 'articleList'; heading: string; intro: string; cards: ArticleCardView[]; emptyText: string;
    pagination?: Pagination;
    breadcrumbs: { items: Breadcrumb[]; label: string };
    /** On /articles' first page: every tag, with its page. */
    tags?: { heading: string; items: { name: string; href: string; count: number }[] };
    feed: { label: string; href: string };
  }
  | { kind: 'notFound'; code: string; heading: string; link: Link };

/** A city page's shared texts with {city} and {brand} filled in. */
export type CityTexts = Omit<Locations['cityPage'], 'related' | 'defaultHeroImage'>;

export interface PagePlan {
  /** Its language, when not the default one: which layout it is drawn in. */
  lang?: Lang;
  route: string;
  /** Output path relative to dist/. */
  file: string;
  head: PageHead;
  body: PageBody;
}

