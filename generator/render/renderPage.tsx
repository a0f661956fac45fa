/** Stage render: one planned page → its complete HTML document (react-dom/server). */
import { randomUUID } from 'node:crypto';
import { renderToString } from 'react-dom/server';
import type { ReactNode } from 'react';
import type { IslandName } from '../../src/islands/registry.js';
import { IslandCollector } from '../../templates/components/Island.js';
import { Document } from '../../templates/layout/Document.js';
import { Footer } from '../../templates/layout/Footer.js';
import { currentSection, Header } from '../../templates/layout/Header.js';
import { ArticleListPage } from '../../templates/pages/ArticleListPage.js';
import { ArticlePage } from '../../templates/pages/ArticlePage.js';
import { ChecklistPage } from '../../templates/pages/ChecklistPage.js';
import { CityPage } from '../../templates/pages/CityPage.js';
import { ContactPage } from '../../templates/pages/ContactPage.js';
import { EmbedPage } from '../../templates/pages/EmbedPage.js';
import { HomePage } from '../../templates/pages/HomePage.js';
import { LegalPage } from '../../templates/pages/LegalPage.js';
import { LocationsPage } from '../../templates/pages/LocationsPage.js';
import { NotFoundPage } from '../../templates/pages/NotFoundPage.js';
import { ServicePage } from '../../templates/pages/ServicePage.js';
import { ServicesPage } from '../../templates/pages/ServicesPage.js';
import { layoutOf, type Layout, type PageBody, type PagePlan } from '../../contracts/pages.js';

type PageKind = PageBody['kind'];
type Template<K extends PageKind> = (body: Extract<PageBody, { kind: K }>, page: { layout: Layout }) => ReactNode;
type RoutedTemplate<K extends PageKind> = (body: Extract<PageBody, { kind: K }>, page: { route: string; layout: Layout }) => ReactNode;

/** The templates given the page's route besides its body (render/pageTemplate.ts keeps the route in their shapes). */
const ROUTED = {
  service: (body, { route, layout }) => <ServicePage {...body} route={route} closeLabel={layout.navigation.closeLabel} bookOnline={layout.routes.bookOnline} />,
  city: (body, { route, layout }) => <CityPage {...body} route={route} closeLabel={layout.navigation.closeLabel} bookOnline={layout.routes.bookOnline} />,
} satisfies { [K in PageKind]?: RoutedTemplate<K> };

export const READS_ROUTE: ReadonlySet<PageKind> = new Set(Object.keys(ROUTED) as PageKind[]);

/** The template of every other kind (TypeScript requires one for every kind of contracts/pages.ts). */
const TEMPLATES: { [K in Exclude<PageKind, keyof typeof ROUTED>]: Template<K> } = {
  home: (body, { layout }) => <HomePage {...body} chrome={layout} />,
  services: (body, { layout }) => <ServicesPage {...body} bookOnline={layout.routes.bookOnline} />,
  locations: (body, { layout }) => <LocationsPage {...body} chrome={layout} />,
  checklist: (body, { layout }) => <ChecklistPage {...body} chrome={layout} />,
  contact: (body) => <ContactPage {...body} />,
  embed: (body) => <EmbedPage {...body} />,
  legal: (body) => <LegalPage {...body} />,
  article: (body) => <ArticlePage {...body} />,
  articleList: (body) => <ArticleListPage {...body} />,
  notFound: (body) => <NotFoundPage {...body} />,
};

function pageContent(plan: PagePlan, layout: Layout): ReactNode {
  // Each entry takes its own kind's body; TypeScript cannot pair the looked-up entry with the body.
  const template = ({ ...TEMPLATES, ...ROUTED } as Record<PageKind, RoutedTemplate<PageKind>>)[plan.body.kind] as (body: PageBody, page: { route: string; layout: Layout }) => ReactNode;
  return template(plan.body, { route: plan.route, layout });
}

/** Page-specific scripts besides the island loader (each tiny, each only where needed). */
function extraScripts(plan: PagePlan, layout: Layout): string[] {
  if (plan.body.kind === 'home' && layout.assets.heroBlur) return [layout.assets.heroBlur];
  if (plan.body.kind === 'notFound' && layout.assets.notFound) return [layout.assets.notFound];
  return [];
}

/**
 * Header and footer are the same on every page of a section: React draws them once per build
 * (per layout, per section), encoded to UTF-8 once, and each page's file gets the bytes in their
 * places. The places, and the content's, are marked in the document with a per-process nonce that
 * no content can contain.
 */
const SLOT = `\u0000${randomUUID()}`;
const HEADER_SLOT = `${SLOT}:header\u0000`;
const FOOTER_SLOT = `${SLOT}:footer\u0000`;
const PRELOADS_SLOT = `${SLOT}:preloads\u0000`;
const CONTENT_SLOT = `${SLOT}:content\u0000`;
/** The slots in the order the document holds them. */
const SLOTS = [PRELOADS_SLOT, HEADER_SLOT, CONTENT_SLOT, FOOTER_SLOT] as const;
const DOCTYPE = Buffer.from('<!DOCTYPE html>');

/** Where the header's language switch leads: the page's own address, put in per page (a header is drawn once per section). */
const SWITCH_MARK = `${randomUUID()}-language-switch`;

interface Part { bytes: Buffer; refs: readonly string[] }
/** A header with the switch: its bytes before and after the switch's address. */
interface HeaderPart extends Part { after?: Buffer }
interface Frame { footer: Part; headers: Map<string, HeaderPart> }
const frames = new WeakMap<Layout, Frame>();

