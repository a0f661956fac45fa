/**
 * Pages of the same shape drawn by React once and filled in after that, as Hugo executes a
 * compiled template: 10,000 pages of one collection differ only in their texts (nearly all of each page's bytes are
 * the same), and React's render was most of a page's processor time.
 *
 * A page's shape is its plan with every non-empty text taken out: the keys, the numbers, the
 * lengths of the lists, which texts are empty, which texts are equal to which (but in the JSON-LD),
 * the header's section; an object an earlier page had too (the business's JSON-LD) stands in it
 * whole, its texts written into the template as they are. The first time a shape comes back, the page is drawn with a marker in place of each
 * text; where each marker lands in the HTML, and how it was written there (as HTML text or
 * attribute, inside JSON, inside JSON-LD, as it is), is the template. A text whose marker does not
 * come out whole (a template that reads it rather than shows it) is part of the shape from then
 * on. A template is used only when drawing the markers at other lengths gives the same template,
 * and when it fills in the page it was made from to the very bytes React draws; else that shape is
 * drawn by React every time.
 */
import { layoutOf, type Layout, type PagePlan } from '../../contracts/pages.js';
import { escapeJsonLd } from '../../templates/components/JsonLd.js';
import { currentSection } from '../../templates/layout/Header.js';
import { ADDRESS_ATTRIBUTE, addAttributeRefs, escapeHtml, internalRefs, READS_ROUTE, renderPage } from './renderPage.js';
import { COLLECTIONS } from '../collections/index.js';

type Rendered = ReturnType<typeof renderPage>;

/** Private-use characters: no escaping (HTML or JSON) changes them, no content needs them to mean anything here. */
const OPEN = '\uE000';
const MIDDLE = '\uE002';
const CLOSE = '\uE001';
/** Each character some writing of a text changes: how a marker's probe comes out says how its text is written there. */
const PROBE = '"\'&<>\\\u2028';

