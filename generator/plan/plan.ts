/** Stage 3: the site model → the list of pages (route, file, head, body) and the shared chrome. */
import type { CityEntry, ServiceEntry, SiteModel } from '../../contracts/content.js';
import type { CityTexts, ImageRef, Layout, PageBody, PageHead, PagePlan, ReviewsProps, ServiceCard } from '../../contracts/pages.js';
import { BOOK_ONLINE, fileForRoute } from '../../contracts/routes.js';
import { breadcrumbs, business, service, webPage } from './jsonld.js';

export interface PlanOptions {
  /** Production origin without trailing slash (SITE_URL, else site.siteUrl). */
  origin: string;
  images: ReadonlyMap<string, ImageRef>;
  assets: Layout['assets'];
  year: number;
}

export const fill = (template: string, vars: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) => vars[key] ?? whole);

/** "February 6, 2025" → "2025-02-06" (validated as a date by the legal front matter schema). */
export function isoDate(shown: string): string {
  const date = new Date(`${shown} 12:00 UTC`);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}

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
  const { site, services, cities } = model;
  const { origin } = opts;
  const image = (name: string): ImageRef => {
    const ref = opts.images.get(name);
    if (!ref) throw new Error(`image ${name} was not processed`);
    return ref;
  };
  const url = (route: string) => origin + (route === '/' ? '/' : route);
  const head = (route: string, title: string, description: string, extra: Partial<PageHead> = {}): PageHead => ({
    title, description, canonical: url(route), jsonLd: [business(site, origin, model.servedCities), webPage(title, description, url(route))], ...extra,
  });
  const serviceCard = (s: ServiceEntry): ServiceCard => ({ name: s.name, href: s.route, icon: s.icon, summary: s.summary, included: s.included });
  const reviews: ReviewsProps = {
    heading: site.reviews.heading, scriptUrl: site.reviews.scriptUrl, widgetId: site.reviews.widgetId, loading: site.reviews.loading,
    fallback: site.reviews.fallback, linkLabel: site.reviews.linkLabel, linkUrl: site.reviews.linkUrl,
  };
  const discount = model.forms.discount;
  const home = { name: site.labels.breadcrumbHome, href: '/' };
  const page = (route: string, pageHead: PageHead, body: PageBody): PagePlan => ({ route, file: fileForRoute(route), head: pageHead, body });

  const pages: PagePlan[] = [];
  const h = model.home;
  pages.push(page('/', head('/', h.seo.title, h.seo.description, { preloadImage: image(h.hero.image), ogImage: image(h.hero.image).src }), {
    kind: 'home', home: h, claims: site.claims, stats: site.stats.home, services: services.map(serviceCard), reviews, discount,
    heroImage: image(h.hero.image), aboutImage: image(h.about.image), labels: site.labels,
  }));

  const si = model.servicesIndex;
  const indexCards = si.services.map((slug) => serviceCard(services.find((s) => s.slug === slug)!));
  pages.push(page('/services', head('/services', si.seo.title, si.seo.description, {
    jsonLd: [business(site, origin, model.servedCities), ...indexCards.map((c) => service(c.name, c.summary, url(c.href), origin, model.servedCities)), breadcrumbs([home, { name: si.heading, href: '/services' }], origin)],
  }), { kind: 'services', page: si, cards: indexCards, labels: site.labels }));

  const loc = model.locations;
  pages.push(page('/locations', head('/locations', loc.seo.title, loc.seo.description, {
    jsonLd: [business(site, origin, model.servedCities), breadcrumbs([home, { name: loc.heading, href: '/locations' }], origin)],
  }), {
    kind: 'locations', page: loc, stats: site.stats.locations,
    cities: cities.map((c) => ({ name: c.name, population: c.population, description: c.description, href: c.exploreHref })),
  }));

  const cl = model.checklist;
  pages.push(page('/checklist', head('/checklist', cl.seo.title, cl.seo.description), { kind: 'checklist', page: cl, labels: site.labels }));

  const ct = model.contact;
  // The facts on the cards come from site settings, written once there.
  const cardFacts = (kind: (typeof ct.cards)[number]['kind']): { value: string; href?: string; note?: string } => {
    switch (kind) {
      case 'phone': return { value: site.phone.display, href: `tel:${site.phone.e164}` };
      case 'email': return { value: site.email, href: `mailto:${site.email}` };
      case 'area': return { value: site.serviceArea.title, note: site.serviceArea.radius };
      case 'hours': return { value: site.hours.display, note: site.hours.note };
    }
  };
  pages.push(page('/contact', head('/contact', ct.seo.title, ct.seo.description), {
    kind: 'contact', page: ct, toastClose: site.navigation.closeLabel,
    texts: { ...model.forms.contact, failure: { ...model.forms.contact.failure, description: fill(model.forms.contact.failure.description, { phone: site.phone.display }) } },
    cards: ct.cards.map((c) => {
      const facts = cardFacts(c.kind);
      return { kind: c.kind, title: c.title, value: facts.value, ...(facts.href && { href: facts.href }), note: c.note ?? facts.note ?? '' };
    }),
  }));

  pages.push(page('/customer-login', head('/customer-login', model.customerLogin.seo.title, model.customerLogin.seo.description), {
    kind: 'embed', page: model.customerLogin, frame: { src: site.booking.loginPortalUrl }, variant: 'login',
  }));
  pages.push(page(BOOK_ONLINE, head(BOOK_ONLINE, model.bookOnline.seo.title, model.bookOnline.seo.description), {
    kind: 'embed', page: model.bookOnline, frame: { src: site.booking.bookingUrl }, variant: 'booking',
  }));

  for (const legal of model.legal) {
    pages.push(page(legal.route, head(legal.route, `${legal.title} | ${site.brand.name}`, legal.description), {
      kind: 'legal', title: legal.title, lastUpdated: legal.lastUpdated, lastUpdatedIso: isoDate(legal.lastUpdated), lastUpdatedLabel: site.labels.lastUpdated, html: legal.html,
    }));
  }

  const servedCityLinks = model.servedCities.map((name) => {
    const route = cities.find((c) => c.name === name)?.route;
    return route ? { name, href: route } : { name };
  });
  for (const s of services) {
    const crumbs = [home, { name: site.navigation.primary[0]?.label ?? 'Services', href: '/services' }, { name: s.name, href: s.route }];
    const hero = image(s.hero.image);
    pages.push(page(s.route, head(s.route, s.seo.title, s.seo.description, {
      preloadImage: hero, ogImage: hero.src,
      jsonLd: [business(site, origin, model.servedCities), service(s.name, s.summary, url(s.route), origin, model.servedCities), breadcrumbs(crumbs, origin)],
    }), {
      kind: 'service', service: s, heroImage: hero, servedCities: servedCityLinks,
      related: services.filter((o) => o.slug !== s.slug).map(serviceCard), reviews, discount, labels: site.labels, breadcrumbs: crumbs,
      breadcrumbLabel: site.navigation.breadcrumbLabel,
    }));
  }

  for (const city of cities) {
    if (city.route && city.page) pages.push(cityPage(model, city as CityEntry & { route: string; page: NonNullable<CityEntry['page']> }, { origin, image, reviews, url, home }));
  }

  pages.push({
    route: '/404', file: '404.html',
    head: { title: site.notFound.seo.title, description: site.notFound.seo.description, canonical: url('/404'), jsonLd: [], noindex: true },
    body: { kind: 'notFound', code: site.notFound.code, heading: site.notFound.heading, link: site.notFound.link },
  });
  return pages;
}