const part = (html: string): Part => ({ bytes: Buffer.from(html), refs: internalRefs(html) });

function frameOf(layout: Layout, section: string): { header: HeaderPart; footer: Part } {
  let frame = frames.get(layout);
  if (!frame) {
    frame = { footer: part(renderToString(<Footer chrome={layout} />)), headers: new Map() };
    frames.set(layout, frame);
  }
  let header = frame.headers.get(section);
  if (header === undefined) {
    const [before, after] = renderToString(<Header chrome={layout} section={section} switchHref={SWITCH_MARK} />).split(SWITCH_MARK) as [string, string?];
    header = after === undefined ? part(before) : { bytes: Buffer.from(before), after: Buffer.from(after), refs: internalRefs(before + after) };
    frame.headers.set(section, header);
  }
  return { header, footer: frame.footer };
}

/** `html` cut at each slot, which must each be there once and in SLOTS order. */
function cutAtSlots(html: string): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const slot of SLOTS) {
    const at = html.indexOf(slot, from);
    if (at < 0) throw new Error('renderPage: the document lost a slot');
    pieces.push(html.slice(from, at));
    from = at + slot.length;
  }
  pieces.push(html.slice(from));
  return pieces;
}

/**
 * A page's HTML document, as the chunks of its file in order (UTF-8), and the internal URLs it
 * references (for the link check).
 */
export function renderPage(plan: PagePlan, pageLayout: Layout, section?: string): { chunks: Buffer[]; refs: string[] } {
  const layout = layoutOf(pageLayout, plan.lang);
  section ??= currentSection(layout, plan.route);
  // The page content renders first so the document knows which islands it holds.
  const islands = new Set<IslandName>();
  const rendered = renderToString(
    <IslandCollector.Provider value={islands}>
      {pageContent(plan, layout)}
    </IslandCollector.Provider>,
  );
  // React writes the preloads it derives (an eager image's) first in what it renders; they belong
  // in <head>, where the browser finds them before it reaches the body.
  const preloads = /^(?:<link rel="preload"[^>]*>)*/.exec(rendered)![0];
  const content = rendered.slice(preloads.length);
  const scripts = [
    ...extraScripts(plan, layout),
    ...(islands.size && layout.assets.entry ? [layout.assets.entry] : []),
  ];
  const shell = renderToString(
    <Document head={plan.head} chrome={layout} preloads={PRELOADS_SLOT} header={HEADER_SLOT} footer={FOOTER_SLOT} scripts={scripts}>
      <div className="contents" dangerouslySetInnerHTML={{ __html: CONTENT_SLOT }} />
    </Document>,
  );
  const [beforePreloads, beforeHeader, beforeContent, beforeFooter, end] = cutAtSlots(shell) as [string, string, string, string, string];
  const { header, footer } = frameOf(layout, section);
  // The header's and footer's links were collected when they were drawn: only the rest is scanned.
  const switchTo = plan.head.languageSwitch ?? '';
  const refs = [...new Set([...internalRefs(shell), ...internalRefs(content), ...header.refs, ...footer.refs, ...(header.after && switchTo ? [switchTo] : [])])];
  const headerChunks = header.after ? [header.bytes, Buffer.from(escapeHtml(switchTo)), header.after] : [header.bytes];
  const chunks = [
    DOCTYPE, Buffer.from(beforePreloads), Buffer.from(preloads), Buffer.from(beforeHeader), ...headerChunks,
    Buffer.from(beforeContent), Buffer.from(content), Buffer.from(beforeFooter), footer.bytes, Buffer.from(end),
  ];
  return { chunks, refs };
}

/** React's escaping of text and attribute values (render/pageTemplate.ts writes texts into templates with it too). */
const HTML_ESCAPES: Record<string, string> = { '"': '&quot;', "'": '&#x27;', '&': '&amp;', '<': '&lt;', '>': '&gt;' };
// Each tests first: most texts have nothing to escape, and a replace copies the text.
export const escapeHtml = (v: string): string => (/["'&<>]/.test(v) ? v.replace(/["'&<>]/g, (c) => HTML_ESCAPES[c]!) : v);

/** The attributes that hold addresses; group 1 is the value as written (HTML-escaped). */
export const ADDRESS_ATTRIBUTE = /\s(?:href|src|srcset|imagesrcset)="([^"]*)"/g;

/** The internal URLs of one address attribute's value (as written), added to `refs`. */
export function addAttributeRefs(written: string, refs: Set<string>): void {
  const value = written.replace(/&amp;/g, '&');
  // A data: URL (an inlined picture) holds commas and slashes of its own, no address.
  if (value.startsWith('data:')) return;
  for (const part of value.split(',')) {
    const url = part.trim().split(/\s+/)[0] ?? '';
    if (url.startsWith('/') && !url.startsWith('//')) refs.add(url.split(/[?#]/)[0] ?? url);
  }
}

/** Internal URLs (paths starting with /) referenced by some HTML. */
export function internalRefs(html: string): string[] {
  const refs = new Set<string>();
  for (const match of html.matchAll(ADDRESS_ATTRIBUTE)) addAttributeRefs(match[1] ?? '', refs);
  // A copy through JSON: the matches are slices of the page's HTML, and a slice keeps the whole
  // document alive; kept for the link check, they held every page of a build in memory.
  return JSON.parse(JSON.stringify([...refs])) as string[];
}
