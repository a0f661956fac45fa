/** Reading the built site in dist/ as files: its pages, their routes, and what a URL path serves (tools/builtSite.ts, which the content gate runs too). */
import { ADMIN_PAGE } from '../../cms/adminPage.js';
import { INBOX_PAGE } from '../../staff/inboxPage.js';
import { sitePages, type DistPage } from '../../tools/builtSite.js';

export { jsonLd, routeOf, servedFile, sitemapUrls, type DistPage } from '../../tools/builtSite.js';

/** The staff pages /admin and /leads: apps of their own, not pages of the site. */
export const STAFF_PAGES = [ADMIN_PAGE, INBOX_PAGE];

/** Every page of the site in dist/ (its .html files but the staff pages /admin and /leads), sorted, with its clean URL. */
export const distPages = (dist: string): Promise<DistPage[]> => sitePages(dist, STAFF_PAGES);
