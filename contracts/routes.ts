/**
 * Every address of the site in one table: the fixed pages by name, and how entries of a content
 * folder get theirs. The plan, the model's collision rule and the templates all read it from here.
 */
import type { Lang } from './languages.js';

export const ROUTES = {
  home: '/',
  services: '/services',
  locations: '/locations',
  checklist: '/checklist',
  contact: '/contact',
  customerLogin: '/customer-login',
  bookOnline: '/book-online',
  articles: '/articles',
  notFound: '/404',
} as const;

export const BOOK_ONLINE = ROUTES.bookOnline;

/** A service or legal page: the file name is its path. */
export const entryRoute = (slug: string) => `/${slug}`;

export const cityRoute = (slug: string) => `/locations/deep-cleaning-${slug}-ca`;

/**
 * Page `n` (from 1) of /locations once its cities take more than one page: /locations, then
 * /locations/page/2 and on. One level deeper than a city page, whose slug cannot hold a slash, so
 * the two never meet (planPages refuses two pages with one route all the same).
 */
export const locationsPageRoute = (n: number) => (n === 1 ? ROUTES.locations : `${ROUTES.locations}/page/${n}`);

/** dist/ file for a route: clean URLs as both Netlify and Cloudflare Pages serve them. */
export const fileForRoute = (route: string) => (route === '/' ? 'index.html' : `${route.slice(1)}.html`);

/** An article's page. */
export const articleRoute = (slug: string) => `${ROUTES.articles}/${slug}`;

/** Page `n` (from 1) of /articles: /articles, then /articles/page/2 and on (an article's slug holds no slash). */
export const articlesPageRoute = (n: number) => (n === 1 ? ROUTES.articles : `${ROUTES.articles}/page/${n}`);

/** Page `n` (from 1) of a tag's articles. */
export const tagRoute = (tagSlug: string, n = 1) => `${ROUTES.articles}/tags/${tagSlug}${n === 1 ? '' : `/page/${n}`}`;

/** A tag's address segment: "Move Out" and "move-out" are one tag, "Écologique" is "ecologique". */
export const tagSlug = (tag: string) =>
  tag.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');

/** The articles' feeds: RSS 2.0, Atom and JSON Feed, each the newest articles in full. */
export const FEEDS = {
  rss: { path: '/articles/feed.xml', type: 'application/rss+xml' },
  atom: { path: '/articles/atom.xml', type: 'application/atom+xml' },
  json: { path: '/articles/feed.json', type: 'application/feed+json' },
} as const;

/** The fixed pages every language has (the articles are English only). */
export type FixedPage = Exclude<keyof typeof ROUTES, 'articles'>;

/** One language's addresses: its fixed pages, and how its services, cities and numbered /locations pages get theirs. */
export interface RouteTable {
  fixed: Record<FixedPage, string>;
  service(slug: string): string;
  city(slug: string): string;
  locationsPage(n: number): string;
}

/**
 * The Spanish pages' addresses: the words a Spanish speaker searches for (notes/decisions.md,
 * "The site in Spanish"), under /es, whose 404.html Cloudflare Pages serves for any missing /es/ path.
 */
const ES_FIXED: Record<FixedPage, string> = {
  home: '/es',
  services: '/es/servicios',
  locations: '/es/ubicaciones',
  checklist: '/es/lista-de-limpieza',
  contact: '/es/contacto',
  customerLogin: '/es/acceso-clientes',
  bookOnline: '/es/reservar',
  notFound: '/es/404',
};

export const ROUTE_TABLES: Record<Lang, RouteTable> = {
  en: { fixed: ROUTES, service: entryRoute, city: cityRoute, locationsPage: locationsPageRoute },
  es: {
    fixed: ES_FIXED,
    service: (slug) => `/es/${slug}`,
    city: (slug) => `${ES_FIXED.locations}/limpieza-profunda-${slug}-ca`,
    locationsPage: (n) => (n === 1 ? ES_FIXED.locations : `${ES_FIXED.locations}/pagina/${n}`),
  },
};
