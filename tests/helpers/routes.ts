/**
 * The pages of the site, read from the content model and the shared build (tests/globalSetup.ts),
 * never listed by hand: a city, service or legal page added to content/ is tested by itself.
 */
import { inject } from 'vitest';
import { checkContent } from '../../generator/build.js';
import type { SiteModel } from '../../contracts/content.js';
import { distPages } from './dist.js';

export interface CityPage { route: string; slug: string; name: string; faqs: number }

export interface SiteRoutes {
  model: SiteModel;
  /** Every page of the built site except the 404 pages, sorted. */
  all: string[];
  /** The service pages, in the site's order. */
  services: string[];
  /** The cities that have a page, in the order of the Locations page. */
  cityPages: CityPage[];
  /** The cities that only have a card (its button leads to booking). */
  cardOnlyCities: string[];
}

let cached: Promise<SiteRoutes> | undefined;

/** Usable at the top of a browser-project test file: `const routes = await siteRoutes();`. */
export function siteRoutes(): Promise<SiteRoutes> {
  cached ??= (async () => {
    const model = (await checkContent({ root: process.cwd() })).model;
    // The not-found pages (/404, /es/404) are what an unknown address gets, not pages of their own.
    const all = (await distPages(inject('siteDist'))).map((p) => p.route).filter((r) => r !== '/404' && !r.endsWith('/404'));
    const cityPages = model.cities.flatMap((c) => (c.route && c.page ? [{ route: c.route, slug: c.slug, name: c.name, faqs: c.page.faqs.length }] : []));
    const routes: SiteRoutes = {
      model,
      all,
      services: model.services.map((s) => s.route),
      cityPages,
      cardOnlyCities: model.cities.filter((c) => !c.route).map((c) => c.name),
    };
    const missing = [...routes.services, ...cityPages.map((c) => c.route), ...model.legal.map((l) => l.route)].filter((r) => !all.includes(r));
    if (missing.length) throw new Error(`the model's pages ${missing.join(', ')} are not in the built site`);
    return routes;
  })();
  return cached;
}