const html = escapeHtml;
const json = (v: string): string => (/["\\\u0000-\u001f\ud800-\udfff]/.test(v) ? JSON.stringify(v).slice(1, -1) : v);
/** How a text comes out where a template puts it: the ways the templates write texts. */
const ENCODERS = {
  html,
  raw: (v: string) => v,
  json,
  jsonLd: (v: string) => escapeJsonLd(json(v)),
  // an island's props: JSON in an HTML attribute
  jsonInHtml: (v: string) => html(json(v)),
} satisfies Record<string, (v: string) => string>;
type Encoding = keyof typeof ENCODERS;
const BY_PROBE = new Map(Object.entries(ENCODERS).map(([name, encode]) => [encode(PROBE), name as Encoding]));

/** React's test for a javascript: URL, which it replaces in links: a template would not. */
const JAVASCRIPT_URL = /^[\u0000-\u001F ]*j[\r\n\t]*a[\r\n\t]*v[\r\n\t]*a[\r\n\t]*s[\r\n\t]*c[\r\n\t]*r[\r\n\t]*i[\r\n\t]*p[\r\n\t]*t[\r\n\t]*:/i;

interface Hole { text: number; encoding: Encoding }
/** Fixed strings with holes between them: parts.length === holes.length + 1. */
interface Filling { parts: string[]; holes: Hole[] }

interface Template {
  page: Filling;
  /** The page's fixed strings in UTF-8: a page is written as these with its texts between them. */
  bytes: Buffer[];
  /** Their length in all. */
  fixedBytes: number;
  /**
   * The page's internal links: those the same on every page, the address attributes with texts in
   * them, and the holes whose texts are whole elements (a Markdown body), searched on their own.
   */
  refs: { fixed: string[]; attributes: Filling[]; elements: number[] } | undefined;
}

/** A plan's shape (the key templates are found by) and its texts, numbered in order of first appearance. */
interface Shape { key: string; texts: string[] }

/** What a render thread knows per layout: the shapes seen, their templates, the texts that are part of shapes. */
interface Templates {
  /** Paths of texts the templates read (an array's items share one path: `body.faqs[]`). */
  structural: Set<string>;
  /** `structural` as shapeOf reads it. */
  tree: PathTree;
  /** A shape's template, or null: drawn by React every time. */
  templates: Map<string, Template | null>;
  /** Shapes seen once: a template is made when one comes back. */
  seen: Set<string>;
  /** Each object of a plan seen so far: the page it was first seen on, and its number. */
  objects: WeakMap<object, { page: number; id: number }>;
  /** The pages taken so far. */
  pages: number;
  /** Objects numbered so far. */
  ids: number;
}

/**
 * Whether an object of the plan is one an earlier page had too (the business's JSON-LD, the
 * discount's texts: the same object on every page): then its texts are the same on every page
 * that has it, and a template writes them as they are, the object's number standing for them
 * in the shape. Asking again for the same page gives the same answer.
 */
type Shared = (value: object) => number | undefined;

/**
 * How deep in a plan objects are asked about (route, head and body are 0): the shared ones are
 * near the top (head.jsonLd[0], body.discount), and registering every object cost more than it saved.
 */
const SHARED_DEPTH = 2;
/** The pages whose objects are registered, to be known again on later pages. */
const REGISTERING_PAGES = 16;

function sharedOf(state: Templates): Shared {
  const page = ++state.pages;
  // What every page shares is on the first pages already; registering the objects of every
  // page a worker renders cost it more than it saved.
  const registering = page <= REGISTERING_PAGES;
  return (value) => {
    const seen = state.objects.get(value);
    if (!seen) {
      if (registering) state.objects.set(value, { page, id: ++state.ids });
      return undefined;
    }
    return seen.page < page ? seen.id : undefined;
  };
}

/**
 * The kinds of page a site has thousands of: those of the collections that say their pages share a
 * layout. Their templates were read for what a template could do with a text other than show it or
 * look it up (an icon's name): compare it with a fixed value and show it too, which a marker cannot
 * reveal. Other kinds are drawn by React every time.
 */
const TEMPLATED: ReadonlySet<PagePlan['body']['kind']> = new Set(COLLECTIONS.flatMap((c) => c.templated ?? []));

/** Shapes seen once are forgotten past this many (a site where every page has its own shape). */
const SEEN_KEPT = 2000;
/** Templates kept per layout; past this many shapes the rest are drawn by React. */
const TEMPLATES_KEPT = 200;

const byLayout = new WeakMap<Layout, Templates>();

/** What renderTemplated did in this thread (the tests read it). */
export const templateStats = { filled: 0, drawn: 0, made: 0, refused: 0 };

/**
 * The page's chunks and internal links, the same bytes as renderPage's: filled in from its shape's
 * template when there is one, else drawn by React (and a template made when the shape comes back).
 */
export function renderTemplated(plan: PagePlan, pageLayout: Layout): Rendered {
  // Each language's layout has its own templates.
  const layout = layoutOf(pageLayout, plan.lang);
  if (!TEMPLATED.has(plan.body.kind)) return renderPage(plan, layout);
  let state = byLayout.get(layout);
  // A body's kind picks its template (contracts/pages.ts): drawn with a marker there, no template would be found.
  if (!state) {
    const structural = new Set(['body.kind']);
    byLayout.set(layout, (state = { structural, tree: pathTree(structural), templates: new Map(), seen: new Set(), objects: new WeakMap(), pages: 0, ids: 0 }));
  }
  const section = currentSection(layout, plan.route);
  const shared = sharedOf(state);
  const shape = shapeOf(plan, section, state.tree, shared);
  const template = state.templates.get(shape.key);
  if (template && !shape.texts.some((t) => JAVASCRIPT_URL.test(t))) {
    templateStats.filled++;
    return fill(template, shape.texts);
  }
  templateStats.drawn++;
  const drawn = renderPage(plan, layout, section);
  if (template === undefined && state.templates.size < TEMPLATES_KEPT) {
    if (state.seen.has(shape.key)) {
      state.seen.delete(shape.key);
      makeTemplate(plan, layout, section, shared, state, drawn);
    } else {
      if (state.seen.size >= SEEN_KEPT) state.seen.clear();
      state.seen.add(shape.key);
    }
  }
  return drawn;
}

/** Make the template of `plan`'s shape (learning which texts are structural on the way), checked against `drawn`. */
function makeTemplate(plan: PagePlan, layout: Layout, section: string, shared: Shared, state: Templates, drawn: Rendered): void {
  // Each round either makes the template or moves at least one text into the shape.
  for (let round = 0; round < 8; round++) {
    const shape = shapeOf(plan, section, (state.tree = pathTree(state.structural)), shared);
    const made = tryTemplate(plan, layout, section, shared, state.structural, shape);
    if (made === 'again') continue;
    const html = joined(drawn.chunks);
    const ok = made !== 'refused' && sameRender(fill(made, shape.texts), html, drawn.refs);
    state.templates.set(shape.key, ok ? made : null);
    if (ok) templateStats.made++;
    else templateStats.refused++;
    return;
  }
  state.tree = pathTree(state.structural);
}

/** A template for the shape, 'again' when some texts turned out structural (now in `structural`), or 'refused'. */
function tryTemplate(plan: PagePlan, layout: Layout, section: string, shared: Shared, structural: Set<string>, shape: Shape): Template | 'again' | 'refused' {
  const draw = (padding: number) => {
    try {
      const marked = withTexts(plan, structural, shared, (i) => `${OPEN}${i}${'~'.repeat(padding && padding + (i % 3))}${MIDDLE}${PROBE}${CLOSE}`);
      return joined(renderPage(marked, layout, section).chunks);
    } catch {
      return undefined; // a template that parses a text (a URL, a number) cannot draw a marker
    }
  };
  const first = draw(0);
  if (first === undefined) return learnCulprit(plan, structural, shared, (tried) => withStructural(structural, tried, () => draw(0) !== undefined));
  const page = holesOf(first, shape.texts.length);
  if (page === 'malformed') return 'refused';
  const missing = shape.texts.map((_, i) => i).filter((i) => !page.holes.some((h) => h.text === i));
  if (missing.length) {
    const before = structural.size;
    for (const path of pathsOf(plan, structural, shared, new Set(missing))) structural.add(path);
    return structural.size > before ? 'again' : 'refused';
  }
  // Markers of other lengths must land in the same places: no template may depend on a text's length.
  const second = draw(5);
  const other = second === undefined ? 'malformed' : holesOf(second, shape.texts.length);
  if (other === 'malformed' || !sameFilling(page, other)) return 'refused';
  const bytes = page.parts.map((p) => Buffer.from(p));
  return { page, bytes, fixedBytes: bytes.reduce((n, b) => n + b.length, 0), refs: refsOf(page) };
}

/** Run `f` with `extra` paths in `structural` for the time being. */
function withStructural<T>(structural: Set<string>, extra: readonly string[], f: () => T): T {
  const added = extra.filter((p) => !structural.has(p));
  for (const p of added) structural.add(p);
  try {
    return f();
  } finally {
    for (const p of added) structural.delete(p);
  }
}

/**
 * React could not draw the markers (a template looked a text up: an icon's name): the first path
 * that, made structural with those before it, lets React draw them is made structural.
 */
function learnCulprit(plan: PagePlan, structural: Set<string>, shared: Shared, draws: (tried: readonly string[]) => boolean): 'again' | 'refused' {
  const paths = [...new Set(pathsOf(plan, structural, shared, undefined))];
  if (!draws(paths)) return 'refused';
  let low = 0; // draws(paths.slice(0, low)) fails
  let high = paths.length; // draws(paths.slice(0, high)) succeeds
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    if (draws(paths.slice(0, mid))) high = mid;
    else low = mid;
  }
  structural.add(paths[high - 1]!);
  return 'again';
}

/** The markers in `html`: where each lands and how it was written, or 'malformed' if one did not come out whole. */
function holesOf(html: string, texts: number): Filling | 'malformed' {
  const parts: string[] = [];
  const holes: Hole[] = [];
  let from = 0;
  for (let at = html.indexOf(OPEN); at >= 0; at = html.indexOf(OPEN, from)) {
    const middle = html.indexOf(MIDDLE, at);
    const close = html.indexOf(CLOSE, at);
    if (middle < 0 || close < middle) return 'malformed';
    const text = Number(html.slice(at + 1, middle).replace(/~+$/, ''));
    const encoding = BY_PROBE.get(html.slice(middle + 1, close));
    if (!Number.isInteger(text) || text < 0 || text >= texts || !encoding) return 'malformed';
    parts.push(html.slice(from, at));
    holes.push({ text, encoding });
    from = close + 1;
  }
  parts.push(html.slice(from));
  if (parts.some((p) => p.includes(MIDDLE) || p.includes(CLOSE))) return 'malformed';
  return { parts, holes };
}

/**
 * The internal links of a template. A text written as it is (whole elements: a Markdown body) is
 * searched on its own when it stands between two tags (`>…<`): no address attribute then runs
 * across its ends (fill checks that its last tag is closed); elsewhere the whole page is searched.
 */
function refsOf(page: Filling): Template['refs'] {
  const elements = page.holes.flatMap((h, i) => (h.encoding === 'raw' ? [i] : []));
  if (elements.some((i) => !page.parts[i]!.endsWith('>') || !page.parts[i + 1]!.startsWith('<'))) return undefined;
  // The page with each hole as a bare marker (no probe): an address attribute's value is then found whole.
  const marked = page.parts.reduce((html, part, i) => html + (i ? `${OPEN}${i - 1}${CLOSE}` : '') + part, '');
  const fixed = new Set<string>();
  const attributes: Filling[] = [];
  for (const match of marked.matchAll(ADDRESS_ATTRIBUTE)) {
    const value = match[1] ?? '';
    if (!value.includes(OPEN)) {
      addAttributeRefs(value, fixed);
      continue;
    }
    const parts: string[] = [];
    const holes: Hole[] = [];
    let from = 0;
    for (const hole of value.matchAll(new RegExp(`${OPEN}(\\d+)${CLOSE}`, 'g'))) {
      parts.push(value.slice(from, hole.index));
      holes.push(page.holes[Number(hole[1])]!);
      from = hole.index + hole[0].length;
    }
    parts.push(value.slice(from));
    attributes.push({ parts, holes });
  }
  return { fixed: [...fixed], attributes, elements };
}

/** Whether elements written as they are end outside a tag and an attribute's quotes: their address attributes are all their own. */
function closedElements(html: string): boolean {
  const tail = html.slice(html.lastIndexOf('>') + 1);
  return !tail.includes('<') && !tail.includes('"');
}

/** Each text as each hole writes it, written once per page however many holes show it. */
class Written {
  private readonly done = new Map<Encoding, string[]>();
  constructor(private readonly texts: readonly string[]) {}

  text({ text, encoding }: Hole): string {
    let written = this.done.get(encoding);
    if (!written) this.done.set(encoding, (written = []));
    return (written[text] ??= ENCODERS[encoding](this.texts[text]!));
  }
}

function fillIn({ parts, holes }: Filling, written: Written): string {
  let out = parts[0]!;
  for (let i = 0; i < holes.length; i++) out += written.text(holes[i]!) + parts[i + 1]!;
  return out;
}

function fill(template: Template, texts: readonly string[]): Rendered {
  const written = new Written(texts);
  const { bytes, fixedBytes, page: { holes } } = template;
  // One buffer of the page's length, the fixed bytes copied in and the texts encoded straight into it.
  const holeTexts = holes.map((hole) => written.text(hole));
  let length = fixedBytes;
  for (const text of holeTexts) length += Buffer.byteLength(text);
  const page = Buffer.allocUnsafe(length);
  page.set(bytes[0]!, 0);
  let at = bytes[0]!.length;
  for (let i = 0; i < holes.length; i++) {
    at += page.write(holeTexts[i]!, at);
    page.set(bytes[i + 1]!, at);
    at += bytes[i + 1]!.length;
  }
  const chunks = [page];
  const elements = template.refs?.elements.map((i) => holeTexts[i]!);
  let refs: string[];
  if (template.refs && elements!.every(closedElements)) {
    const found = new Set(template.refs.fixed);
    for (const attribute of template.refs.attributes) addAttributeRefs(fillIn(attribute, written), found);
    for (const text of elements!) for (const ref of internalRefs(text)) found.add(ref);
    refs = [...found];
  } else refs = internalRefs(fillIn(template.page, written));
  return { chunks, refs };
}

const joined = (chunks: readonly Buffer[]) => Buffer.concat(chunks).toString('utf8');

function sameFilling(a: Filling, b: Filling): boolean {
  return a.parts.length === b.parts.length && a.parts.every((p, i) => p === b.parts[i])
    && a.holes.every((h, i) => h.text === b.holes[i]!.text && h.encoding === b.holes[i]!.encoding);
}

function sameRender(filled: Rendered, html: string, refs: readonly string[]): boolean {
  const wanted = new Set(refs);
  return joined(filled.chunks) === html && filled.refs.length === wanted.size && filled.refs.every((r) => wanted.has(r));
}

/**
 * A copy of what a page's templates are given (route, head, body) in which `text` replaced each
 * non-empty text not in `structural` (shapeOf visits them in the same order).
 */
function walk(plan: PagePlan, structural: ReadonlySet<string>, shared: Shared, text: (value: string, path: string) => string): Pick<PagePlan, 'route' | 'head' | 'body'> {
  // Structural texts are found as shapeOf finds them (by the tree), so both number the same texts.
  const tree = pathTree(structural);
  const visit = (value: unknown, path: string, node: PathTree | undefined, depth: number): unknown => {
    if (typeof value === 'string') return value === '' || node?.leaf ? value : text(value, path);
    if (value !== null && typeof value === 'object' && depth <= SHARED_DEPTH && shared(value) !== undefined) return value;
    if (Array.isArray(value)) return value.map((item) => visit(item, `${path}[]`, node?.next.get('[]'), depth + 1));
    if (value !== null && typeof value === 'object') {
      const copy: Record<string, unknown> = {};
      for (const k of Object.keys(value)) copy[k] = visit((value as Record<string, unknown>)[k], `${path}.${k}`, node?.next.get(k), depth + 1);
      return copy;
    }
    return value;
  };
  const at = (step: string) => tree.next.get(step);
  const route = READS_ROUTE.has(plan.body.kind) ? visit(plan.route, 'route', at('route'), 0) as string : plan.route;
  return { route, head: visit(plan.head, 'head', at('head'), 0) as PagePlan['head'], body: visit(plan.body, 'body', at('body'), 0) as PagePlan['body'] };
}

/**
 * The texts of a page, numbered in order: equal texts share a number (the shape says which texts
 * are equal: React preloads an image once however many times the page shows it), but for the
 * JSON-LD, which is written as JSON whatever its texts are equal to (there an entry's name can
 * also be one of the business's served areas, at a different place on each entry's page).
 */
class Numbering {
  readonly texts: string[] = [];
  private readonly shared = new Map<string, number>();

  /**
   * `field`: the key the text is under; `inList`: whether it is in a list (an array's item). Equal
   * texts share a number (the shape then says they are equal: React preloads an image once, and a
   * copy not shown stands for a text that is) but in lists, where only an image's or a link's
   * address shares one: which dates, reading times or names of a list of cards happen to be equal
   * is no part of a shape, or nearly every page listing cards would be a shape of its own.
   */
  number(value: string, path: string, field: string, inList: boolean): number {
    if (path === JSON_LD || (inList && !SHARED_FIELDS.has(field)) || path.startsWith(JSON_LD_ITEM) || path.startsWith(JSON_LD_FIELD)) return this.texts.push(value) - 1;
    let n = this.shared.get(value);
    if (n === undefined) this.shared.set(value, (n = this.texts.push(value) - 1));
    return n;
  }
}
const SHARED_FIELDS = new Set(['href', 'src', 'avifSrcSet', 'webpSrcSet', 'blurredSrc']);
/** The key a walked path's text is under (`body.cards[].href` → `href`), and whether it is in a list. */
const fieldOf = (path: string) => path.slice(path.lastIndexOf('.') + 1).replace(/(\[\])+$/, '');
const inListOf = (path: string) => path.includes('[]');
const JSON_LD = 'head.jsonLd';
const JSON_LD_ITEM = `${JSON_LD}[`;
const JSON_LD_FIELD = `${JSON_LD}.`;

/** The structural paths as a tree of their steps (an object's key, or `[]` for an array's items). */
interface PathTree { leaf: boolean; next: Map<string, PathTree> }

function pathTree(paths: ReadonlySet<string>): PathTree {
  const root: PathTree = { leaf: false, next: new Map() };
  for (const path of paths) {
    let node = root;
    for (const step of path.replace(/\[\]/g, '.[]').split('.')) {
      let child = node.next.get(step);
      if (!child) node.next.set(step, (child = { leaf: false, next: new Map() }));
      node = child;
    }
    node.leaf = true;
  }
  return root;
}

/** `"key":` of each object key seen: the same few keys on every page. */
const keyTexts = new Map<string, string>();

/**
 * The shape's key (equal texts share a number, so the key says which texts are equal) and the
 * texts: `walk` without building paths or copies, as it is taken of every page.
 */
function shapeOf(plan: PagePlan, section: string, structural: PathTree, shared: Shared): Shape {
  const numbering = new Numbering();
  // Pieces joined once: a string built by += is a tree of pieces that the key's lookup flattens.
  const key: string[] = [JSON.stringify(section), '|'];
  // Numbering takes a path only to tell the JSON-LD's texts: the one path there is spelled here.
  const visit = (value: unknown, node: PathTree | undefined, path: string, depth: number, field = path, inList = false): void => {
    if (typeof value === 'string') {
      if (value === '' || node?.leaf) key.push(JSON.stringify(value), ',');
      else key.push('#', String(numbering.number(value, path, field, inList)), ',');
      return;
    }
    if (value !== null && typeof value === 'object' && depth <= SHARED_DEPTH) {
      const id = shared(value);
      if (id !== undefined) {
        key.push('@', String(id), ',');
        return;
      }
    }
    if (Array.isArray(value)) {
      key.push('[');
      const items = node?.next.get('[]');
      for (const item of value) visit(item, items, path, depth + 1, field, true);
      key.push(']');
    } else if (value !== null && typeof value === 'object') {
      key.push('{');
      for (const k of Object.keys(value)) {
        let text = keyTexts.get(k);
        if (text === undefined) {
          text = `${JSON.stringify(k)}:`;
          if (keyTexts.size < 10_000) keyTexts.set(k, text);
        }
        key.push(text);
        visit((value as Record<string, unknown>)[k], node?.next.get(k), path === 'head' && k === 'jsonLd' ? JSON_LD : path, depth + 1, k, inList);
      }
      key.push('}');
    } else key.push(value === undefined ? 'u' : JSON.stringify(value), ',');
  };
  // A template not given the route (READS_ROUTE) is reached by it only through the section, in the key.
  if (READS_ROUTE.has(plan.body.kind)) visit(plan.route, structural.next.get('route'), 'route', 0);
  visit(plan.head, structural.next.get('head'), 'head', 0);
  visit(plan.body, structural.next.get('body'), 'body', 0);
  return { key: key.join(''), texts: numbering.texts };
}

/** The plan with each text replaced by `replace(its number)`. */
function withTexts(plan: PagePlan, structural: ReadonlySet<string>, shared: Shared, replace: (n: number) => string): PagePlan {
  const numbering = new Numbering();
  return { ...walk(plan, structural, shared, (value, path) => replace(numbering.number(value, path, fieldOf(path), inListOf(path)))), file: plan.file };
}

/** The paths where the texts numbered `wanted` (all when undefined) are. */
function pathsOf(plan: PagePlan, structural: ReadonlySet<string>, shared: Shared, wanted: ReadonlySet<number> | undefined): string[] {
  const numbering = new Numbering();
  const paths: string[] = [];
  walk(plan, structural, shared, (value, path) => {
    if (!wanted || wanted.has(numbering.number(value, path, fieldOf(path), inListOf(path)))) paths.push(path);
    return value;
  });
  return paths;
}
