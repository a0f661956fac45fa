/**
 * A collection's feeds (FEEDS): RSS 2.0, Atom 1.0 and JSON Feed 1.1, each entry in full, every URL
 * absolute, every id the entry's URL, every date the author's own. Pure: the same input gives the
 * same bytes, so a rebuild of unchanged content does not make readers think something changed.
 *
 * Written by hand, not with the `feed` package (v6), which cannot do all of it: it stamps
 * `new Date()` where no date is given and writes every date in UTC (toISOString/toUTCString), so the
 * author's -08:00 is lost; it marks Atom titles type="html" in CDATA, so a title "<b>" is markup to
 * the reader; its XML writer (xml-js) escapes only `"` in attributes (a `<` makes the feed
 * ill-formed), turns a literal "&amp;" in text into "&", splits only the first "]]>" of a CDATA
 * section and keeps control characters; its JSON Feed is version 1 (`author`, no `language`).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FeedInput, FeedItem } from '../../contracts/feeds.js';
import { FEEDS } from '../../contracts/routes.js';
import { xmlClean as clean, xmlText } from './xml.js';


export function feedFiles(input: FeedInput): { path: string; type: string; body: string }[] {
  const origin = input.origin.replace(/\/+$/, '');
  const items = input.items.map((item) => prepare(item, origin));
  // The feed changed when its newest change did: the latest updated-or-published of its items (an old
  // entry edited today counts), never the build's clock.
  const latest = items.reduce<Stamp | undefined>((a, i) => (!a || i.updated.ms > a.ms ? i.updated : a), undefined);
  const ctx = { ...input, origin, items, latest, homeUrl: origin + input.home };
  return [
    { ...FEEDS.rss, body: rss(ctx) },
    { ...FEEDS.atom, body: atom(ctx) },
    { ...FEEDS.json, body: json(ctx) },
  ];
}

type Stamp = { iso: string; rfc822: string; ms: number };
type Prepared = ReturnType<typeof prepare>;
type Ctx = Omit<FeedInput, 'items'> & { items: Prepared[]; latest: Stamp | undefined; homeUrl: string };

function prepare(item: FeedItem, origin: string) {
  const url = origin + item.route;
  const published = stamp(item.published, item.route);
  return {
    url,
    title: clean(item.title),
    summary: clean(item.summary),
    html: absoluteHtml(clean(item.html), origin, url),
    published,
    updated: item.updated ? stamp(item.updated, item.route) : published,
    author: { name: clean(item.author.name), url: absolute(item.author.url, origin, url) },
    tags: item.tags.map(clean),
    image: item.image && { url: absolute(item.image.src, origin, url), type: item.image.type },
  };
}

function rss(c: Ctx): string {
  const self = c.origin + FEEDS.rss.path;
  return xml([
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '  <channel>',
    `    <title>${esc(c.title)}</title>`,
    `    <link>${esc(c.homeUrl)}</link>`,
    `    <description>${esc(c.description)}</description>`,
    `    <language>${esc(c.language)}</language>`,
    `    <copyright>${esc(c.copyright)}</copyright>`,
    // Optional in RSS, and there is no honest date for an empty feed.
    ...(c.latest ? [`    <lastBuildDate>${c.latest.rfc822}</lastBuildDate>`] : []),
    `    <atom:link href="${esc(self)}" rel="self" type="${FEEDS.rss.type}"/>`,
    ...c.items.flatMap((i) => [
      '    <item>',
      `      <title>${esc(i.title)}</title>`,
      `      <link>${esc(i.url)}</link>`,
      `      <guid isPermaLink="true">${esc(i.url)}</guid>`,
      `      <pubDate>${i.published.rfc822}</pubDate>`,
      // RSS's <author> must be an e-mail address; dc:creator is the name readers show.
      `      <dc:creator>${esc(i.author.name)}</dc:creator>`,
      ...i.tags.map((t) => `      <category>${esc(t)}</category>`),
      // RSS readers render <description> as HTML: the plain-text summary is escaped for HTML first,
      // so "Vinegar <and> soda" shows as written instead of losing "<and>" as an unknown tag.
      `      <description>${esc(esc(i.summary))}</description>`,
      `      <content:encoded>${esc(i.html)}</content:encoded>`,
      // RSS requires a length; the picture's size in bytes is not known here, 0 is the usual "unknown".
      ...(i.image ? [`      <enclosure url="${esc(i.image.url)}" length="0" type="${esc(i.image.type)}"/>`] : []),
      '    </item>',
    ]),
    '  </channel>',
    '</rss>',
  ]);
}

function atom(c: Ctx): string {
  return xml([
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${esc(c.language)}">`,
    `  <id>${esc(c.homeUrl)}</id>`,
    `  <title>${esc(c.title)}</title>`,
    `  <subtitle>${esc(c.description)}</subtitle>`,
    `  <link rel="alternate" type="text/html" href="${esc(c.homeUrl)}"/>`,
    `  <link rel="self" type="${FEEDS.atom.type}" href="${esc(c.origin + FEEDS.atom.path)}"/>`,
    `  <rights>${esc(c.copyright)}</rights>`,
    // <updated> is required; with no entries there is no date but a fixed one (the epoch) keeps the bytes stable.
    `  <updated>${c.latest?.iso ?? '1970-01-01T00:00:00Z'}</updated>`,
    ...c.items.flatMap((i) => [
      '  <entry>',
      `    <id>${esc(i.url)}</id>`,
      `    <title>${esc(i.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${esc(i.url)}"/>`,
      `    <published>${i.published.iso}</published>`,
      `    <updated>${i.updated.iso}</updated>`,
      `    <author><name>${esc(i.author.name)}</name><uri>${esc(i.author.url)}</uri></author>`,
      ...i.tags.map((t) => `    <category term="${esc(t)}"/>`),
      ...(i.image ? [`    <link rel="enclosure" type="${esc(i.image.type)}" href="${esc(i.image.url)}"/>`] : []),
      `    <summary>${esc(i.summary)}</summary>`,
      `    <content type="html">${esc(i.html)}</content>`,
      '  </entry>',
    ]),
    '</feed>',
  ]);
}

function json(c: Ctx): string {
  const feed = {
    version: 'https://jsonfeed.org/version/1.1',
    title: clean(c.title),
    home_page_url: c.homeUrl,
    feed_url: c.origin + FEEDS.json.path,
    description: clean(c.description),
    language: c.language,
    items: c.items.map((i) => ({
      id: i.url,
      url: i.url,
      title: i.title,
      summary: i.summary,
      content_html: i.html,
      ...(i.image ? { image: i.image.url } : {}),
      date_published: i.published.iso,
      date_modified: i.updated.iso,
      authors: [i.author],
      tags: i.tags,
    })),
  };
  return `${JSON.stringify(feed, null, 2)}\n`;
}

const xml = (lines: string[]) => `<?xml version="1.0" encoding="utf-8"?>\n${lines.join('\n')}\n`;

/** Text and attribute values alike; escaping the HTML bodies (no CDATA) spares any "]]>" question. */
const esc = xmlText;

