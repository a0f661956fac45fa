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

export function planPages(model: SiteModel, opts: PlanOptions): PagePlan[] {
  const ctx = new PlanContext(model, opts);
  const pages = PAGE_KINDS.flatMap((plan) => plan(ctx));
  // Content cannot give two pages one route (the model's rules refuse it); a planner could.
  const routes = new Set<string>();
  for (const { route } of pages) {
    if (routes.has(route)) throw new Error(`two pages were planned at ${route}`);
    routes.add(route);
  }
  ctx.memo.retain(routes);
  return pages;
}
