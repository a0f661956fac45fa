/**
 * Live previews with the site's own templates: the CMS entry being typed replaces the content part
 * of a page body the build planned (generator/backOffice/backOffice.ts), and CityPage / ServicePage draw it
 * exactly as the build does, styled by the build's stylesheet. Fields not filled in yet show as
 * empty; a picture not uploaded yet shows as the default hero image.
 */
import { Component, type ReactNode } from 'react';
import type { CityPageContent, Service } from '../../contracts/content.js';
import type { ImageRef, PageBody } from '../../contracts/pages.js';
import { CityPage } from '../../templates/pages/CityPage.js';
import { ServicePage } from '../../templates/pages/ServicePage.js';
import { CITY_MARK } from './settings.js';

type CityBody = Extract<PageBody, { kind: 'city' }>;
type ServiceBody = Extract<PageBody, { kind: 'service' }>;

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
