/** The cities: content/cities/<slug>.yaml, each a card on /locations and, with page texts, a page of its own. */
import type { CityEntry, CityPageContent } from '../../contracts/content.js';
import type { ValidDocOf } from '../../contracts/documents.js';
import type { CityTexts, PagePlan } from '../../contracts/pages.js';
import { cityEntry, cityFileRules, repeatedCityNames, withCities } from '../model/assemble.js';
import { fill, type PlanContext } from '../plan/context.js';
import { breadcrumbs, service } from '../plan/jsonld.js';
import type { Collection } from './collection.js';

/** A city without its page texts: what /locations, the service pages and the business node need. */
export type CityCard = Omit<CityEntry, 'page'>;

type CityWithPage = CityEntry & { route: string; page: NonNullable<CityEntry['page']> };

export const cities: Collection<CityEntry, CityCard> = {
  kind: 'city',
  entry: (doc) => cityEntry(doc as ValidDocOf<'city'>),
  card: ({ page: _texts, ...card }) => card,
  fileRules: (doc, opts) => cityFileRules(doc as ValidDocOf<'city'>, opts),
  acrossRules: (cards, locate) => repeatedCityNames(cards.map(({ card, file }) => ({ name: card.name, file })), (file) => locate(file, ['name'])),
  entries: (model) => model.cities,
  withCards: (model, cards) => withCities(model, [...cards]),
  planner: cityPagePlanner,
  needs: (city) => (city.page?.heroImage ? [`images/${city.page.heroImage}`] : []),
  // Their template was read for what it could do with a text other than show it (render/pageTemplate.ts).
  templated: ['city'],
};

/** The planner of one city's page (undefined for a city without one). */
function cityPagePlanner(ctx: PlanContext): (city: CityEntry) => PagePlan | undefined {
  const { site, locations, services } = ctx.model;
  const { related, defaultHeroImage, ...templates } = locations.cityPage;
  const serviceOf = new Map(services.map((s) => [s.slug, s]));
  const shared = ctx.sharedInputs;
  return (city) => (city.route && city.page ? ctx.memo.plan(city.route, [...shared, city], () => planCity(city as CityWithPage)) : undefined);

  function planCity(city: CityWithPage): PagePlan {
    const vars = { city: city.name, brand: site.brand.name };
    const texts = Object.fromEntries(Object.entries(templates).map(([k, v]) => [k, fill(v, vars)])) as CityTexts;
    const hero = ctx.image(city.page.heroImage ?? defaultHeroImage);
    const crumbs = [ctx.homeCrumb, { name: locations.heading, href: ctx.routes.fixed.locations }, { name: city.name, href: city.route }];
    const description = city.page.seoDescription;
    const canonical = ctx.url(city.route);
    return ctx.page(city.route, {
      title: texts.seoTitle, description, canonical, preloadImage: hero, ogImage: new URL(hero.src, canonical).href, ...ctx.versions(city.route),
      jsonLd: [
        ctx.business,
        service(texts.heroHeading, description, canonical, ctx.origin, [city.name]),
        breadcrumbs(crumbs, ctx.origin),
      ],
    }, {
      // The hero's file name stays out: the page shows the picture (heroImage), and what a page
      // is given and does not show makes it a shape of its own (render/pageTemplate.ts).
      kind: 'city', name: city.name, content: withoutHeroImage(city.page), texts, heroImage: hero,
      related: related.map((r) => {
        const s = serviceOf.get(r.service)!;
        return { name: s.name, href: s.route, icon: s.icon, text: fill(r.text, vars) };
      }),
      reviews: ctx.reviews, discount: ctx.model.forms.discount, breadcrumbs: crumbs, breadcrumbLabel: site.navigation.breadcrumbLabel,
    });
  }
}

function withoutHeroImage({ heroImage: _name, ...content }: CityPageContent): Omit<CityPageContent, 'heroImage'> {
  return content;
}
