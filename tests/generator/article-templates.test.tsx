/**
 * The article page and the article lists (/articles, a tag's pages) as a reader meets them, drawn
 * through the real renderPage from hand-written plans: one h1, machine-readable dates with their
 * offset, tags and contents that lead somewhere, related articles only when there are some, the
 * call to action, the numbered pages, the feeds in <head>, and no script on an article but the
 * JSON-LD and what the layout puts on every page.
 */
import { describe, expect, it } from 'vitest';
import type { ArticleCardView, ImageRef, Layout, PageBody, PagePlan } from '../../contracts/pages.js';
import { articleRoute, articlesPageRoute, FEEDS, tagRoute } from '../../contracts/routes.js';
import { renderPage } from '../../generator/render/renderPage.js';

// No test exports a Layout to reuse (page-template.test.ts plans one from the content): this one
// is the least the header and footer draw, with the feeds the head must link to.
const link = (label: string, href: string) => ({ label, href });
const layout: Layout = {
  language: { htmlLang: 'en-US', ogLocale: 'en_US', ogAlternates: [] },
  home: '/',
  routes: { home: '/', services: '/services', locations: '/locations', checklist: '/checklist', contact: '/contact', customerLogin: '/customer-login', bookOnline: '/book-online', notFound: '/404' },
  brand: 'Bay Shine Cleaning',
  tagline: 'Spotless homes across the Bay Area',
  phone: { display: '(408) 555-0186', href: 'tel:+14085550186' },
  email: 'hello@example.com',
  locality: 'San Jose, CA',
  hours: 'Mon-Sat 9AM-6PM',
  navigation: {
    skipLink: 'Skip to content', homeLabel: 'Home', menuLabel: 'Menu', closeLabel: 'Close',
    primary: [link('Services', '/services'), link('Articles', '/articles'), link('Contact', '/contact')],
    bookOnline: link('Book Online', '/book-online'), callLabel: 'Call us',
    mainNavLabel: 'Main', drawerNavLabel: 'Menu', breadcrumbLabel: 'Breadcrumb',
  },
  footer: {
    about: 'A cleaning company.', quickLinksHeading: 'Quick links', quickLinks: [link('Contact', '/contact')],
    servicesHeading: 'Services', contactHeading: 'Contact', copyright: '© {year} {brand}', legal: [link('Privacy', '/privacy-policy')],
    copyrightText: '© 2026 Bay Shine Cleaning',
  },
  services: [{ name: 'Deep Cleaning', href: '/deep-cleaning' }],
  feeds: [
    { type: FEEDS.rss.type, href: FEEDS.rss.path, title: 'Cleaning Tips (RSS)' },
    { type: FEEDS.atom.type, href: FEEDS.atom.path, title: 'Cleaning Tips (Atom)' },
    { type: FEEDS.json.type, href: FEEDS.json.path, title: 'Cleaning Tips (JSON Feed)' },
  ],
  assets: {
    css: '/assets/site.css', entry: '/assets/entry.js',
    font: { family: 'Inter Variable', src: '/assets/inter.woff2', weight: '400 800', faceCss: '', loader: 'void 0' },
  },
};

const ORIGIN = 'https://www.example.com';
const photo: ImageRef = { src: '/assets/img/kitchen-800.webp', avifSrcSet: '/assets/img/kitchen-800.avif 800w', webpSrcSet: '/assets/img/kitchen-800.webp 800w', width: 1600, height: 900 };

const card = (slug: string, title: string, extra: Partial<ArticleCardView> = {}): ArticleCardView => ({
  title, href: articleRoute(slug), description: `What to know about ${title.toLowerCase()}, from our team.`,
  date: { iso: '2026-08-01T09:00:00-07:00', text: 'August 1, 2026' }, readingTime: '5 min read', ...extra,
});

/** A body as contracts/articleMarkdown.ts writes one: ids on the h2 and h3, each table in its scrolling box, a picture alone as a figure. */
const BODY = [
  '<p>The short answer is that <strong>most deep cleanings take 4-8 hours</strong>. See our <a href="/checklist">checklist</a>.</p>',
  '<h2 id="the-short-answer">The short answer</h2><p>It depends on your home.</p>',
  '<h3 id="large-homes">Large homes</h3><p>A big house takes longer: https://www.example.com/a-very-long-address-that-must-wrap-on-a-phone-screen</p>',
  '<h2 id="what-makes-it-longer">What makes it longer</h2>',
  '<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table><thead><tr><th>Factor</th><th>Short</th><th>Long</th></tr></thead><tbody><tr><td>Size</td><td>A studio</td><td>A large house</td></tr></tbody></table></div>',
  '<blockquote><p>Book early.</p></blockquote>',
  '<figure><picture><source type="image/avif" srcset="/assets/img/mop-640.avif 640w"><img src="/assets/img/mop-640.webp" alt="A mop" width="640" height="480" loading="lazy" decoding="async"></picture></figure>',
  '<h2 id="plan-your-day">Plan your day</h2><ul><li>Clear the counters.</li></ul>',
].join('');

