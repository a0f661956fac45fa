/**
 * Live previews with the site's own templates: the CMS entry being typed replaces the content part
 * of a page body the build planned (generator/backOffice/backOffice.ts), and CityPage / ServicePage
 * / ArticlePage draw it exactly as the build does, styled by the build's stylesheet. Fields not
 * filled in yet show as empty; a picture not uploaded yet shows as the default hero image. An
 * article's Markdown is rendered here, while typing, by the build's own renderer
 * (contracts/articleMarkdown.ts, which imports nothing of Node's).
 * A translated city or service is drawn from its own language's planned page (its texts, its
 * addresses, <html lang>), and a switch above it shows the English original it translates instead.
 */
import { Component, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ArticlesIndex, CityPageContent, Service } from '../../contracts/content.js';
import { DEFAULT_LANGUAGE, type Lang } from '../../contracts/languages.js';
import type { ImageRef, PageBody } from '../../contracts/pages.js';
import { articleRoute, tagRoute, tagSlug } from '../../contracts/routes.js';
import { parseZoned } from '../../contracts/zonedTime.js';
import { readingMinutes, renderArticleMarkdown } from '../../contracts/articleMarkdown.js';
import { fill } from '../../contracts/fill.js';
import { ArticlePage } from '../../templates/pages/ArticlePage.js';
import { CityPage } from '../../templates/pages/CityPage.js';
import { ServicePage } from '../../templates/pages/ServicePage.js';
import { CITY_MARK } from './settings.js';
import { TWIN_FIELD } from './translations.js';

type CityBody = Extract<PageBody, { kind: 'city' }>;
type ServiceBody = Extract<PageBody, { kind: 'service' }>;
export type ArticleBody = Extract<PageBody, { kind: 'article' }>;

/** What the article preview needs of the build besides the images (PreviewContext.article). */
export interface ArticlePreviewContext {
  /**
   * An article page as the real planner plans it (a stand-in article's): the preview keeps its
   * call to action, related cards and breadcrumb label, and puts in everything the entry says.
   */
  route: string;
  body: ArticleBody;
  /** articles.yaml: the texts of an article page, and the rel of links to other sites. */
  texts: ArticlesIndex['article'];
  externalRel: string;
  /** The site's origin (links to it are the site's own), and the business's time zone (site.yaml's hours.timeZone). */
  origin: string;
  timeZone: string;
}

/** One language's pages as the build planned them from that language's model. */
export interface PagesPreview {
  /** The pages' <html lang> (es-US). */
  htmlLang: string;
  /** The language's name in itself (site.yaml's language.name: Español), for the switch between a translation and its original. */
  name: string;
  closeLabel: string;
  /** Where the templates' own booking buttons lead in this language (ROUTE_TABLES: /book-online, /es/reservar). */
  bookOnline: string;
  /** A city page planned for a city named CITY_MARK: the name typed replaces the mark. */
  city: { route: string; body: CityBody };
  /** Each service page as planned, by file name (a translated service's is its English twin's). */
  services: Record<string, { route: string; body: ServiceBody }>;
  /** What a city without a name yet is called in the preview. */
  unnamedCity: string;
}

export interface PreviewContext {
  /** The site's stylesheet. */
  css: string;
  /** The web font's @font-face rule (pages add it with a script; see generator/assets/fonts.ts). */
  fontCss: string;
  /** The processed images, by their path under content/images/ (one folder for every language). */
  images: Record<string, ImageRef>;
  /** For the articles' preview (English only). */
  article: ArticlePreviewContext;
  /** The default language's pages and each translation's. */
  pages: Partial<Record<Lang, PagesPreview>>;
}

/**
 * The data of an English file (content/cities/colma.yaml) as the backend has it now: null when
 * there is no such file, undefined when it cannot be read (cms/app/repoFiles.ts).
 */
export type EnglishOriginals = (file: string) => Promise<Record<string, unknown> | null | undefined>;

let context: PreviewContext | undefined;
let originals: EnglishOriginals | undefined;
export const setPreviewContext = (ctx: PreviewContext, english?: EnglishOriginals) => {
  context = ctx;
  originals = english;
};

interface ImmutableLike { toJS(): unknown }
interface PreviewProps {
  entry: { get(key: string): ImmutableLike | string | boolean | undefined };
  getAsset: (path: string, field?: unknown) => { toString(): string } | undefined;
  fieldsMetaData?: unknown;
}

const dataOf = (entry: PreviewProps['entry']) => ((entry.get('data') as ImmutableLike | undefined)?.toJS?.() ?? {}) as Record<string, unknown>;
const texts = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '')) : []);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** A processed image, else the uploaded file as it is, else the fallback (the page's default picture). */
function imageOf(name: unknown, fallback: ImageRef, getAsset: PreviewProps['getAsset']): ImageRef {
  if (typeof name !== 'string' || !name) return fallback;
  const processed = context?.images[name];
  if (processed) return processed;
  const url = getAsset(name)?.toString();
  return url ? { src: url, width: fallback.width, height: fallback.height } : fallback;
}

/** Replace the city mark in every text of the planned body (JSON-escaped, so any name is safe). */
function withCityName<T>(value: T, name: string): T {
  const escaped = JSON.stringify(name).slice(1, -1);
  return JSON.parse(JSON.stringify(value).split(CITY_MARK).join(escaped)) as T;
}

class PreviewBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <p className="p-8 text-lg">The preview appears once the required fields are filled in.</p> : this.props.children;
  }
}