/** What makes a URL absolute: root-relative (/x, not the protocol-relative //x) → the origin; a fragment → the entry's page. */
const prefix = (url: string, origin: string, page: string) =>
  url.startsWith('/') && !url.startsWith('//') ? origin : url.startsWith('#') ? page : '';
const absolute = (url: string, origin: string, page: string) => prefix(url, origin, page) + url;

// A start tag and its attributes, as HTML writes them. Rewriting only inside start tags matters: the
// Markdown renderer leaves `"` unescaped in text, so a paragraph or code sample saying href="/x" is
// text and stays as written.
const START_TAG = /<[a-zA-Z][^\s/>]*(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/g;
const ATTRIBUTE = /(\s+)([^\s"'>/=]+)(?:(\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function absoluteHtml(html: string, origin: string, page: string): string {
  // The values are HTML-escaped already; only the prefix needs escaping.
  const abs = (url: string) => esc(prefix(url, origin, page)) + url;
  return html.replace(START_TAG, (tag) =>
    tag.replace(ATTRIBUTE, (whole, space: string, name: string, eq?: string, dq?: string, sq?: string, bare?: string) => {
      const value = dq ?? sq ?? bare;
      const lower = name.toLowerCase();
      if (value === undefined || (lower !== 'href' && lower !== 'src' && lower !== 'srcset')) return whole;
      const quote = dq !== undefined ? '"' : sq !== undefined ? "'" : '';
      return `${space}${name}${eq}${quote}${lower === 'srcset' ? absoluteSrcset(value, abs) : abs(value)}${quote}`;
    }),
  );
}

/**
 * Each URL of a srcset, parsed as browsers do (WHATWG "parse a srcset attribute"): a candidate's URL
 * runs to whitespace, trailing commas end it, else its descriptors run to the next comma; so
 * "/a.jpg, /b.jpg 2x" is two URLs and "/a,b.jpg 1x" one.
 */
function absoluteSrcset(srcset: string, abs: (url: string) => string): string {
  const candidate = /([\s,]*)(\S*?)(,*)(?=\s|$)/y;
  const descriptors = /[^,]*/y;
  let out = '';
  let at = 0;
  while (at < srcset.length) {
    candidate.lastIndex = at;
    const [whole, lead, url, commas] = candidate.exec(srcset)!; // matches at every position: all parts may be empty
    out += lead! + (url ? abs(url) : '') + commas!;
    at += whole.length;
    if (!commas) {
      descriptors.lastIndex = at;
      const [d] = descriptors.exec(srcset)!;
      out += d;
      at += d.length;
    }
  }
  return out;
}

/** An ISO 8601 date-time with offset, kept in the author's offset: RFC 3339 for Atom and JSON, RFC 822 for RSS. */
function stamp(value: string, route: string): Stamp {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.exec(value.trim());
  const [, y, mo, d, h, mi, s = '00', frac = '', off] = (m ?? []) as string[];
  const date = new Date(Date.UTC(+y!, +mo! - 1, +d!));
  const ms = Date.parse(value.trim());
  // Date.parse takes February 30 as March 2; the calendar date must come back as written.
  if (!m || Number.isNaN(ms) || date.getUTCDate() !== +d! || date.getUTCMonth() !== +mo! - 1) {
    throw new Error(`${route}: the date "${value}" is not an ISO 8601 date and time with an offset, like 2026-11-20T18:30:00-08:00`);
  }
  const day = date.getUTCDay();
  return {
    iso: `${y}-${mo}-${d}T${h}:${mi}:${s}${frac}${off}`,
    rfc822: `${DAYS[day]}, ${d} ${MONTHS[+mo! - 1]} ${y} ${h}:${mi}:${s} ${off === 'Z' ? '+0000' : off!.replace(':', '')}`,
    ms,
  };
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Every feed file's path: pages link to them, so the link check knows them. */
export const FEED_PATHS: readonly string[] = Object.values(FEEDS).map((f) => f.path);

/** Their media types in _headers: a host would serve feed.xml as application/xml and feed.json as application/json. */
export const FEED_HEADERS: [string, Record<string, string>][] = Object.values(FEEDS).map((f) => [f.path, { 'Content-Type': `${f.type}; charset=utf-8` }]);

/** The feeds planned with the pages, each in every format, into outDir. */
export async function writeFeeds(outDir: string, feeds: readonly FeedInput[]): Promise<void> {
  for (const feed of feeds) {
    for (const file of feedFiles(feed)) {
      await writeFile(path.join(outDir, file.path.slice(1)), file.body);
    }
  }
}