type ArticleBody = Extract<PageBody, { kind: 'article' }>;
type ListBody = Extract<PageBody, { kind: 'articleList' }>;

const ROUTE = articleRoute('how-long-does-a-deep-cleaning-take');
const TITLE = 'How Long Does a Deep Cleaning Take? What to Plan For';

function articleBody(edit: Partial<ArticleBody> = {}): ArticleBody {
  return {
    kind: 'article', title: TITLE,
    published: { label: 'Published', iso: '2026-09-15T09:00:00-07:00', text: 'September 15, 2026' },
    updated: { label: 'Updated', iso: '2026-11-20T18:30:00-08:00', text: 'November 20, 2026' },
    readingTime: '6 min read', author: { label: 'By', name: 'The Bay Shine Cleaning team' },
    tags: { label: 'Topics', items: [{ name: 'deep cleaning', href: tagRoute('deep-cleaning') }, { name: 'planning', href: tagRoute('planning') }] },
    html: BODY,
    toc: {
      heading: 'In This Article',
      items: [
        { id: 'the-short-answer', text: 'The short answer', depth: 2 },
        { id: 'large-homes', text: 'Large homes', depth: 3 },
        { id: 'what-makes-it-longer', text: 'What makes it longer', depth: 2 },
        { id: 'plan-your-day', text: 'Plan your day', depth: 2 },
      ],
    },
    image: { ...photo, alt: 'A sparkling clean kitchen' },
    related: { heading: 'Related Articles', cards: [card('how-often-should-you-deep-clean-your-home', 'How Often Should You Deep Clean Your Home?'), card('move-out-cleaning-checklist', 'Move-Out Cleaning Checklist')] },
    cta: { heading: 'Ready for a Spotless Home?', text: 'Book online in a few minutes, or ask for a quote.', quote: link('Get Free Quote', '/contact'), book: link('Book Online', '/book-online') },
    breadcrumbs: [{ name: 'Home', href: '/' }, { name: 'Articles', href: '/articles' }, { name: TITLE, href: ROUTE }],
    breadcrumbLabel: 'Breadcrumb',
    ...edit,
  };
}

const articlePlan = (edit: Partial<ArticleBody> = {}): PagePlan => ({
  route: ROUTE, file: `${ROUTE.slice(1)}.html`,
  head: {
    title: `${TITLE} | Bay Shine Cleaning`, description: 'Most deep cleanings take 4-8 hours.', canonical: `${ORIGIN}${ROUTE}`,
    jsonLd: [{ '@context': 'https://schema.org', '@type': 'BlogPosting', headline: TITLE }], preloadImage: photo, modified: '2026-11-20T18:30:00-08:00',
  },
  body: articleBody(edit),
});

function listBody(edit: Partial<ListBody> = {}): ListBody {
  return {
    kind: 'articleList', heading: 'Cleaning Tips & Guides', intro: 'Straight answers from our team.',
    cards: [
      card('how-long-does-a-deep-cleaning-take', TITLE, { image: { ...photo, alt: 'A clean kitchen' } }),
      card('how-often-should-you-deep-clean-your-home', 'How Often Should You Deep Clean Your Home?', { mark: 'Draft' }),
    ],
    emptyText: 'Our first articles are on their way.',
    pagination: {
      label: 'Pages of articles', status: 'Page 2 of 3',
      previous: { href: articlesPageRoute(1), label: 'Previous' }, next: { href: articlesPageRoute(3), label: 'Next' },
      pages: [1, 2, 3].map((n) => ({ href: articlesPageRoute(n), label: `Page ${n}`, number: String(n), current: n === 2 })),
    },
    breadcrumbs: { items: [{ name: 'Home', href: '/' }, { name: 'Articles', href: '/articles' }], label: 'Breadcrumb' },
    feed: { label: 'Follow our articles (RSS feed)', href: FEEDS.rss.path },
    ...edit,
  };
}

