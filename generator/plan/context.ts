/** What every page kind's planner shares: the model, addresses, images, the business node, common pieces. */
import type { HomeAndConstructionBusiness } from 'schema-dts';
import type { ServiceEntry, SiteModel } from '../../contracts/content.js';
import type { Breadcrumb, ImageRef, Layout, PageBody, PageHead, PagePlan, ReviewsProps, ServiceCard } from '../../contracts/pages.js';
import { fileForRoute, ROUTES } from '../../contracts/routes.js';
import { business, webPage, type Node } from './jsonld.js';

export interface PlanOptions {
  /** Production origin without trailing slash (SITE_URL, else site.siteUrl). */
  origin: string;
  images: ReadonlyMap<string, ImageRef>;
  assets: Layout['assets'];
  year: number;
}

export const fill = (template: string, vars: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) => vars[key] ?? whole);

export class PlanContext {
  readonly origin: string;
  /** The business as structured data, built once; every indexed page carries it. */
  readonly business: Node<HomeAndConstructionBusiness>;
  readonly reviews: ReviewsProps;
  /** The first breadcrumb of every trail. */
  readonly homeCrumb: Breadcrumb;

  constructor(readonly model: SiteModel, private readonly opts: PlanOptions) {
    const { site } = model;
    this.origin = opts.origin;
    this.business = business(site, opts.origin, model.servedCities);
    this.reviews = {
      heading: site.reviews.heading, scriptUrl: site.reviews.scriptUrl, widgetId: site.reviews.widgetId, loading: site.reviews.loading,
      fallback: site.reviews.fallback, linkLabel: site.reviews.linkLabel, linkUrl: site.reviews.linkUrl,
    };
    this.homeCrumb = { name: site.labels.breadcrumbHome, href: ROUTES.home };
  }

  /** The canonical URL of a route. */
  url(route: string): string {
    return this.origin + (route === '/' ? '/' : route);
  }

  image(name: string): ImageRef {
    const ref = this.opts.images.get(name);
    if (!ref) throw new Error(`image ${name} was not processed`);
    return ref;
  }

  /** A page head; its JSON-LD is the business and the web page unless `extra` says otherwise. */
  head(route: string, title: string, description: string, extra: Partial<PageHead> = {}): PageHead {
    return { title, description, canonical: this.url(route), jsonLd: [this.business, webPage(title, description, this.url(route))], ...extra };
  }

  page(route: string, head: PageHead, body: PageBody): PagePlan {
    return { route, file: fileForRoute(route), head, body };
  }

  serviceCard(s: ServiceEntry): ServiceCard {
    return { name: s.name, href: s.route, icon: s.icon, summary: s.summary, included: s.included };
  }
}
