/**
 * Every address of the site in one table: the fixed pages by name, and how entries of a content
 * folder get theirs. The plan, the model's collision rule and the templates all read it from here.
 */
export const ROUTES = {
  home: '/',
  services: '/services',
  locations: '/locations',
  checklist: '/checklist',
  contact: '/contact',
  customerLogin: '/customer-login',
  bookOnline: '/book-online',
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
