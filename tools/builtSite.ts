/**
 * Checks of a built site in dist/, read as files, that content alone can break: HTML validity, one
 * business node in the JSON-LD, canonical URLs and the sitemap, each page's JavaScript within
 * budget, and the pictures it names. One source for the content gate (`npm run content-gate`) and
 * the test suite (tests/browser/*), so both refuse the same pages with the same messages. Each
 * check answers a list of problems, one line each, empty when the site passes.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { checkJsonLd, isSubtype, loadVocabulary, type Vocabulary } from './schemaOrg.js';

export interface DistPage {
  /** Path inside dist/, with forward slashes: `locations/deep-cleaning-san-jose-ca.html`. */
  file: string;
  /** The clean URL the hosts serve it at: `/locations/deep-cleaning-san-jose-ca`. */
  route: string;
}

/** How a check gets a page's HTML: from the file by default; checkBuiltSite reads each page once for all. */
export type PageReader = (page: DistPage) => Promise<string>;
const fromFile = (dist: string): PageReader => (page) => readFile(path.join(dist, page.file), 'utf8');

export const routeOf = (file: string) => (file === 'index.html' ? '/' : `/${file.replace(/\.html$/, '')}`);

/** Every page of the site in dist/ (its .html files but `exclude`, names at the top of dist/), sorted, with its clean URL. */
export async function sitePages(dist: string, exclude: readonly string[]): Promise<DistPage[]> {
  const entries = await readdir(dist, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.html') && !(exclude.includes(e.name) && e.parentPath === dist))
    .map((e) => path.relative(dist, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort()
    .map((file) => ({ file, route: routeOf(file) }));
}

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
export const sitemapUrls = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
const tags = (html: string, name: string) => [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, 'g'))].map((m) => m[0]);
const unescape = (s: string) => s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');

/** What the checks read of a page, from its HTML as the build writes it (React's server output). */
export interface PageHead {
  route: string;
  robots: string | null;
  canonicals: string[];
  /** The JSON-LD blocks, as text. */
  jsonLd: string[];
}

export function pageHead(route: string, html: string): PageHead {
  return {
    route,
    robots: tags(html, 'meta').filter((t) => attr(t, 'name') === 'robots').map((t) => attr(t, 'content') ?? '')[0] ?? null,
    canonicals: tags(html, 'link').filter((t) => attr(t, 'rel') === 'canonical').map((t) => unescape(attr(t, 'href') ?? '')),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]!),
  };
}

export const isIndexable = (p: { robots: string | null }) => !/noindex/i.test(p.robots ?? '');

// ── HTML validity ────────────────────────────────────────────────────────────────────────────

const require = createRequire(import.meta.url);

interface VnuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: 'warning' | 'fatal' | 'io' | 'schema' | 'internal';
  url?: string;
  message: string;
  extract?: string;
  firstLine?: number;
  lastLine?: number;
  firstColumn?: number;
  lastColumn?: number;
}

