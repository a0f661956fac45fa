/** Reading the built site in dist/ as files: its pages, their routes, and what a URL path serves. */
import { existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN_PAGE } from '../../cms/adminPage.js';
import { INBOX_PAGE } from '../../staff/inboxPage.js';

export interface DistPage {
  /** Path inside dist/, with forward slashes: `locations/deep-cleaning-san-jose-ca.html`. */
  file: string;
  /** The clean URL the hosts serve it at: `/locations/deep-cleaning-san-jose-ca`. */
  route: string;
}

/** Every page of the site in dist/ (its .html files but the staff pages /admin and /leads), sorted, with its clean URL. */
export async function distPages(dist: string): Promise<DistPage[]> {
  const entries = await readdir(dist, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.html') && !([ADMIN_PAGE, INBOX_PAGE].includes(e.name) && e.parentPath === dist))
    .map((e) => path.relative(dist, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort()
    .map((file) => ({ file, route: routeOf(file) }));
}

export const routeOf = (file: string) => (file === 'index.html' ? '/' : `/${file.replace(/\.html$/, '')}`);

/**
 * The file a host serves for a URL path, as Netlify and Cloudflare Pages do with clean URLs
 * (serve/server.ts does the same locally), or undefined when it would be a 404.
 * Files whose names start with `_` (_headers, _redirects) are never served.
 */
export function servedFile(dist: string, pathname: string): string | undefined {
  if (pathname === '/') return 'index.html';
  const rel = pathname.slice(1);
  for (const candidate of [rel, `${rel}.html`]) {
    const full = path.join(dist, candidate);
    if (!full.startsWith(dist + path.sep) || path.basename(full).startsWith('_')) continue;
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return undefined;
}

/** The JSON-LD block of a built page's HTML, parsed. */
export function jsonLd(html: string): { '@graph': Record<string, any>[] } {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  if (!match) throw new Error('no JSON-LD on the page');
  return JSON.parse(match[1]!);
}

/** The <loc> URLs of a sitemap.xml. */
export const sitemapUrls = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
