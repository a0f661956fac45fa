/** robots.txt, the sitemap and the host config read by Netlify and Cloudflare Pages alike. */
import { createHash } from 'node:crypto';
import type { WrittenPage } from '../../contracts/pages.js';
import { SECURITY_HEADERS } from '../../contracts/securityHeaders.js';
import { BUILD_INFO_HEADERS } from './buildInfo.js';
import { OFFICE_HOURS_HEADERS } from './officeHours.js';
import { xmlText } from './xml.js';

/** A path pattern of _headers and the headers it sets. */
export type PathHeaders = [pattern: string, headers: Record<string, string>];

export interface HostConfig {
  origin: string;
  /** The texts of the inline scripts (the font loader): the policy allows each by its hash. */
  inlineScripts: string[];
  /** Origins the pages talk to, for the Content-Security-Policy. */
  reviewsScriptUrl: string;
  frameUrls: string[];
  connectUrls: string[];
  /** Rules of their own for some paths (the content manager's and the lead inbox's policies). */
  pathHeaders: readonly PathHeaders[];
}

/** The sitemap protocol's limit of URLs in one sitemap file (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

/**
 * The sitemap files, by name: sitemap.xml lists every indexed page; past SITEMAP_MAX_URLS pages
 * it becomes a sitemap index of sitemap-1.xml, sitemap-2.xml and on, each within the limit.
 * Written as text: the `sitemap` package's streams took 0.3 s for 13,000 pages, a tenth of a warm
 * build, to write five elements whose every value (our own absolute URLs, dates) is known here.
 */
export function sitemapFiles(pages: readonly WrittenPage[], origin: string): Map<string, string> {
  const indexed = pages.filter((p) => !p.noindex);
  if (indexed.length <= SITEMAP_MAX_URLS) return new Map([['sitemap.xml', urlset(indexed)]]);
  const files = new Map<string, string>();
  const parts: string[] = [];
  for (let i = 0; i * SITEMAP_MAX_URLS < indexed.length; i++) {
    const name = `sitemap-${i + 1}.xml`;
    files.set(name, urlset(indexed.slice(i * SITEMAP_MAX_URLS, (i + 1) * SITEMAP_MAX_URLS)));
    parts.push(`<sitemap><loc>${xmlUrl(`${origin}/${name}`)}</loc></sitemap>`);
  }
  files.set('sitemap.xml', `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">${parts.join('')}</sitemapindex>`);
  return files;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/**
 * One sitemap: each page's canonical URL; its lastmod only where the page knows when its content
 * changed (an entry's updated date: the build's time would say nothing); its versions in other
 * languages as its own <link rel="alternate"> lists them (xhtml:link).
 */
function urlset(pages: readonly WrittenPage[]): string {
  const out: string[] = [`${XML_DECLARATION}<urlset xmlns="${SITEMAP_NS}" xmlns:xhtml="http://www.w3.org/1999/xhtml">`];
  for (const page of pages) {
    let url = `<url><loc>${xmlUrl(page.canonical)}</loc>`;
    if (page.lastmod) url += `<lastmod>${new Date(page.lastmod).toISOString()}</lastmod>`;
    for (const a of page.alternates ?? []) url += `<xhtml:link rel="alternate" hreflang="${xmlText(a.hreflang)}" href="${xmlUrl(a.href)}"/>`;
    out.push(`${url}</url>`);
  }
  out.push('</urlset>');
  return out.join('');
}

/** Characters the URL parser leaves as they are (and no dot segment): our routes' URLs, which need no parse. */
const PLAIN_URL = /^(?!.*\/\.)[A-Za-z0-9\-._~:/?#@!$&()*+,;=%]*$/;
/** An absolute URL as the protocol wants it: percent-encoded, normalised (by the URL parser, for a URL not plain already), then XML-escaped. */
const xmlUrl = (url: string) => xmlText(PLAIN_URL.test(url) ? url : new URL(url).href);

export const robotsTxt = (origin: string) => `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`;

const originOf = (url: string) => new URL(url).origin;

/**
 * Exactly what the pages use (tests/browser/csp.test.ts visits every page and submits both forms
 * with this policy applied, and fails on any violation):
 * - scripts: our own bundle, the reviews widget's script and, by its hash, the one inline script
 *   (the font loader, which must run before the first paint); no other inline script runs;
 * - styles: our stylesheet; 'unsafe-inline' because the booking and login pages size their iframe
 *   with a style attribute (templates/pages/EmbedPage.tsx) and the reviews widget styles what it
 *   renders inline. Inline styles cannot run code;
 * - images: our own; data: and any https host only for the reviews widget, whose images
 *   (reviewers' photos, icons) come from hosts we do not control;
 * - fonts: only our self-hosted Inter;
 * - connections: our origin (the embedded backend of `npm start`), the Supabase project, the lead
 *   webhook and the reviews vendor's API;
 * - frames: the booking and login portal pages and the reviews widget's frames; our pages may not
 *   be framed by anyone (frame-ancestors 'none').
 */
function contentSecurityPolicy(cfg: HostConfig): string {
  const reviews = originOf(cfg.reviewsScriptUrl);
  const unique = (list: string[]) => [...new Set(list)].join(' ');
  const hashes = cfg.inlineScripts.map((text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`);
  return [
    "default-src 'self'",
    `script-src ${unique(["'self'", ...hashes, reviews])}`,
    `style-src 'self' 'unsafe-inline' ${reviews}`,
    `img-src 'self' data: https:`,
    "font-src 'self'",
    `connect-src ${unique(["'self'", ...cfg.connectUrls.map(originOf), reviews, 'https://*.elfsight.com'])}`,
    `frame-src ${unique([...cfg.frameUrls.map(originOf), 'https://*.elfsight.com'])}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
    'upgrade-insecure-requests',
  ].join('; ');
}

export function headersFile(cfg: HostConfig): string {
  return [
    '/*',
    `  Content-Security-Policy: ${contentSecurityPolicy(cfg)}`,
    ...Object.entries(SECURITY_HEADERS).map(([k, v]) => `  ${k}: ${v}`),
    '/assets/*',
    '  Cache-Control: public, max-age=31536000, immutable',
    // The content manager's and the lead inbox's own policies come after the site-wide rule so they
    // replace it where the host takes the last match.
    ...[BUILD_INFO_HEADERS, OFFICE_HOURS_HEADERS, ...cfg.pathHeaders].flatMap(([pattern, headers]) => [pattern, ...Object.entries(headers).map(([k, v]) => `  ${k}: ${v}`)]),
    '',
  ].join('\n');
}

/** Old-style .html and trailing-slash addresses lead to the clean URL; anything else gets 404.html. */
export function redirectsFile(pages: readonly WrittenPage[]): string {
  const lines: string[] = [];
  for (const page of pages) {
    if (page.route === '/' || page.route === '/404') continue;
    lines.push(`${page.route}.html ${page.route} 301`, `${page.route}/ ${page.route} 301`);
  }
  lines.push('/index.html / 301');
  return lines.join('\n') + '\n';
}
