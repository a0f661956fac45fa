/**
 * One planner per page kind, and the table of them: adding a page kind is one planner, one entry
 * in PAGE_KINDS, its body type in contracts/pages.ts and its template. The table's order is the
 * order of the sitemap.
 */
import { CITIES_PER_PAGE } from '../../contracts/content.js';
import type { PagePlan } from '../../contracts/pages.js';
import { fill, type PlanContext } from './context.js';
import { breadcrumbs, service } from './jsonld.js';
import { pagesOf, pagination } from './pagination.js';

/** A page kind's pages; a generator where there are many, so a build holds one plan at a time. */
type Planner = (ctx: PlanContext) => Iterable<PagePlan>;

/** "February 6, 2025" → "2025-02-06" (validated as a date by the legal front matter schema). */
function isoDate(shown: string): string {
  const date = new Date(`${shown} 12:00 UTC`);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}

const home: Planner = (ctx) => {
  const { site, services, home: h, forms } = ctx.model;
  const hero = ctx.image(h.hero.image, { blurred: true });
  const route = ctx.routes.fixed.home;
  return [ctx.page(route, ctx.head(route, h.seo.title, h.seo.description, { preloadImage: hero, ogImage: hero.src }), {
    kind: 'home', home: h, claims: site.claims, stats: site.stats.home, services: services.map((s) => ctx.serviceCard(s)), reviews: ctx.reviews,
    discount: forms.discount, heroImage: hero, aboutImage: ctx.image(h.about.image), labels: site.labels,
  })];
};

const servicesIndex: Planner = (ctx) => {
  const { site, services, servicesIndex: si } = ctx.model;
  const route = ctx.routes.fixed.services;
  const { shown, key } = ctx.served;
  return [ctx.memo.plan(route, [...ctx.sharedInputs, si, key], () => {
    const cards = si.services.map((slug) => ctx.serviceCard(services.find((s) => s.slug === slug)!));
    const areaServed = shown.map((c) => c.name);
    return ctx.page(route, ctx.head(route, si.seo.title, si.seo.description, {
      jsonLd: [
        ctx.business, ...cards.map((c) => service(c.name, c.summary, ctx.url(c.href), ctx.origin, areaServed)),
        breadcrumbs([ctx.homeCrumb, { name: si.heading, href: route }], ctx.origin),
      ],
    }), { kind: 'services', page: si, cards, labels: site.labels });
  })];
};

/**
 * /locations: one card per city, CITIES_PER_PAGE to a page. Past one page the first stays at
 * /locations with the stats, and /locations/page/2 and on follow, linked by a numbered nav.
 */
const locations: Planner = function* (ctx) {
  const { site, cities, locations: loc } = ctx.model;
  const cards = cities.map((c) => ({ name: c.name, population: c.population, description: c.description, href: c.exploreHref }));
  const pages = pagesOf(cards, CITIES_PER_PAGE);
  const count = pages.length;
  const locationsPageRoute = ctx.routes.locationsPage;
  const firstCrumbs = [ctx.homeCrumb, { name: loc.heading, href: ctx.routes.fixed.locations }];
  // A page's inputs are its own cards (by value) and the number of pages: saving one city plans its page again, not all.
  for (const [i, cards] of pages.entries()) {
    const n = i + 1;
    const route = locationsPageRoute(n);
    yield ctx.memo.plan(route, [...ctx.sharedInputs, count, JSON.stringify(cards)], () => {
      const series = {
        ...(n > 1 && { prev: ctx.url(locationsPageRoute(n - 1)) }),
        ...(n < count && { next: ctx.url(locationsPageRoute(n + 1)) }),
      };
      const nav = count > 1 ? { pagination: pagination(n, count, locationsPageRoute, loc.pagination) } : {};
      if (n === 1) {
        return ctx.page(route, ctx.head(route, loc.seo.title, loc.seo.description, {
          jsonLd: [ctx.business, breadcrumbs(firstCrumbs, ctx.origin)], ...series,
        }), { kind: 'locations', page: loc, stats: site.stats.locations, cities: cards, ...nav });
      }
      const vars = { page: String(n), pages: String(count), brand: site.brand.name, first: cards[0]!.name, last: cards.at(-1)!.name };
      const crumbs = [...firstCrumbs, { name: fill(loc.pagination.status, vars), href: route }];
      return ctx.page(route, ctx.head(route, fill(loc.pagination.seoTitle, vars), fill(loc.pagination.seoDescription, vars), {
        jsonLd: [ctx.business, breadcrumbs(crumbs, ctx.origin)], ...series,
      }), {
        // The stats belong to the first page: repeated on every page they would say nothing new.
        kind: 'locations', page: loc, stats: [], cities: cards, ...nav,
        breadcrumbs: { items: crumbs, label: site.navigation.breadcrumbLabel },
      });
    });
  }
};

