/**
 * An article's Markdown body as the HTML its page shows, and what a build refuses in it.
 *
 * The body is written by office staff through the CMS: input from outside. So raw HTML is never
 * passed through (html: false escapes it as text), links go only where an allowlist says, pictures
 * come only from the site's own image pipeline, and whatever the renderer had to drop (a link shown
 * as its bare text, a picture shown as its alt text) is also a problem the build stops on, at its
 * line: the page never silently differs from what the author wrote.
 */
import markdownIt from 'markdown-it';
import type { MarkdownIt, StateCore, StateInline, Token } from 'markdown-it';

/** markdown-it's environment: whatever a parse carries from rule to rule. */
type Env = Record<string, unknown>;
import type { ImageRef, TocItem } from './pages.js';

export interface MarkdownOptions {
  /** The site's origin without trailing slash (https://example.com): absolute links to it are the site's own, written root-relative. */
  origin: string;
  /** A picture by its path under content/images/ (e.g. "articles/photo-1.jpg"), as the site's image pipeline made it; undefined when there is none. */
  image(path: string): ImageRef | undefined;
  /** The rel every link to another site gets (the site's policy, from content), e.g. "noopener noreferrer". */
  externalRel: string;
}

export interface ArticleMarkdown {
  /** Sanitized HTML. */
  html: string;
  /** The h2 and h3 headings in order with their ids: the table of contents. */
  headings: TocItem[];
}

/** What a build refuses in a body, each at its line (1-based, counted in the body) and column when known. */
export interface MarkdownProblem { line: number; column?: number; message: string; hint: string }

// ── Policy shared by the renderer and the check ─────────────────────────────────────────────────

/**
 * Where a link may go: an allowlist, not markdown-it's blocklist, because browsers forgive too much
 * in a scheme (case, entities, tabs inside it) for a blocklist to be complete. Tested on the href as
 * markdown-it normalizes it (entities decoded, then percent-encoded), so "java&#x09;script:" arrives
 * as "java%09script:" and matches nothing here. "/\host" and "/%5Chost" are refused: browsers read a
 * backslash as a slash, which makes them "//host", another site.
 */