function runVnu(files: string[]): Promise<VnuMessage[]> {
  const jar = String(require('vnu-jar')); // vnu-jar's main export is the path of vnu.jar
  const java = process.env.JAVA ?? (process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin/java') : 'java');
  return new Promise((resolve, reject) => {
    // One run of seconds: the JVM's quick compiler alone (C1) checks the site in a third of the
    // time and CPU, given the deeper thread stack the HTML schema's recursion then needs (with too
    // small a stack vnu reports no JSON, which fails below); language detection only ever warns.
    const args = ['-Xss32m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-jar', jar, '--format', 'json', '--no-langdetect', ...files];
    // vnu exits 1 when it found errors; the JSON report (on stderr) is what counts.
    execFile(java, args, { maxBuffer: 1 << 28 }, (err, _stdout, stderr) => {
      try {
        resolve((JSON.parse(stderr) as { messages: VnuMessage[] }).messages);
      } catch {
        reject(new Error(`vnu.jar did not report (is Java 11+ installed? ${java}): ${err?.message ?? ''}\n${stderr.slice(0, 2000)}`));
      }
    });
  });
}

/**
 * Every page valid HTML by the W3C Nu HTML Checker (vnu.jar from npm `vnu-jar`, with the machine's
 * Java; one run for all pages, the JVM start is most of the time).
 */
export async function htmlProblems(dist: string, pages: readonly DistPage[]): Promise<string[]> {
  const messages = await runVnu(pages.map((p) => path.join(dist, p.file)));
  const fileOf = (url = '') => path.relative(dist, url.replace(/^file:/, '')) || url;
  return messages
    .filter((m) => m.type === 'error' || m.type === 'non-document-error' || m.subType === 'fatal')
    .map((m) => {
      const where = `${fileOf(m.url)}:${m.lastLine ?? m.firstLine ?? '?'}:${m.firstColumn ?? m.lastColumn ?? '?'}`;
      return `${where} ${m.message}${m.extract ? `\n    …${m.extract.replace(/\s+/g, ' ').trim()}…` : ''}`;
    });
}

// ── Structured data ──────────────────────────────────────────────────────────────────────────

type JsonNode = Record<string, unknown>;
const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const typesOf = (n: JsonNode) => asArray(n['@type'] as string | string[] | undefined);

/** The nodes of a page's JSON-LD blocks (a block's @graph, or the block itself), and the blocks that do not parse. */
export function jsonLdNodes(page: Pick<PageHead, 'route' | 'jsonLd'>): { docs: unknown[]; nodes: JsonNode[]; errors: string[] } {
  const errors: string[] = [];
  const docs: unknown[] = [];
  page.jsonLd.forEach((text, i) => {
    try {
      docs.push(JSON.parse(text));
    } catch (err) {
      errors.push(`${page.route}: JSON-LD block ${i + 1} does not parse: ${(err as Error).message}`);
    }
  });
  const nodes = docs.flatMap((d) => asArray((d as JsonNode)['@graph'] as JsonNode[] | undefined ?? [d as JsonNode]));
  return { docs, nodes, errors };
}

export const isBusiness = (vocab: Vocabulary, n: JsonNode) => typesOf(n).some((t) => isSubtype(vocab, t, 'LocalBusiness'));

/**
 * Every block parses and uses schema.org as it is; every indexable page describes the business in
 * exactly one node, with name, description, url, telephone, address (CA, locality) and areaServed,
 * and it is the same node, to the last field, on every page (search engines merge nodes by @id).
 */
export function structuredDataProblems(vocab: Vocabulary, pages: readonly Pick<PageHead, 'route' | 'robots' | 'jsonLd'>[], origin: string): string[] {
  const problems: string[] = [];
  let first: { route: string; json: string } | undefined;
  for (const page of pages) {
    const { docs, nodes, errors } = jsonLdNodes(page);
    problems.push(...errors, ...docs.flatMap((d) => checkJsonLd(vocab, d).map((msg) => `${page.route} ${msg}`)));
    if (!isIndexable(page)) continue;
    if (docs.length === 0) problems.push(`${page.route}: no JSON-LD on an indexable page`);
    const businesses = nodes.filter((n) => isBusiness(vocab, n));
    if (businesses.length !== 1) {
      problems.push(`${page.route}: ${businesses.length} LocalBusiness nodes, expected 1`);
      continue;
    }
    const b = businesses[0]!;
    for (const key of ['name', 'description', 'url', 'telephone']) if (typeof b[key] !== 'string' || !(b[key] as string).trim()) problems.push(`${page.route}: business.${key} missing`);
    if (b.url !== `${origin}/`) problems.push(`${page.route}: business.url is ${String(b.url)}, expected ${origin}/`);
    if (!/^\+1\d{10}$/.test(String(b.telephone))) problems.push(`${page.route}: business.telephone ${String(b.telephone)} is not +1 and 10 digits`);
    const address = b.address as JsonNode | undefined;
    if (address?.addressRegion !== 'CA') problems.push(`${page.route}: business.address.addressRegion is ${String(address?.addressRegion)}, expected CA`);
    if (typeof address?.addressLocality !== 'string' || !address.addressLocality) problems.push(`${page.route}: business.address.addressLocality missing`);
    const served = asArray(b.areaServed as JsonNode | JsonNode[] | undefined);
    if (!served.length || served.some((c) => typeof c.name !== 'string' || !c.name)) problems.push(`${page.route}: business.areaServed missing or without names`);
    const json = JSON.stringify(b);
    first ??= { route: page.route, json };
    if (json !== first.json) problems.push(`${page.route}: the business node differs from the one on ${first.route}`);
  }
  return problems;
}

// ── Canonical URLs, sitemap, robots.txt ──────────────────────────────────────────────────────

/**
 * Each indexable page has one canonical URL, its own clean address on the site's origin; the
 * sitemap lists exactly those, once each, and no page marked noindex; robots.txt names the sitemap
 * by its absolute URL.
 */
export function canonicalProblems(pages: readonly Pick<PageHead, 'route' | 'robots' | 'canonicals'>[], sitemapXml: string, robotsTxt: string, origin: string): string[] {
  const problems: string[] = [];
  const indexable = pages.filter(isIndexable);
  for (const p of indexable) {
    if (p.canonicals.length !== 1) problems.push(`${p.route}: ${p.canonicals.length} canonical links, expected 1`);
    else if (p.canonicals[0] !== origin + p.route) problems.push(`${p.route}: canonical URL ${p.canonicals[0]}, expected ${origin + p.route}`);
  }
  const listed = sitemapUrls(sitemapXml);
  const expected = new Set(indexable.map((p) => origin + p.route));
  for (const url of new Set(listed.filter((u, i) => listed.indexOf(u) !== i))) problems.push(`sitemap.xml lists ${url} more than once`);
  for (const url of new Set(listed)) if (!expected.has(url)) problems.push(`sitemap.xml lists ${url}, which is no indexable page`);
  for (const url of expected) if (!listed.includes(url)) problems.push(`sitemap.xml does not list ${url}`);
  const named = [...robotsTxt.matchAll(/^Sitemap: (\S+)$/gm)].map((m) => m[1]);
  if (named.length !== 1 || named[0] !== `${origin}/sitemap.xml`) problems.push(`robots.txt names the sitemap ${named.join(', ') || 'nowhere'}, expected ${origin}/sitemap.xml`);
  return problems;
}

// ── JavaScript ───────────────────────────────────────────────────────────────────────────────

/**
 * The JavaScript a page loads before anyone touches it (its module scripts and what they import
 * statically), compressed as the hosts send it. Islands load later, each its own chunk, and are
 * not counted: the budget is what every visitor pays. notes/decisions.md says why this number.
 */
export const PAGE_JS_BUDGET = 16 * 1024;

/** A module's static imports (`import … from "./x.js"`, `import "./x.js"`, `export … from`), as Vite writes them. */
const staticImports = (code: string) =>
  [...code.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w${},*\s]*?\s*from\s*)?["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]!);

/** Each page's scripts exist, and what it loads at first (gzip) stays within PAGE_JS_BUDGET. */
export async function scriptProblems(dist: string, pages: readonly DistPage[], budget = PAGE_JS_BUDGET, pageHtml: PageReader = fromFile(dist)): Promise<string[]> {
  const problems: string[] = [];
  const sizes = new Map<string, { gzip: number; imports: string[] } | undefined>();
  const load = async (pathname: string) => {
    if (!sizes.has(pathname)) {
      const file = servedFile(dist, pathname);
      if (!file) sizes.set(pathname, undefined);
      else {
        const code = await readFile(path.join(dist, file));
        const imports = staticImports(code.toString('utf8')).map((s) => new URL(s, `http://x${pathname}`).pathname);
        sizes.set(pathname, { gzip: gzipSync(code, { level: 9 }).length, imports });
      }
    }
    return sizes.get(pathname);
  };
  for (const page of pages) {
    const html = await pageHtml(page);
    const entries = [
      ...tags(html, 'script').filter((t) => attr(t, 'src')).map((t) => attr(t, 'src')!),
      ...tags(html, 'link').filter((t) => attr(t, 'rel') === 'modulepreload').map((t) => attr(t, 'href')!),
    ].filter((src) => src.startsWith('/') && !src.startsWith('//'));
    const seen = new Set<string>();
    let total = 0;
    const queue = [...entries];
    while (queue.length) {
      const pathname = queue.shift()!;
      if (seen.has(pathname)) continue;
      seen.add(pathname);
      const js = await load(pathname);
      if (!js) {
        problems.push(`${page.route}: script ${pathname} does not exist`);
        continue;
      }
      total += js.gzip;
      queue.push(...js.imports);
    }
    // Inline scripts count too (the JSON-LD is data, not code).
    for (const m of html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)) total += gzipSync(m[1]!, { level: 9 }).length;
    if (total > budget) problems.push(`${page.route}: loads ${(total / 1024).toFixed(1)} KiB of JavaScript (gzip) at first, over the budget of ${budget / 1024} KiB`);
  }
  return problems;
}