const checklist: Planner = (ctx) => {
  const { site, checklist: cl } = ctx.model;
  const route = ctx.routes.fixed.checklist;
  return [ctx.page(route, ctx.head(route, cl.seo.title, cl.seo.description), { kind: 'checklist', page: cl, labels: site.labels })];
};

const contact: Planner = (ctx) => {
  const { site, contact: ct, forms } = ctx.model;
  // The facts on the cards come from site settings, written once there.
  const cardFacts = (kind: (typeof ct.cards)[number]['kind']): { value: string; href?: string; note?: string } => {
    switch (kind) {
      case 'phone': return { value: site.phone.display, href: `tel:${site.phone.e164}` };
      case 'email': return { value: site.email, href: `mailto:${site.email}` };
      case 'area': return { value: site.serviceArea.title, note: site.serviceArea.radius };
      case 'hours': return { value: site.hours.display, note: site.hours.note };
    }
  };
  const route = ctx.routes.fixed.contact;
  return [ctx.page(route, ctx.head(route, ct.seo.title, ct.seo.description), {
    kind: 'contact', page: ct, toastClose: site.navigation.closeLabel,
    texts: { ...forms.contact, failure: { ...forms.contact.failure, description: fill(forms.contact.failure.description, { phone: site.phone.display }) } },
    cards: ct.cards.map((c) => {
      const facts = cardFacts(c.kind);
      return { kind: c.kind, title: c.title, value: facts.value, ...(facts.href && { href: facts.href }), note: c.note ?? facts.note ?? '' };
    }),
  })];
};

const customerLogin: Planner = (ctx) => {
  const { site, customerLogin: page } = ctx.model;
  const route = ctx.routes.fixed.customerLogin;
  return [ctx.page(route, ctx.head(route, page.seo.title, page.seo.description), {
    kind: 'embed', page, frame: { src: site.booking.loginPortalUrl }, variant: 'login',
  })];
};

const bookOnline: Planner = (ctx) => {
  const { site, bookOnline: page } = ctx.model;
  const route = ctx.routes.fixed.bookOnline;
  return [ctx.page(route, ctx.head(route, page.seo.title, page.seo.description), {
    kind: 'embed', page, frame: { src: site.booking.bookingUrl }, variant: 'booking',
  })];
};

const legal: Planner = (ctx) => {
  const { site } = ctx.model;
  return ctx.model.legal.map((l) => ctx.page(l.route, ctx.head(l.route, `${l.title} | ${site.brand.name}`, l.description), {
    kind: 'legal', title: l.title, lastUpdated: l.lastUpdated, lastUpdatedIso: isoDate(l.lastUpdated), lastUpdatedLabel: site.labels.lastUpdated, html: l.html,
  }));
};

/**
 * The service pages: the served cities they list and name as areaServed are the first
 * CITIES_PER_PAGE; when there are more, a link leads to /locations, where each of the others has its card.
 */
const servicePages: Planner = (ctx) => {
  const { site, services, locations: loc } = ctx.model;
  const { shown, more, key } = ctx.served;
  const areaServed = shown.map((c) => c.name);
  const moreCities = more ? { moreCities: { href: ctx.routes.fixed.locations, label: loc.moreCities } } : {};
  const inputs = [...ctx.sharedInputs, key];
  return services.map((s) => ctx.memo.plan(s.route, inputs, () => {
    const crumbs = [ctx.homeCrumb, { name: site.navigation.primary[0]?.label ?? 'Services', href: ctx.routes.fixed.services }, { name: s.name, href: s.route }];
    const hero = ctx.image(s.hero.image);
    return ctx.page(s.route, ctx.head(s.route, s.seo.title, s.seo.description, {
      preloadImage: hero, ogImage: hero.src,
      jsonLd: [ctx.business, service(s.name, s.summary, ctx.url(s.route), ctx.origin, areaServed), breadcrumbs(crumbs, ctx.origin)],
    }), {
      kind: 'service', service: s, heroImage: hero, servedCities: shown, ...moreCities,
      related: services.filter((o) => o.slug !== s.slug).map((o) => ctx.serviceCard(o)), reviews: ctx.reviews, discount: ctx.model.forms.discount,
      labels: site.labels, breadcrumbs: crumbs, breadcrumbLabel: site.navigation.breadcrumbLabel,
    });
  }));
};

const notFound: Planner = (ctx) => {
  const { notFound: nf } = ctx.model.site;
  const route = ctx.routes.fixed.notFound;
  return [ctx.page(route, { title: nf.seo.title, description: nf.seo.description, canonical: ctx.url(route), jsonLd: [], noindex: true, ...ctx.versions(route, true) }, {
    kind: 'notFound', code: nf.code, heading: nf.heading, link: nf.link,
  })];
};

/**
 * Every page kind but the collections' (generator/collections/), in sitemap order; the collections'
 * pages come after them (the 404 page before them is in neither the sitemap nor _redirects).
 */
export const PAGE_KINDS: readonly Planner[] = [
  home, servicesIndex, locations, checklist, contact, customerLogin, bookOnline, legal, servicePages, notFound,
];