/**
 * A page in its language: the wrapper says it (lang), and so does the preview frame's <html>, as
 * the built page's does (screen readers and hyphenation follow it).
 */
function InLanguage({ lang, children }: { lang: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.ownerDocument.documentElement.setAttribute('lang', lang);
  }, [lang]);
  return <div ref={ref} lang={lang}>{children}</div>;
}

/** The city page of `data` (a city file's fields), drawn from one language's planned city page. */
export function cityPageOf(pages: PagesPreview, data: Record<string, unknown>, getAsset: PreviewProps['getAsset']): ReactNode {
  const page = (data.page ?? {}) as Record<string, unknown>;
  const name = str(data.name).trim() || pages.unnamedCity;
  const { route, body } = withCityName(pages.city, name);
  const content: CityPageContent = {
    seoDescription: str(page.seoDescription),
    tagline: str(page.tagline),
    intro: texts(page.intro),
    benefits: texts(page.benefits),
    faqs: (Array.isArray(page.faqs) ? page.faqs : []).map((f: { question?: unknown; answer?: unknown } | null) => ({ question: str(f?.question), answer: str(f?.answer) })),
  };
  return (
    <InLanguage lang={pages.htmlLang}>
      <PreviewBoundary>
        <CityPage {...body} name={name} content={content} heroImage={imageOf(page.heroImage, body.heroImage, getAsset)} route={route} closeLabel={pages.closeLabel} bookOnline={pages.bookOnline} />
      </PreviewBoundary>
    </InLanguage>
  );
}

/** The service page of file `slug` with `data` (a service file's fields), drawn from one language's planned page of it. */
export function servicePageOf(pages: PagesPreview, slug: string, data: Record<string, unknown>, getAsset: PreviewProps['getAsset']): ReactNode {
  const planned = pages.services[slug] ?? Object.values(pages.services)[0];
  if (!planned) return null;
  const { [TWIN_FIELD]: _original, ...fields } = data;
  const service = { ...planned.body.service, ...fields } as Service;
  return (
    <InLanguage lang={pages.htmlLang}>
      <PreviewBoundary>
        <ServicePage {...planned.body} service={service} heroImage={imageOf(service.hero?.image, planned.body.heroImage, getAsset)} route={planned.route} closeLabel={pages.closeLabel} bookOnline={pages.bookOnline} />
      </PreviewBoundary>
    </InLanguage>
  );
}

type Kind = 'city' | 'service';
const FOLDERS: Record<Kind, string> = { city: 'cities', service: 'services' };

/** The file name of the entry: the saved one, else (a new translation) the English original chosen. */
const fileNameOf = (entry: PreviewProps['entry'], data: Record<string, unknown>) => String(entry.get('slug') || '') || str(data[TWIN_FIELD]);

/**
 * A translated entry's preview: its own page, and a switch to the English original it translates
 * (read from the backend as it is now; a service not readable shows its page as the build planned it).
 */
function Translation({ kind, slug, own, names, english }: {
  kind: Kind; slug: string; own: ReactNode; names: [string, string]; english: (data: Record<string, unknown> | undefined) => ReactNode;
}) {
  const [showing, setShowing] = useState<'own' | 'english'>('own');
  const [original, setOriginal] = useState<{ slug: string; data: Record<string, unknown> | null | undefined } | undefined>(undefined);
  useEffect(() => {
    if (showing !== 'english' || !slug || original?.slug === slug || !originals) return;
    let current = true;
    void originals(`content/${FOLDERS[kind]}/${slug}.yaml`).catch(() => undefined).then((data) => {
      if (current) setOriginal({ slug, data });
    });
    return () => {
      current = false;
    };
  }, [showing, slug, kind, original]);
  const loaded = original?.slug === slug ? original.data : undefined;
  const shown = showing === 'own'
    ? own
    : !slug
      ? <p className="p-8 text-lg">Choose the English original first (its first field).</p>
      : original?.slug !== slug
        ? <p className="p-8 text-lg">Reading the English original…</p>
        : loaded === null
          ? <p className="p-8 text-lg">{`There is no English ${kind} content/${FOLDERS[kind]}/${slug}.yaml.`}</p>
          : english(loaded ?? undefined);
  const button = (which: 'own' | 'english', label: string) => (
    <button type="button" aria-pressed={showing === which} onClick={() => setShowing(which)}
      className={`rounded-md border px-3 py-1 ${showing === which ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 bg-white text-slate-900'}`}>
      {label}
    </button>
  );
  return (
    <>
      <div lang="en" className="sticky top-0 z-50 flex items-center gap-2 border-b border-slate-200 bg-white px-4 py-2 text-sm">
        <span>Preview:</span>
        {button('own', names[0])}
        {button('english', names[1])}
      </div>
      {shown}
    </>
  );
}

