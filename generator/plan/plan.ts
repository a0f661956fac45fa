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

/** Every page of the site, in sitemap order (npm run dev, the content manager's previews, tests). */
export function planPages(model: SiteModel, opts: PlanOptions): PagePlan[] {
  return [...planEachPage(model, opts)];
}

/**
 * The pages one at a time, in sitemap order: a build renders and forgets each plan as it comes,
 * so it never holds the plans of every page at once.
 */
export function* planEachPage(model: SiteModel, opts: PlanOptions): Generator<PagePlan> {
  const ctx = new PlanContext(model, opts);
  // Content cannot give two pages one route (the model's rules refuse it); a planner could.
  const routes = new Set<string>();
  for (const planner of PAGE_KINDS) {
    for (const page of planner(ctx)) {
      if (routes.has(page.route)) throw new Error(`two pages were planned at ${page.route}`);
      routes.add(page.route);
      yield page;
    }
  }
  ctx.memo.retain(routes);
}
