/** robots.txt, the sitemap and the host config read by Netlify and Cloudflare Pages alike. */
import { createHash } from 'node:crypto';
import { SitemapIndexStream, SitemapStream, streamToPromise } from 'sitemap';
import type { WrittenPage } from '../../contracts/pages.js';
import { SECURITY_HEADERS } from '../../contracts/securityHeaders.js';
import { BUILD_INFO_HEADERS } from './buildInfo.js';
import { OFFICE_HOURS_HEADERS } from './officeHours.js';

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
 */
export async function sitemapFiles(pages: readonly WrittenPage[], origin: string): Promise<Map<string, string>> {
  // lastmod only where a page knows when its content changed (an entry's updated date): the build's time would say nothing.
  // A page's versions in other languages, as its own <link rel="alternate"> lists them (xhtml:link).
  const urls = pages.filter((p) => !p.noindex).map((p) => ({
    url: p.canonical, ...(p.lastmod && { lastmod: p.lastmod }),
    ...(p.alternates && { links: p.alternates.map((a) => ({ lang: a.hreflang, url: a.href })) }),
  }));
  const urlset = async (part: readonly { url: string; lastmod?: string; links?: { lang: string; url: string }[] }[]) => {
    const stream = new SitemapStream({ hostname: origin });
    for (const url of part) stream.write(url);
    stream.end();
    return (await streamToPromise(stream)).toString();
  };
  if (urls.length <= SITEMAP_MAX_URLS) return new Map([['sitemap.xml', await urlset(urls)]]);
  const files = new Map<string, string>();
  const index = new SitemapIndexStream();
  for (let i = 0; i * SITEMAP_MAX_URLS < urls.length; i++) {
    const name = `sitemap-${i + 1}.xml`;
    files.set(name, await urlset(urls.slice(i * SITEMAP_MAX_URLS, (i + 1) * SITEMAP_MAX_URLS)));
    index.write({ url: `${origin}/${name}` });
  }
  index.end();
  files.set('sitemap.xml', (await streamToPromise(index)).toString());
  return files;
}

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