const listPlan = (route: string, edit: Partial<ListBody> = {}): PagePlan => ({
  route, file: `${route.slice(1)}.html`,
  head: { title: 'Cleaning Tips & Guides | Bay Shine Cleaning', description: 'Practical cleaning advice.', canonical: `${ORIGIN}${route}`, jsonLd: [] },
  body: listBody(edit),
});

const render = (plan: PagePlan) => Buffer.concat(renderPage(plan, layout).chunks).toString('utf8');

/** An element's attributes, as React writes them (double-quoted, &-escaped), by their names in lower case. */
function attributes(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of tag.matchAll(/\s([a-zA-Z-]+)(?:="([^"]*)")?/g)) attrs[m[1]!.toLowerCase()] = (m[2] ?? '').replace(/&amp;/g, '&').replace(/&quot;/g, '"');
  return attrs;
}
const tags = (html: string, name: string) => [...html.matchAll(new RegExp(`<${name}(?=[\\s>/])[^>]*>`, 'g'))].map((m) => m[0]);
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/&#x27;/g, "'").replace(/&quot;/g, '"');
/** The first element opened by `open` up to its closing tag (elements of that name not nested in it). */
function element(html: string, open: RegExp, name: string): string {
  const m = open.exec(html);
  if (!m) throw new Error(`no ${String(open)}`);
  const end = html.indexOf(`</${name}>`, m.index);
  return html.slice(m.index, end + name.length + 3);
}
const head = (html: string) => html.slice(0, html.indexOf('</head>'));
const bodyOf = (html: string) => html.slice(html.indexOf('<body'));