function cityPage(
  model: SiteModel,
  city: CityEntry & { route: string; page: NonNullable<CityEntry['page']> },
  ctx: { origin: string; image: (n: string) => ImageRef; reviews: ReviewsProps; url: (r: string) => string; home: { name: string; href: string } },
): PagePlan {
  const { site, locations, services } = model;
  const vars = { city: city.name, brand: site.brand.name };
  const { related, defaultHeroImage, ...templates } = locations.cityPage;
  const texts = Object.fromEntries(Object.entries(templates).map(([k, v]) => [k, fill(v, vars)])) as CityTexts;
  const hero = ctx.image(city.page.heroImage ?? defaultHeroImage);
  const crumbs = [ctx.home, { name: locations.heading, href: '/locations' }, { name: city.name, href: city.route }];
  const title = texts.seoTitle;
  const description = city.page.seoDescription;
  return {
    route: city.route,
    file: fileForRoute(city.route),
    head: {
      title, description, canonical: ctx.url(city.route), preloadImage: hero, ogImage: hero.src,
      jsonLd: [
        business(site, ctx.origin, [city.name], description),
        service(texts.heroHeading, description, ctx.url(city.route), ctx.origin, [city.name]),
        breadcrumbs(crumbs, ctx.origin),
      ],
    },
    body: {
      kind: 'city', name: city.name, content: city.page, texts, heroImage: hero,
      related: related.map((r) => {
        const s = services.find((x) => x.slug === r.service)!;
        return { name: s.name, href: s.route, icon: s.icon, text: fill(r.text, vars) };
      }),
      reviews: ctx.reviews, discount: model.forms.discount, breadcrumbs: crumbs, breadcrumbLabel: site.navigation.breadcrumbLabel,
    },
  };
}
