/**
 * The articles' feeds as a feed reader sees them: parsed (fast-xml-parser, JSON.parse), the full
 * article with links that work outside the site, ids that never change, dates in the author's time.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FEEDS } from '../../contracts/routes.js';
import type { FeedInput, FeedItem } from '../../contracts/feeds.js';
import { feedFiles } from '../../generator/write/feeds.js';

const ORIGIN = 'https://www.example-cleaning.com';
const DEEP = '/articles/how-long-does-a-deep-cleaning-take';
const MOVE = '/articles/move-out-checklist';

const body = [
  '<h2 id="kitchen">Kitchen</h2>',
  '<p>See <a href="#kitchen">the kitchen</a>, <a href="/checklist">our checklist</a>, <a href="https://epa.gov/x?a=1&amp;b=2">the EPA</a> and <a href="//cdn.example.net/x">a CDN</a>.</p>',
  '<p><img src="/images/oven.jpg" srcset="/images/oven-480.jpg 480w, /images/oven-800.jpg 800w,/images/oven,wide.jpg 1600w" alt="An oven"></p>',
  '<picture><source srcset="/images/a.avif, /images/a@2x.avif 2x"><img src="/images/a.jpg" alt=""></picture>',
  // Text that looks like an attribute: the renderer leaves `"` unescaped, and it must stay as written.
  '<p>Write <code>href="/x"</code> in a link.</p>',
].join('\n');

const item = (over: Partial<FeedItem> = {}): FeedItem => ({
  route: DEEP,
  title: 'How long does a deep cleaning take?',
  summary: 'Three to six hours for most homes.',
  html: body,
  published: '2026-11-20T18:30:00-08:00',
  author: { name: 'Maria Lopez', url: '/about' },
  tags: ['Deep cleaning', 'Kitchen'],
  image: { src: '/images/oven.jpg', type: 'image/jpeg' },
  ...over,
});

const input = (items: FeedItem[] = [item(), item({ route: MOVE, title: 'Move-out checklist', published: '2026-10-01T09:00:00-07:00', updated: '2026-11-25T08:15:00-08:00', image: undefined })]): FeedInput => ({
  origin: ORIGIN,
  title: 'Cleaning tips',
  description: 'Articles from our cleaners',
  home: '/articles',
  language: 'en-US',
  copyright: '© 2026 Example Cleaning',
  items,
});

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, isArray: (name) => ['item', 'entry', 'link', 'category'].includes(name) });
const files = (i: FeedInput) => Object.fromEntries(feedFiles(i).map((f) => [f.path, f]));
function parsed(i: FeedInput = input()) {
  const f = files(i);
  const rss = f[FEEDS.rss.path]!.body;
  const atom = f[FEEDS.atom.path]!.body;
  // Well-formed, or a reader shows nothing at all.
  expect(XMLValidator.validate(rss)).toBe(true);
  expect(XMLValidator.validate(atom)).toBe(true);
  return { rss: parser.parse(rss).rss, atom: parser.parse(atom).feed, json: JSON.parse(f[FEEDS.json.path]!.body) };
}

/** What the article's body must read like in a feed: every link and picture on the site's origin. */
function expectAbsolute(html: string, page: string) {
  expect(html).toContain(`<a href="${page}#kitchen">`);
  expect(html).toContain(`<a href="${ORIGIN}/checklist">`);
  expect(html).toContain('href="https://epa.gov/x?a=1&amp;b=2"');
  expect(html).toContain('href="//cdn.example.net/x"');
  expect(html).toContain(`src="${ORIGIN}/images/oven.jpg"`);
  expect(html).toContain(`srcset="${ORIGIN}/images/oven-480.jpg 480w, ${ORIGIN}/images/oven-800.jpg 800w,${ORIGIN}/images/oven,wide.jpg 1600w"`);
  expect(html).toContain(`srcset="${ORIGIN}/images/a.avif, ${ORIGIN}/images/a@2x.avif 2x"`);
  expect(html).toContain('<code>href="/x"</code>');
  expect(html.replace('<code>href="/x"</code>', '')).not.toMatch(/(?:href|src|srcset)="\/[^/]/);
}

afterEach(() => vi.useRealTimers());

describe('article feeds', () => {
  it('names the three files and media types of FEEDS', () => {
    expect(feedFiles(input()).map(({ path, type }) => ({ path, type }))).toEqual([FEEDS.rss, FEEDS.atom, FEEDS.json]);
  });

  it('RSS 2.0: the channel, its self link, and every article in full under its URL as a permanent guid', () => {
    const { rss } = parsed();
    expect(rss['@version']).toBe('2.0');
    const ch = rss.channel;
    expect(ch.title).toBe('Cleaning tips');
    expect(ch.link).toEqual([`${ORIGIN}/articles`]);
    expect(ch['atom:link']).toEqual({ '@href': `${ORIGIN}/articles/feed.xml`, '@rel': 'self', '@type': 'application/rss+xml' });
    expect(ch.item).toHaveLength(2);
    const [deep, move] = ch.item;
    expect(deep.guid).toEqual({ '#text': `${ORIGIN}${DEEP}`, '@isPermaLink': 'true' });
    expect(move.guid['#text']).toBe(`${ORIGIN}${MOVE}`);
    expect(deep.link).toEqual([`${ORIGIN}${DEEP}`]);
    expect(deep.description).toBe('Three to six hours for most homes.');
    expect(deep['dc:creator']).toBe('Maria Lopez');
    expect(deep.category).toEqual(['Deep cleaning', 'Kitchen']);
    expect(deep.enclosure).toEqual({ '@url': `${ORIGIN}/images/oven.jpg`, '@length': '0', '@type': 'image/jpeg' });
    expect(deep['content:encoded']).toContain('<p>Write <code>');
    expectAbsolute(deep['content:encoded'], `${ORIGIN}${DEEP}`);
    expectAbsolute(move['content:encoded'], `${ORIGIN}${MOVE}`);
  });

  it('Atom: id, self link, and entries with id, published, updated, summary and full HTML content', () => {
    const { atom } = parsed();
    expect(atom['@xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(atom.id).toBe(`${ORIGIN}/articles`);
    expect(atom.link).toContainEqual({ '@rel': 'self', '@type': 'application/atom+xml', '@href': `${ORIGIN}/articles/atom.xml` });
    expect(atom.link).toContainEqual({ '@rel': 'alternate', '@type': 'text/html', '@href': `${ORIGIN}/articles` });
    const [deep, move] = atom.entry;
    expect(deep.id).toBe(`${ORIGIN}${DEEP}`);
    expect(deep.link).toContainEqual({ '@rel': 'alternate', '@type': 'text/html', '@href': `${ORIGIN}${DEEP}` });
    // Never updated: updated is when it was published.
    expect([deep.published, deep.updated]).toEqual(['2026-11-20T18:30:00-08:00', '2026-11-20T18:30:00-08:00']);
    expect([move.published, move.updated]).toEqual(['2026-10-01T09:00:00-07:00', '2026-11-25T08:15:00-08:00']);
    expect(deep.author).toEqual({ name: 'Maria Lopez', uri: `${ORIGIN}/about` });
    expect(deep.summary).toBe('Three to six hours for most homes.');
    expect(deep.content['@type']).toBe('html');
    expectAbsolute(deep.content['#text'], `${ORIGIN}${DEEP}`);
  });

  it('JSON Feed 1.1: feed and home URLs, items with the full HTML, summary, dates and authors', () => {
    const { json } = parsed();
    expect(json).toMatchObject({ version: 'https://jsonfeed.org/version/1.1', title: 'Cleaning tips', home_page_url: `${ORIGIN}/articles`, feed_url: `${ORIGIN}/articles/feed.json`, language: 'en-US' });
    expect(json.items).toHaveLength(2);
    expect(json.items[0]).toMatchObject({
      id: `${ORIGIN}${DEEP}`,
      url: `${ORIGIN}${DEEP}`,
      summary: 'Three to six hours for most homes.',
      image: `${ORIGIN}/images/oven.jpg`,
      date_published: '2026-11-20T18:30:00-08:00',
      date_modified: '2026-11-20T18:30:00-08:00',
      authors: [{ name: 'Maria Lopez', url: `${ORIGIN}/about` }],
      tags: ['Deep cleaning', 'Kitchen'],
    });
    expectAbsolute(json.items[0].content_html, `${ORIGIN}${DEEP}`);
    expect(json.items[1].date_modified).toBe('2026-11-25T08:15:00-08:00');
  });

  it('dates a California evening in its own offset, and RSS in RFC 822 on the same day', () => {
    const { rss, atom, json } = parsed(input([item()]));
    // 18:30 in San Francisco is already Saturday in UTC: a reader must still show Friday evening.
    expect(rss.channel.item[0].pubDate).toBe('Fri, 20 Nov 2026 18:30:00 -0800');
    expect(atom.entry[0].published).toBe('2026-11-20T18:30:00-08:00');
    expect(json.items[0].date_published).toBe('2026-11-20T18:30:00-08:00');
    expect(new Date(rss.channel.item[0].pubDate).toISOString()).toBe('2026-11-21T02:30:00.000Z');
  });

  it('dates the feed by its latest change (an older article edited later), not by the build', () => {
    const { rss, atom } = parsed();
    expect(rss.channel.lastBuildDate).toBe('Wed, 25 Nov 2026 08:15:00 -0800');
    expect(atom.updated).toBe('2026-11-25T08:15:00-08:00');
  });

  it('gives the same bytes for the same content, whatever the clock says', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2027-01-01T00:00:00Z'));
    const first = feedFiles(input());
    vi.setSystemTime(new Date('2031-06-15T12:34:56Z'));
    expect(feedFiles(input())).toEqual(first);
    expect(feedFiles(input([]))).toEqual(feedFiles(input([])));
    expect(first.map((f) => f.body).join('')).not.toMatch(/2027|2031/);
  });

  it('shows a title with markup characters as written, in all three', () => {
    const hostile = `<script>&"'</script> & AT&amp;T`;
    const { rss, atom, json } = parsed(input([item({ title: hostile, summary: `Vinegar <and> soda & "more"` })]));
    expect(rss.channel.item[0].title).toBe(hostile);
    expect(atom.entry[0].title).toBe(hostile);
    expect(json.items[0].title).toBe(hostile);
    const raw = files(input([item({ title: hostile })]))[FEEDS.rss.path]!.body;
    expect(raw).toContain('<title>&lt;script&gt;&amp;&quot;&apos;&lt;/script&gt; &amp; AT&amp;amp;T</title>');
    // Atom and JSON summaries are text; RSS's description is HTML, so the text is escaped for HTML
    // inside the XML and renders as written rather than losing "<and>" as a tag.
    expect(atom.entry[0].summary).toBe(`Vinegar <and> soda & "more"`);
    expect(json.items[0].summary).toBe(`Vinegar <and> soda & "more"`);
    expect(rss.channel.item[0].description).toBe('Vinegar &lt;and&gt; soda &amp; &quot;more&quot;');
  });

  it('drops characters XML 1.0 forbids, from texts and the body alike', () => {
    const dirty = input([item({ title: 'Oven\u0000 tips\u0008', summary: 'Fast\u001b.', html: '<p>Grease\u000c off\ttoday</p>', tags: ['Ki\u0007tchen'] })]);
    for (const f of feedFiles(dirty)) expect(f.body).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    const { rss, atom, json } = parsed(dirty);
    expect(rss.channel.item[0].title).toBe('Oven tips');
    expect(atom.entry[0].content['#text']).toBe('<p>Grease off\ttoday</p>');
    expect(json.items[0].summary).toBe('Fast.');
    expect(json.items[0].tags).toEqual(['Kitchen']);
  });

  it('with no articles yet, still gives three valid, empty feeds', () => {
    const { rss, atom, json } = parsed(input([]));
    expect(rss.channel.title).toBe('Cleaning tips');
    expect(rss.channel.item).toBeUndefined();
    expect(atom.entry).toBeUndefined();
    expect(atom.updated).toBe('1970-01-01T00:00:00Z');
    expect(json.items).toEqual([]);
  });

  it('refuses a date without an offset or outside the calendar, naming the article', () => {
    expect(() => feedFiles(input([item({ published: '2026-11-20 18:30' })]))).toThrow(DEEP);
    expect(() => feedFiles(input([item({ published: '2026-11-20T18:30:00' })]))).toThrow(/offset/);
    expect(() => feedFiles(input([item({ updated: '2026-02-30T10:00:00-08:00' })]))).toThrow(DEEP);
  });
});