const SAFE_HREF = /^(?:#|\/(?![/\\]|%5c)|https?:|mailto:|tel:)/i;
const allowedHref = (href: string): boolean => SAFE_HREF.test(href);

/** The path under content/images/ that a picture's src names, or undefined when it names none. */
function imagePath(src: string): string | undefined {
  const m = /^\/images\/([^?#]+)$/.exec(src);
  if (!m) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
  // The check hands this path to the disk: nothing that climbs out of content/images/.
  return !path.includes('\\') && path.split('/').every((s) => s !== '' && s !== '.' && s !== '..') ? path : undefined;
}

/** Words as a reader sees them: a heading's or alt's text, with code and the alt of a picture inside. */
function plainText(tokens: readonly Token[]): string {
  let text = '';
  for (const t of tokens) {
    if (t.type === 'text' || t.type === 'code_inline') text += t.content;
    else if (t.type === 'softbreak' || t.type === 'hardbreak') text += ' ';
    else if (t.type === 'image') text += plainText(t.children ?? []);
  }
  return text.trim();
}

const attr = (token: Token, name: string): string => String(token.attrGet(name) ?? '');

function options(html: boolean): MarkdownIt {
  // The default preset: CommonMark with GFM tables and strikethrough.
  return withFasterRules(new markdownIt({ html, linkify: false, typographer: false }));
}

/** The parser with two of markdown-it's rules done faster, to the same tokens (tests/generator/markdown.test.ts compares them). */
export function withFasterRules(parser: MarkdownIt): MarkdownIt {
  parser.inline.ruler.at('text', plainTextRun);
  parser.core.ruler.at('normalize', normalizeLines);
  return parser;
}

/**
 * markdown-it's own `text` rule, its characters found by one sticky regex instead of a loop over
 * charCodeAt: a third of a build's Markdown parse was that loop. The same terminators as
 * markdown-it 14's rules_inline/text.mjs (anything another inline rule may start with).
 */
const TEXT_RUN = /[^\n!#$%&*+\-:<=>@[\\\]^_`{}~]+/y;
function plainTextRun(state: StateInline, silent: boolean): boolean {
  TEXT_RUN.lastIndex = state.pos;
  if (!TEXT_RUN.test(state.src)) return false;
  // A link's label is parsed with posMax at its "]": never past it.
  const end = Math.min(TEXT_RUN.lastIndex, state.posMax);
  if (end <= state.pos) return false;
  if (!silent) state.pending += state.src.slice(state.pos, end);
  state.pos = end;
  return true;
}

/** markdown-it's `normalize` (line endings to \n, NUL to U+FFFD), without rewriting every \n as \n. */
function normalizeLines(state: StateCore): void {
  let src = state.src;
  if (src.includes('\r')) src = src.replace(/\r\n?/g, '\n');
  if (src.includes('\0')) src = src.replace(/\0/g, '\uFFFD');
  state.src = src;
}

// ── Rendering ───────────────────────────────────────────────────────────────────────────────────

interface RenderEnv extends Env { opts: MarkdownOptions; host: string; headings: TocItem[] }

const md = options(false);
// A refused link is left as its bare text, "[words](javascript:…)": visible, so nothing hides it.
md.validateLink = allowedHref;
const escape = md.utils.escapeHtml;

/**
 * Ids the article page has besides the body's (templates/layout, templates/pages/ArticlePage.tsx):
 * a heading "Main" must not take id="main", which the skip link goes to. Keep in step with them.
 */
const PAGE_IDS = ['main', 'page-scripts', 'site-drawer', 'footer-quick', 'footer-services', 'article-toc-heading', 'article-related-heading', 'article-cta-heading'];

/** github-style: lowercase, punctuation dropped, spaces to hyphens ("What’s in a deep clean?" → whats-in-a-deep-clean). */
const slug = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-') || 'section';

/** The root-relative form of a link to the site itself (so the site's link check sees it), else undefined. */
function ownPath(href: string, host: string): string | undefined {
  if (!/^https?:/i.test(href)) return undefined;
  try {
    const url = new URL(href);
    // Either scheme: an old http:// link to the site is still the site's.
    return url.host === host ? url.pathname + url.search + url.hash : undefined;
  } catch {
    return undefined;
  }
}

md.core.ruler.push('article_policy', (state) => {
  const env = state.env as RenderEnv;
  const tokens = state.tokens;
  // The page's h1 is the title: a body that uses # has its sections one level down.
  const shift = tokens.some((t) => t.type === 'heading_open' && t.tag === 'h1') ? 1 : 0;
  const ids = new Set(PAGE_IDS);
  const tables = tokens.filter((t) => t.type === 'table_open');
  tables.forEach((t, i) => { t.meta = { label: tables.length > 1 ? `Table ${i + 1}` : 'Table' }; });
  tokens.forEach((t, i) => {
    const inline = tokens[i + 1];
    if (t.type === 'heading_open' || t.type === 'heading_close') t.tag = `h${Math.min(6, Number(t.tag.slice(1)) + shift)}`;
    if (t.type === 'heading_open' && (t.tag === 'h2' || t.tag === 'h3') && inline) {
      const text = plainText(inline.children ?? []);
      const base = slug(text);
      let id = base;
      for (let n = 1; ids.has(id); n++) id = `${base}-${n}`;
      ids.add(id);
      t.attrSet('id', id);
      env.headings.push({ id, text, depth: t.tag === 'h2' ? 2 : 3 });
    }
    // A picture alone in its paragraph is a figure, not a paragraph of text.
    if (t.type === 'paragraph_open' && inline?.children?.length === 1 && inline.children[0]!.type === 'image') {
      t.tag = 'figure';
      tokens[i + 2]!.tag = 'figure';
    }
    // A table column's alignment as data, which the page's stylesheet draws: pages carry no inline style.
    if ((t.type === 'th_open' || t.type === 'td_open') && t.attrGet('style')) {
      const align = /text-align:(left|center|right)/.exec(attr(t, 'style'))?.[1];
      t.attrs = (t.attrs ?? []).filter(([name]) => name !== 'style');
      if (align) t.attrSet('data-align', align);
    }
    if (t.type !== 'inline') return;
    for (const link of t.children ?? []) {
      if (link.type !== 'link_open') continue;
      const href = attr(link, 'href');
      const own = ownPath(href, env.host);
      // "https://site//evil.com" must not become "//evil.com", which is another site: it stays absolute.
      if (own !== undefined && !own.startsWith('//')) link.attrSet('href', own);
      else if (own === undefined && /^https?:/i.test(href)) link.attrSet('rel', env.opts.externalRel);
    }
  });
});

// Sizes as templates/components/Picture.tsx writes them: on the sources, since an img without a
// srcset may not have sizes. 720px is the article column (max-w-3xl less its padding).
const SIZES = '(min-width: 768px) 720px, 100vw';

md.renderer.rules.image = (tokens, idx, _options, env) => {
  const token = tokens[idx]!;
  const alt = plainText(token.children ?? []);
  const path = imagePath(attr(token, 'src'));
  const image = path === undefined ? undefined : (env as RenderEnv).opts.image(path);
  // Never a picture from elsewhere, nor a broken one: its description stands in (and the build stops on it).
  if (!image) return escape(alt);
  const img = `<img src="${escape(image.src)}" alt="${escape(alt)}" width="${image.width}" height="${image.height}" loading="lazy" decoding="async">`;
  const sources = ([['image/avif', image.avifSrcSet], ['image/webp', image.webpSrcSet]] as const)
    .filter(([, set]) => set)
    .map(([type, set]) => `<source type="${type}" srcset="${escape(set!)}" sizes="${SIZES}">`);
  return sources.length ? `<picture>${sources.join('')}${img}</picture>` : img;
};

// A wide table scrolls inside its own box on a phone; the box takes focus so a keyboard can scroll
// it (axe: scrollable-region-focusable), and its name tells one table from another.
md.renderer.rules.table_open = (tokens, idx) =>
  `<div class="table-scroll" role="region" aria-label="${escape((tokens[idx]!.meta as { label: string }).label)}" tabindex="0">\n<table>\n`;
md.renderer.rules.table_close = () => '</table>\n</div>\n';

export function renderArticleMarkdown(body: string, opts: MarkdownOptions): ArticleMarkdown {
  const env: RenderEnv = { opts, host: new URL(opts.origin).host, headings: [] };
  const html = md.render(body, env);
  return { html, headings: env.headings };
}

// ── Problems ────────────────────────────────────────────────────────────────────────────────────

const RAW_HTML = { message: 'raw HTML is not allowed in an article', hint: "write it in Markdown; the editor's toolbar has headings, lists, links and pictures" };
const LINK_HINT = 'links go to a page of the site (/contact), or to https://…';
const PICTURE_HINT = "add the picture with the editor's picture button: it is stored in content/images/";

/**
 * A second parser that sees what the first one drops: raw HTML as html tokens, and links of every
 * address (the render's allowlist is applied here, to report them). Its inline tokens remember where
 * in their block they start, for the line (and column) of each problem.
 */
const checker = options(true);
const startOf = new WeakMap<Token, number>();
const CHECKED = new Set(['html_inline', 'link_open', 'image']);
checker.inline.State = class extends checker.inline.State {
  override push(...args: Parameters<StateInline['push']>): Token {
    const token = super.push(...args);
    // At push time, pos is where the token's markup starts (for a link: just after its "[").
    if (CHECKED.has(args[0])) startOf.set(token, this.pos);
    return token;
  }
};

/**
 * A reference definition "[x]: javascript:…" leaves no token: the render refuses it (it shows as
 * text), and so does the check, noting its line. Only the block phase validates definitions, so
 * this note is taken only while block rules run.
 */
interface Refused { line: number; href: string }
let definitions: { line: number; refused: Refused[] } | undefined;
checker.core.ruler.before('block', 'definitions_start', (state) => { definitions = { line: 0, refused: state.env.refused as Refused[] }; });
checker.core.ruler.after('block', 'definitions_end', () => { definitions = undefined; });
checker.block.ruler.before('reference', 'definition_line', (_state, startLine) => {
  if (definitions) definitions.line = startLine;
  return false;
});
checker.validateLink = (href) => {
  if (!definitions || allowedHref(href)) return true;
  definitions.refused.push({ line: definitions.line, href });
  return false;
};

function linkProblem(href: string): string {
  // As a browser reads it: entities and percent-escapes decoded, spaces and controls dropped.
  const read = checker.normalizeLinkText(href).replace(/[\x00-\x20]/g, '');
  const scheme = /^([a-z][a-z\d+.-]*):/i.exec(read)?.[1];
  if (scheme) return `link to a ${scheme.toLowerCase()}: address`;
  return read === '' ? 'link without an address' : `link to ${short(read)}, which is neither a page of the site nor https://…`;
}

const short = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}…` : s);

export function markdownProblems(body: string, imageExists: (path: string) => boolean): MarkdownProblem[] {
  return plainlyFine(body, imageExists) ? [] : allProblems(body, imageExists);
}

/** Inline links and pictures as most bodies write them: [words](address) and ![words](address). */
const INLINE_LINK = /(!?)\[([^\[\]\n]*)\]\(([^()\s<>]*)\)/g;

/**
 * Whether a body plainly holds none of what the check refuses, without parsing it: no "<" (raw
 * HTML and autolinks start with one), no reference definition, no bracket outside a simple inline
 * link, and every inline link and picture allowed. Most bodies are like this, and the parse the
 * check needs costs as much as the render: anything unusual is left to it, never judged here.
 */
function plainlyFine(body: string, imageExists: (path: string) => boolean): boolean {
  // A reference definition has "]:" ("[label]: address"); the line-anchored search only when there is one.
  if (body.includes('<') || (body.includes(']:') && /^ {0,3}\[[^\]]*\]:/m.test(body))) return false;
  let brackets = 0;
  for (const [whole, bang, words, href] of body.matchAll(INLINE_LINK)) {
    brackets += whole.split('[').length - 1;
    if (!/[\p{L}\p{N}]/u.test(words!)) return false;
    if (bang) {
      const path = imagePath(href!);
      if (path === undefined || !imageExists(path)) return false;
    } else if (!allowedHref(href!) || /[\\%&]/.test(href!)) {
      return false;
    }
  }
  // A "[" that is not one of those links could be another kind of link: let the parse decide.
  return brackets === body.split('[').length - 1;
}

function allProblems(body: string, imageExists: (path: string) => boolean): MarkdownProblem[] {
  const problems: MarkdownProblem[] = [];
  const env: Env & { refused: Refused[] } = { refused: [] };
  const tokens = checker.parse(body, env);
  const lines = body.split(/\r\n?|\n/);
  for (const { line, href } of env.refused) problems.push({ line: line + 1, message: linkProblem(href), hint: LINK_HINT });

  let blockLine = 0;
  for (const block of tokens) {
    // Table cells have no line of their own: they are on their row's.
    if (block.map) blockLine = block.map[0];
    if (block.type === 'html_block') problems.push({ line: blockLine + 1, ...RAW_HTML });
    if (block.type !== 'inline') continue;
    const content = block.content;
    // Where the block's lines start, found at its first problem: a body made of thousands of
    // problems is still checked in linear time.
    let breaks: number[] | undefined;
    const indentOf = new Map<number, number | undefined>();
    const at = (token: Token, offset = 0): Pick<MarkdownProblem, 'line' | 'column'> => {
      const pos = (startOf.get(token) ?? 0) + offset;
      breaks ??= [...content.matchAll(/\n/g)].map((m) => m.index);
      let before = 0; // newlines before pos
      for (let hi = breaks.length; before < hi;) {
        const mid = (before + hi) >> 1;
        if (breaks[mid]! < pos) before = mid + 1;
        else hi = mid;
      }
      const line = blockLine + before;
      const lineStart = before ? breaks[before - 1]! + 1 : 0;
      if (!indentOf.has(before)) {
        // A column only when the block's line is the source line less a prefix (indent, "> ", "- "):
        // a table cell, or a heading's closing #s, would give a wrong one.
        const text = content.slice(lineStart, breaks[before] ?? content.length);
        const source = lines[line] ?? '';
        const tail = source.endsWith(text) ? source : source.trimEnd();
        indentOf.set(before, block.map && tail.endsWith(text) ? tail.length - text.length : undefined);
      }
      const indent = indentOf.get(before);
      return indent === undefined ? { line: line + 1 } : { line: line + 1, column: indent + pos - lineStart + 1 };
    };
    const children = block.children ?? [];
    children.forEach((t, i) => {
      if (t.type === 'html_inline') problems.push({ ...at(t), ...RAW_HTML });
      if (t.type === 'link_open') {
        const where = at(t, t.markup === 'autolink' ? 0 : -1);
        const href = attr(t, 'href');
        if (!allowedHref(href)) problems.push({ ...where, message: linkProblem(href), hint: LINK_HINT });
        let close = i + 1;
        while (close < children.length && children[close]!.type !== 'link_close') close++;
        if (!plainText(children.slice(i + 1, close))) {
          problems.push({ ...where, message: 'a link needs words that say where it goes', hint: 'write them between the brackets: [our prices](/pricing)' });
        }
      }
      if (t.type === 'image') {
        const where = at(t);
        const src = attr(t, 'src');
        const path = imagePath(src);
        if (/^(?:[a-z][a-z\d+.-]*:)?\/\//i.test(src)) {
          problems.push({ ...where, message: 'pictures come from content/images/, not from another site', hint: PICTURE_HINT });
        } else if (path === undefined || !imageExists(path)) {
          problems.push({ ...where, message: `picture ${short(checker.normalizeLinkText(src)) || '(no address)'} is not in content/images/`, hint: PICTURE_HINT });
        }
        if (!plainText(t.children ?? [])) {
          problems.push({ ...where, message: 'a picture needs a description for readers who cannot see it', hint: 'write what it shows between the brackets: ![a tidy kitchen after a deep clean](/images/…)' });
        }
      }
    });
  }
  // A refused definition "[r]: <javascript:…>" is also an autolink in its paragraph: one report of it.
  const placed = new Set(problems.filter((p) => p.column !== undefined).map((p) => `${p.line} ${p.message}`));
  return problems
    .filter((p) => p.column !== undefined || !placed.has(`${p.line} ${p.message}`))
    .sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
}

/** Words a minute an adult reads on a screen (the common estimate Hugo's .ReadingTime uses). */
const WORDS_PER_MINUTE = 213;

/** An article's reading time in whole minutes, at least one: the build's cards and the content manager's preview. */
export const readingMinutes = (body: string): number => Math.max(1, Math.round(wordCount(body) / WORDS_PER_MINUTE));

/** Letters and digits: ASCII ones, and those past Latin-1's symbols but not the punctuation blocks (dashes, quotes). */
const isWordChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 0xc0 && c !== 0xd7 && c !== 0xf7 && !(c >= 0x2000 && c <= 0x2bff) && !(c >= 0x3000 && c <= 0x303f));
/** An apostrophe, period, comma or hyphen between two letters joins them ("don't", "3.5", "well-known"). */
const JOINERS = [39, 0x2019, 46, 44, 45];
/** What each character is to the count: a space, a word's, or one that needs a look around it (a line break, "!", "]", a joiner). */
const SPACE = 0;
const WORD = 1;
const SPECIAL = 2;
const CHAR_CLASS = Uint8Array.from({ length: 65536 }, (_, c) => (c === 10 || c === 33 || c === 93 || JOINERS.includes(c) ? SPECIAL : isWordChar(c) ? WORD : SPACE));

/** Where the count goes on from the start of a line, `i`: past a reference definition, "[label]: address" after up to three spaces (not read), at its line's end. */
function afterReference(body: string, i: number): number {
  const c = body.charCodeAt(i);
  if (c !== 91 && c !== 32) return i;
  let j = i;
  while (j < i + 3 && body.charCodeAt(j) === 32) j++;
  if (body.charCodeAt(j) !== 91) return i;
  const close = body.indexOf(']', j);
  if (close <= j + 1 || body.charCodeAt(close + 1) !== 58) return i;
  const nl = body.indexOf('\n', j);
  if (nl >= 0 && close > nl) return i;
  return nl < 0 ? body.length : nl;
}

/**
 * Words of the body as a reader reads them (for the reading time). Must be cheap: one pass over the
 * characters, no parse (a build counts every article's words), and no branch on whether a word
 * starts, which the processor mispredicts at every other space. Pictures, link addresses and
 * reference definitions are not read; "don't", "3.5" and "well-known" are one word each.
 */
export function wordCount(body: string): number {
  const n = body.length;
  let words = 0;
  let inWord = 0;
  for (let i = afterReference(body, 0); i < n; i++) {
    const c = body.charCodeAt(i);
    const k = CHAR_CLASS[c]!;
    if (k !== SPECIAL) {
      words += k & (inWord ^ 1);
      inWord = k;
      continue;
    }
    if (c === 10) {
      i = afterReference(body, i + 1) - 1;
    } else if (c === 33) {
      // A picture, "![…](…)", is not read: skipped to its "]" (its address then goes below).
      if (body.charCodeAt(i + 1) === 91) {
        const end = body.indexOf(']', i);
        if (end > 0) i = end - 1;
      }
    } else if (c === 93) {
      // "](" starts an address: skipped to its ")".
      if (body.charCodeAt(i + 1) === 40) {
        const end = body.indexOf(')', i);
        if (end > 0) i = end;
      }
    } else {
      inWord &= CHAR_CLASS[body.charCodeAt(i + 1)] === WORD ? 1 : 0;
      continue;
    }
    inWord = 0;
  }
  return words;
}
