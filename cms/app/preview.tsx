/**
 * Live previews with the site's own templates: the CMS entry being typed replaces the content part
 * of a page body the build planned (generator/backOffice/backOffice.ts), and CityPage / ServicePage
 * / ArticlePage draw it exactly as the build does, styled by the build's stylesheet. Fields not
 * filled in yet show as empty; a picture not uploaded yet shows as the default hero image. An
 * article's Markdown is rendered here, while typing, by the build's own renderer
 * (contracts/articleMarkdown.ts, which imports nothing of Node's).
 */
import { Component, type ReactNode } from 'react';
import type { ArticlesIndex, CityPageContent, Service } from '../../contracts/content.js';
import type { ImageRef, PageBody } from '../../contracts/pages.js';
import { articleRoute, tagRoute, tagSlug } from '../../contracts/routes.js';
import { parseZoned } from '../../contracts/zonedTime.js';
import { readingMinutes, renderArticleMarkdown } from '../../contracts/articleMarkdown.js';
import { fill } from '../../contracts/fill.js';
import { ArticlePage } from '../../templates/pages/ArticlePage.js';
import { CityPage } from '../../templates/pages/CityPage.js';
import { ServicePage } from '../../templates/pages/ServicePage.js';
import { CITY_MARK } from './settings.js';

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

export interface PreviewContext {
  /** The site's stylesheet. */
  css: string;
  /** The web font's @font-face rule (pages add it with a script; see generator/assets/fonts.ts). */
  fontCss: string;
  closeLabel: string;
  /** A city page planned for a city named CITY_MARK: the name typed replaces the mark. */
  city: { route: string; body: CityBody };
  /** Each service page as planned, by slug. */
  services: Record<string, { route: string; body: ServiceBody }>;
  /** The processed images, by their path under content/images/. */
  images: Record<string, ImageRef>;
  /** What a city without a name yet is called in the preview. */
  unnamedCity: string;
  /** For the articles' preview. */
  article: ArticlePreviewContext;
}


let context: PreviewContext | undefined;
export const setPreviewContext = (ctx: PreviewContext) => { context = ctx; };

interface ImmutableLike { toJS(): unknown }
interface PreviewProps {
  entry: { get(key: string): ImmutableLike | string | undefined };
  getAsset: (path: string, field?: unknown) => { toString(): string } | undefined;
  fieldsMetaData?: unknown;
}

const dataOf = (entry: PreviewProps['entry']) => ((entry.get('data') as ImmutableLike | undefined)?.toJS() ?? {}) as Record<string, unknown>;
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

export function CityPreview({ entry, getAsset }: PreviewProps) {
  if (!context) return null;
  const data = dataOf(entry);
  const page = (data.page ?? {}) as Record<string, unknown>;
  const name = str(data.name).trim() || context.unnamedCity;
  const { route, body } = withCityName(context.city, name);
  const content: CityPageContent = {
    seoDescription: str(page.seoDescription),
    tagline: str(page.tagline),
    intro: texts(page.intro),
    benefits: texts(page.benefits),
    faqs: (Array.isArray(page.faqs) ? page.faqs : []).map((f: { question?: unknown; answer?: unknown } | null) => ({ question: str(f?.question), answer: str(f?.answer) })),
  };
  return (
    <PreviewBoundary>
      <CityPage {...body} name={name} content={content} heroImage={imageOf(page.heroImage, body.heroImage, getAsset)} route={route} closeLabel={context.closeLabel} />
    </PreviewBoundary>
  );
}

export function ServicePreview({ entry, getAsset }: PreviewProps) {
  if (!context) return null;
  const slug = String(entry.get('slug') ?? '');
  const planned = context.services[slug] ?? Object.values(context.services)[0];
  if (!planned) return null;
  const service = { ...planned.body.service, ...dataOf(entry) } as Service;
  return (
    <PreviewBoundary>
      <ServicePage {...planned.body} service={service} heroImage={imageOf(service.hero?.image, planned.body.heroImage, getAsset)} route={planned.route} closeLabel={context.closeLabel} />
    </PreviewBoundary>
  );
}


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
