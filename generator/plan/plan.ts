/** Stage: the site model → the list of pages (route, file, head, body) and the shared layout data. */
import type { SiteModel } from '../../contracts/content.js';
import type { Layout, PagePlan } from '../../contracts/pages.js';
import { fill, PlanContext, type PlanOptions } from './context.js';
import { PAGE_KINDS } from './pages.js';

export type { PlanOptions };

export function planLayout(model: SiteModel, opts: PlanOptions): Layout {
  const { site } = model;
  return {
    brand: site.brand.name,
    tagline: site.brand.tagline,
    phone: { display: site.phone.display, href: `tel:${site.phone.e164}` },
    email: site.email,
    locality: `${site.address.locality}, ${site.address.region}`,
    hours: site.hours.display,
    navigation: site.navigation,
    footer: { ...site.footer, copyrightText: fill(site.footer.copyright, { year: String(opts.year), brand: site.brand.name }) },
    services: model.services.map((s) => ({ name: s.name, href: s.route })),
    assets: opts.assets,
  };
}

/** A collection's pages as this stage plans them: its entries in the model, and its planner (generator/collections/). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- collections of different entries
export interface EntryPages<Entry = any> {
  entries(model: SiteModel): readonly Entry[];
  planner(ctx: PlanContext): (entry: Entry) => PagePlan | undefined;
}

/** Every page of the site, in sitemap order (npm run dev, the content manager's previews, tests). */
export function planPages(model: SiteModel, opts: PlanOptions, collections: readonly EntryPages[]): PagePlan[] {
  return [...planEachPage(model, opts, collections)];
}

/**
 * The pages one at a time, in sitemap order: a build renders and forgets each plan as it comes,
 * so it never holds the plans of every page at once. `collections`: those whose pages are planned
 * here, after the other pages (a build plans its collections' pages where it reads their files).
 */
export function* planEachPage(model: SiteModel, opts: PlanOptions, collections: readonly EntryPages[]): Generator<PagePlan> {
  const ctx = new PlanContext(model, opts);
  // Content cannot give two pages one route (the model's rules refuse it); a planner could.
  const routes = new Set<string>();
  const planners = [...PAGE_KINDS, ...collections.map((c) => function* (): Generator<PagePlan> {
    const plan = c.planner(ctx);
    for (const entry of c.entries(model)) {
      const page = plan(entry);
      if (page) yield page;
    }
  })];
  for (const planner of planners) {
    for (const page of planner(ctx)) {
      if (routes.has(page.route)) throw new Error(`two pages were planned at ${page.route}`);
      routes.add(page.route);
      yield page;
    }
  }
  ctx.memo.retain(routes);
}