// ── Pictures ─────────────────────────────────────────────────────────────────────────────────

/**
 * Every picture a page names (img src and srcset, source srcset, an image preload, og:image) is a
 * file of the site; every <img> has alt text (empty for decoration), a width and a height.
 */
export async function pictureProblems(dist: string, pages: readonly DistPage[], origin: string, pageHtml: PageReader = fromFile(dist)): Promise<string[]> {
  const problems: string[] = [];
  for (const page of pages) {
    const html = await pageHtml(page);
    const named: { where: string; url: string }[] = [];
    const srcset = (tag: string, where: string) => (attr(tag, 'srcset') ?? attr(tag, 'srcSet') ?? '').split(',').map((c) => c.trim().split(/\s+/)[0] ?? '').filter(Boolean).map((url) => ({ where, url }));
    for (const img of tags(html, 'img')) {
      if (attr(img, 'src') !== undefined) named.push({ where: 'img src', url: attr(img, 'src')! });
      named.push(...srcset(img, 'img srcset'));
      const missing = ['alt', 'width', 'height'].filter((a) => attr(img, a) === undefined);
      if (missing.length) problems.push(`${page.route}: <img src="${attr(img, 'src')?.slice(0, 80) ?? ''}"> has no ${missing.join(', ')}`);
    }
    for (const source of tags(html, 'source')) named.push(...srcset(source, 'source srcset'));
    for (const link of tags(html, 'link')) if (attr(link, 'rel') === 'preload' && attr(link, 'as') === 'image') named.push({ where: 'image preload', url: attr(link, 'href') ?? '' });
    for (const meta of tags(html, 'meta')) if (attr(meta, 'property') === 'og:image') named.push({ where: 'og:image', url: attr(meta, 'content') ?? '' });
    for (const { where, url } of named) {
      if (/^data:image\//.test(url)) continue;
      let parsed: URL;
      try {
        parsed = new URL(unescape(url), origin + page.route);
      } catch {
        problems.push(`${page.route}: ${where} "${url}" is not a URL`);
        continue;
      }
      if (parsed.origin !== origin) continue; // another host's picture: the CSP test covers which hosts
      if (!servedFile(dist, decodeURIComponent(parsed.pathname))) problems.push(`${page.route}: ${where} ${parsed.pathname} does not exist`);
    }
  }
  return problems;
}

// ── All of them ──────────────────────────────────────────────────────────────────────────────

export interface CheckResult { name: string; ms: number; problems: string[] }

/** The checks of the built pages, one after the other, each timed: what the content gate runs after the build. */
export async function checkBuiltSite(dist: string, opts: { origin: string; exclude: readonly string[] }): Promise<CheckResult[]> {
  const origin = opts.origin.replace(/\/+$/, '');
  const pages = await sitePages(dist, opts.exclude);
  const html = new Map(await Promise.all(pages.map(async (p) => [p.file, await fromFile(dist)(p)] as const)));
  const pageHtml: PageReader = async (page) => html.get(page.file) ?? fromFile(dist)(page);
  const heads = pages.map((p) => pageHead(p.route, html.get(p.file)!));
  const read = (file: string) => readFile(path.join(dist, file), 'utf8').catch(() => '');
  const checks: [string, () => Promise<string[]> | string[]][] = [
    ['HTML validity', () => htmlProblems(dist, pages)],
    ['structured data', () => structuredDataProblems(loadVocabulary(), heads, origin)],
    ['canonical URLs and sitemap', async () => canonicalProblems(heads, await read('sitemap.xml'), await read('robots.txt'), origin)],
    ['JavaScript budget', () => scriptProblems(dist, pages, PAGE_JS_BUDGET, pageHtml)],
    ['pictures', () => pictureProblems(dist, pages, origin, pageHtml)],
  ];
  const results: CheckResult[] = [];
  for (const [name, run] of checks) {
    const start = performance.now();
    results.push({ name, problems: await run(), ms: performance.now() - start });
  }
  return results;
}