function expectHeadingsInOrder(html: string) {
  const levels = [...bodyOf(html).matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
  expect(levels[0]).toBe(1);
  expect(levels.filter((l) => l === 1)).toHaveLength(1);
  levels.forEach((level, i) => { if (i > 0) expect(level, `h${levels[i - 1]} then h${level}`).toBeLessThanOrEqual(levels[i - 1]! + 1); });
}

function expectFeedsInHead(html: string) {
  const alternates = tags(head(html), 'link').map(attributes).filter((a) => a.rel === 'alternate');
  expect(alternates).toEqual(layout.feeds.map((f) => ({ rel: 'alternate', type: f.type, href: f.href, title: f.title })));
  expect(tags(bodyOf(html), 'link').filter((t) => attributes(t).rel === 'alternate')).toEqual([]);
}

describe('an article page', () => {
  const html = render(articlePlan());

  it('has one h1, the title, inside the article, and headings that never skip a level', () => {
    const h1s = [...html.matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)];
    expect(h1s).toHaveLength(1);
    expect(text(h1s[0]![1]!)).toBe(TITLE);
    expect(element(html, /<article[\s>]/, 'article')).toContain('<h1');
    expectHeadingsInOrder(html);
  });

  it('says when it was published and updated, with the offset, how long it takes to read and who wrote it', () => {
    const header = element(html, /<header class="bg-gradient/, 'header');
    const times = tags(header, 'time').map((t) => attributes(t).datetime);
    expect(times).toEqual(['2026-09-15T09:00:00-07:00', '2026-11-20T18:30:00-08:00']);
    const line = text(header);
    expect(line).toContain('Published September 15, 2026');
    expect(line).toContain('Updated November 20, 2026');
    expect(line).toContain('6 min read');
    expect(line).toContain('By The Bay Shine Cleaning team');
    // Without an update, no second date.
    expect(tags(element(render(articlePlan({ updated: undefined })), /<header class="bg-gradient/, 'header'), 'time')).toHaveLength(1);
  });

  it('shows its picture at its size, fetched first, and the breadcrumbs to it', () => {
    const img = tags(element(html, /<article[\s>]/, 'article'), 'img').map(attributes).find((a) => a.alt === 'A sparkling clean kitchen');
    expect(img).toMatchObject({ width: '1600', height: '900', loading: 'eager', fetchpriority: 'high' });
    const crumbs = element(html, /<nav aria-label="Breadcrumb"/, 'nav');
    // The current page is a link too, marked as such (the WAI-ARIA breadcrumb pattern).
    expect(tags(crumbs, 'a').map((a) => attributes(a).href)).toEqual(['/', '/articles', '/articles/how-long-does-a-deep-cleaning-take']);
    expect(tags(crumbs, 'a').map((a) => attributes(a)['aria-current'])).toEqual([undefined, undefined, 'page']);
  });

  it('links its tags to their pages, in a list named for screen readers', () => {
    const list = element(html, /<ul aria-label="Topics"/, 'ul');
    expect(tags(list, 'a').map((a) => attributes(a).href)).toEqual([tagRoute('deep-cleaning'), tagRoute('planning')]);
    expect(text(list)).toBe('deep cleaningplanning');
  });

  it('has contents whose links each lead to a heading of the body, h3 under their h2', () => {
    const nav = element(html, /<nav aria-labelledby="article-toc-heading"/, 'nav');
    expect(nav).toContain('<h2 id="article-toc-heading"');
    const targets = tags(nav, 'a').map((a) => attributes(a).href);
    expect(targets).toEqual(['#the-short-answer', '#large-homes', '#what-makes-it-longer', '#plan-your-day']);
    const body = html.slice(html.indexOf(BODY.slice(0, 40)));
    for (const target of targets) expect(body).toMatch(new RegExp(`<h[23] id="${target!.slice(1)}"`));
    // "Large homes" is an item of a list inside "The short answer"'s item.
    expect(nav).toMatch(/href="#the-short-answer"[^>]*>The short answer<\/a><ol[^>]*><li><a[^>]*href="#large-homes"/);
    // Without contents, no such nav.
    expect(render(articlePlan({ toc: undefined }))).not.toContain('article-toc-heading');
  });

  it('shows the body as it was written, in a container that keeps tables and long words on a phone screen', () => {
    expect(html).toContain(BODY);
    const container = tags(html, 'div').find((t) => t.includes('[&amp;_.table-scroll]:overflow-x-auto'));
    expect(container).toBeDefined();
    expect(container).toContain('wrap-break-word');
    expect(container).toContain('[&amp;_img]:max-w-full');
  });

  it('shows related articles as cards, each with one link named by its title; none when there are none', () => {
    const section = element(html, /<section aria-labelledby="article-related-heading"/, 'section');
    expect(section).toContain('<h2 id="article-related-heading"');
    const cards = element(section, /<ul[^>]*data-testid="article-cards"/, 'ul').split('<li').slice(1);
    expect(cards).toHaveLength(2);
    for (const c of cards) {
      const links = [...c.matchAll(/<a [^>]*>([\s\S]*?)<\/a>/g)];
      expect(links).toHaveLength(1);
      expect(c).toMatch(/<h3[^>]*><a /);
    }
    expect(text(cards[0]!)).toContain('How Often Should You Deep Clean Your Home?');
    const none = render(articlePlan({ related: { heading: 'Related Articles', cards: [] } }));
    expect(none).not.toContain('Related Articles');
    expect(none).not.toContain('data-testid="article-cards"');
  });

  it('ends with the call to action: a quote and a booking', () => {
    const cta = element(html, /<section aria-labelledby="article-cta-heading"/, 'section');
    expect(text(cta)).toContain('Ready for a Spotless Home?');
    expect(tags(cta, 'a').map((a) => attributes(a).href)).toEqual(['/contact', '/book-online']);
  });

  it('marks a draft above its title, and nothing on a published article', () => {
    const draft = render(articlePlan({ mark: 'Scheduled for November 20, 2026' }));
    const header = element(draft, /<header class="bg-gradient/, 'header');
    expect(header.indexOf('Scheduled for November 20, 2026')).toBeGreaterThan(-1);
    expect(header.indexOf('Scheduled for November 20, 2026')).toBeLessThan(header.indexOf('<h1'));
    expect(html).not.toContain('Scheduled for');
  });

  it('links the feeds in <head>', () => expectFeedsInHead(html));

  it('runs no script: only the JSON-LD and the layout\'s inline font loader, no inline style', () => {
    const scripts = tags(html, 'script').map(attributes);
    expect(scripts).toHaveLength(2);
    expect(scripts.filter((s) => s.type === 'application/ld+json')).toHaveLength(1);
    // Every page's: src/scripts/font-loader.js, inlined, which starts the page's scripts (none here).
    expect(scripts.filter((s) => s['data-family'] === layout.assets.font.family && s.src === undefined)).toHaveLength(1);
    expect(html).not.toContain('id="page-scripts"');
    expect(html).not.toMatch(/\sstyle="/);
  });
});

describe('a page of articles', () => {
  const html = render(listPlan(articlesPageRoute(2)));

  it('has one h1, the heading, the intro and breadcrumbs, and headings that never skip a level', () => {
    const h1s = [...html.matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)];
    expect(h1s).toHaveLength(1);
    expect(text(h1s[0]![1]!)).toBe('Cleaning Tips & Guides');
    expect(html).toContain('Straight answers from our team.');
    expect(tags(element(html, /<nav aria-label="Breadcrumb"/, 'nav'), 'a').map((a) => attributes(a).href)).toEqual(['/', '/articles']);
    expectHeadingsInOrder(html);
  });

  it('shows a card per article: its title the one link, its date with the offset, its reading time and summary', () => {
    const cards = element(html, /<ul[^>]*data-testid="article-cards"/, 'ul').split('<li').slice(1);
    expect(cards).toHaveLength(2);
    cards.forEach((c, i) => {
      const want = listBody().cards[i]!;
      const links = [...c.matchAll(/<a ([^>]*)>([\s\S]*?)<\/a>/g)];
      expect(links).toHaveLength(1);
      expect(attributes(` ${links[0]![1]!}`).href).toBe(want.href);
      expect(text(links[0]![2]!)).toBe(want.title);
      expect(attributes(tags(c, 'time')[0]!).datetime).toBe('2026-08-01T09:00:00-07:00');
      expect(text(c)).toContain(want.readingTime);
      expect(text(c)).toContain(want.description);
    });
    expect(tags(cards[0]!, 'img').map(attributes)).toEqual([expect.objectContaining({ alt: 'A clean kitchen', width: '1600', height: '900', loading: 'lazy' })]);
    expect(tags(cards[1]!, 'img')).toEqual([]);
    expect(text(cards[1]!)).toContain('Draft');
    expect(text(cards[0]!)).not.toContain('Draft');
  });

  it('says which page it is and links the others by number, the current one marked', () => {
    expect(text(html)).toContain('Page 2 of 3');
    const nav = element(html, /<nav aria-label="Pages of articles"/, 'nav');
    const links = tags(nav, 'a').map(attributes);
    expect(links.map((a) => a.href)).toEqual(['/articles', '/articles', '/articles/page/2', '/articles/page/3', '/articles/page/3']);
    expect(links.find((a) => a['aria-current'] === 'page')?.href).toBe('/articles/page/2');
    expect(links[0]!.rel).toBe('prev');
    expect(links.at(-1)!.rel).toBe('next');
    for (const a of links) expect(a.class).toContain('min-h-11');
  });

  it('links the feed, and the feeds in <head>', () => {
    const feed = tags(bodyOf(html), 'a').map(attributes).find((a) => a.href === FEEDS.rss.path);
    expect(feed).toBeDefined();
    expect(html).toContain('Follow our articles (RSS feed)');
    expectFeedsInHead(html);
  });

  it('lists every tag with its count on /articles, and not on the other pages', () => {
    expect(html).not.toContain('article-tags-heading');
    const first = render(listPlan(articlesPageRoute(1), {
      pagination: undefined,
      tags: { heading: 'Browse by Topic', items: [{ name: 'deep cleaning', href: tagRoute('deep-cleaning'), count: 4 }, { name: 'planning', href: tagRoute('planning'), count: 1 }] },
    }));
    const section = element(first, /<section aria-labelledby="article-tags-heading"/, 'section');
    expect(section).toContain('<h2 id="article-tags-heading"');
    const links = [...section.matchAll(/<a ([^>]*)>([\s\S]*?)<\/a>/g)].map((m) => [attributes(` ${m[1]!}`).href, text(m[2]!)]);
    expect(links).toEqual([[tagRoute('deep-cleaning'), 'deep cleaning (4)'], [tagRoute('planning'), 'planning (1)']]);
    expect(first).not.toContain('Page 2 of 3');
    expectHeadingsInOrder(first);
  });

  it('says so when there is no article yet, and shows no cards', () => {
    const empty = render(listPlan(articlesPageRoute(1), { cards: [], pagination: undefined }));
    expect(empty).toContain('Our first articles are on their way.');
    expect(empty).not.toContain('data-testid="article-cards"');
    expect(empty).not.toMatch(/\sstyle="/);
  });

  it('a tag\'s page: its own heading, and no script but the layout\'s', () => {
    const tagPage = render(listPlan(tagRoute('deep-cleaning'), { heading: 'Articles Tagged “deep cleaning”', pagination: undefined }));
    expect(text(element(tagPage, /<h1/, 'h1'))).toBe('Articles Tagged “deep cleaning”');
    expect(tags(tagPage, 'script')).toHaveLength(1);
  });
});