/** The preview of a city in `lang`: the template registered for its collection (cms/app/main.tsx). */
export function cityPreview(lang: Lang) {
  return function CityPreview({ entry, getAsset }: PreviewProps) {
    const pages = context?.pages[lang];
    if (!pages) return null;
    const data = dataOf(entry);
    const own = cityPageOf(pages, data, getAsset);
    const english = context?.pages[DEFAULT_LANGUAGE];
    if (lang === DEFAULT_LANGUAGE || !english) return own;
    return (
      <Translation kind="city" slug={fileNameOf(entry, data)} own={own} names={[pages.name, `${english.name} original`]}
        english={(original) => (original ? cityPageOf(english, original, getAsset) : <p className="p-8 text-lg">The English original could not be read.</p>)} />
    );
  };
}

/** The preview of a service in `lang`. */
export function servicePreview(lang: Lang) {
  return function ServicePreview({ entry, getAsset }: PreviewProps) {
    const pages = context?.pages[lang];
    if (!pages) return null;
    const data = dataOf(entry);
    const slug = fileNameOf(entry, data);
    const own = servicePageOf(pages, slug, data, getAsset);
    const english = context?.pages[DEFAULT_LANGUAGE];
    if (lang === DEFAULT_LANGUAGE || !english) return own;
    return (
      <Translation kind="service" slug={slug} own={own} names={[pages.name, `${english.name} original`]}
        english={(original) => servicePageOf(english, slug, original ?? {}, getAsset)} />
    );
  };
}

export const CityPreview = cityPreview(DEFAULT_LANGUAGE);
export const ServicePreview = servicePreview(DEFAULT_LANGUAGE);

/** A template's {name} filled in, as the planner's fill (generator/plan/context.ts) does it. */

/** A picture by its path under content/images/: as the build processed it, else the file uploaded in this session (sizes unknown: the stylesheet keeps its proportions). */
function pictureOf(path: string, getAsset: PreviewProps['getAsset'], publicPath = path): ImageRef | undefined {
  const processed = context?.images[path];
  if (processed) return processed;
  const url = getAsset(publicPath)?.toString();
  return url ? { src: url, width: 1200, height: 800 } : undefined;
}

/** What the article entry being typed says, as the planner would make its page body of it (generator/collections/articles.ts). */
export function articleBodyOf(
  ctx: ArticlePreviewContext, entry: { slug: string; data: Record<string, unknown> }, image: (path: string, publicPath?: string) => ImageRef | undefined, now = Date.now(),
): ArticleBody {
  const { texts: labels, timeZone, body: planned } = ctx;
  const { data } = entry;
  const dates = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone });
  const title = str(data.title);
  const text = str(data.body);
  const published = parseZoned(str(data.date), timeZone);
  const updated = str(data.updated) ? parseZoned(str(data.updated), timeZone) : undefined;
  const seen = new Set<string>();
  const tags = texts(data.tags).map((name) => ({ name, slug: tagSlug(name) })).filter((t) => t.slug && !seen.has(t.slug) && seen.add(t.slug));
  const rendered = renderArticleMarkdown(text, { origin: ctx.origin, externalRel: ctx.externalRel, image: (p) => image(p, `/images/${p}`) });
  const picture = data.image as { src?: unknown; alt?: unknown } | undefined;
  const pictureRef = str(picture?.src) ? image(str(picture?.src)) : undefined;
  const minutes = readingMinutes(text);
  const mark = data.draft === true ? labels.draft : published && published.time > now ? fill(labels.scheduled, { date: dates.format(published.time) }) : undefined;
  const crumbs = planned.breadcrumbs.slice(0, -1);
  const { toc: _toc, image: _image, updated: _updated, mark: _mark, ...rest } = planned;
  return {
    ...rest,
    title,
    published: { label: labels.published, iso: published?.iso ?? '', text: published ? dates.format(published.time) : '' },
    ...(updated && { updated: { label: labels.updated, iso: updated.iso, text: dates.format(updated.time) } }),
    readingTime: fill(labels.readingTime, { minutes: String(minutes) }),
    author: { label: labels.by, name: str(data.author) },
    tags: { label: labels.tags, items: tags.map((t) => ({ name: t.name, href: tagRoute(t.slug) })) },
    html: rendered.html,
    ...(rendered.headings.filter((h) => h.depth === 2).length >= labels.tocMinHeadings && { toc: { heading: labels.toc, items: rendered.headings } }),
    ...(pictureRef && { image: { ...pictureRef, alt: str(picture?.alt) } }),
    breadcrumbs: [...crumbs, { name: title, href: entry.slug ? articleRoute(entry.slug) : ctx.route }],
    ...(mark && { mark }),
  };
}

export function ArticlePreview({ entry, getAsset }: PreviewProps) {
  const body = articleBodyOf(context!.article, { slug: String(entry.get('slug') ?? ''), data: dataOf(entry) }, (path, publicPath) => pictureOf(path, getAsset, publicPath));
  return (
    <PreviewBoundary>
      <ArticlePage {...body} />
    </PreviewBoundary>
  );
}
