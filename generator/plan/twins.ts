/**
 * Which pages are versions of one another, in every language: one source for a page's hreflang
 * alternates, the sitemap's (written from them) and the header's language switch, so a page and
 * its twin cannot disagree. Plain data: the plan options carry it to the render workers.
 */
import { CITIES_PER_PAGE, type SiteModel } from '../../contracts/content.js';
import { kindOf, slugOf } from '../../contracts/kinds.js';
import { DEFAULT_LANGUAGE, LANGUAGE_INFO, LANGUAGES, X_DEFAULT, type Lang } from '../../contracts/languages.js';
import type { Alternate } from '../../contracts/pages.js';
import { ROUTE_TABLES, type FixedPage } from '../../contracts/routes.js';

export interface Twins {
  /** The languages the site is built in, the default first. */
  languages: Lang[];
  /** Each page that has a version in more than one language: its route in each. */
  groups: Partial<Record<Lang, string>>[];
}

/** What the twins are made from: per translation, its services' paths and its city files. */
export interface TwinSources {
  /** The English city files' slugs (their count numbers the /locations pages). */
  cities: readonly string[];
  translations: Partial<Record<Lang, {
    /** English service file name → the translation's route. */
    services: ReadonlyMap<string, string>;
    /** The translation's city files' slugs. */
    cities: readonly string[];
  }>>;
}

const pagesFor = (cities: number) => Math.max(1, Math.ceil(cities / CITIES_PER_PAGE));

export function twinsOf(sources: TwinSources): Twins {
  const languages: Lang[] = [DEFAULT_LANGUAGE, ...LANGUAGES.filter((l) => l !== DEFAULT_LANGUAGE && sources.translations[l])];
  const byKey = new Map<string, Partial<Record<Lang, string>>>();
  const add = (key: string, lang: Lang, route: string) => {
    let group = byKey.get(key);
    if (!group) byKey.set(key, (group = { [DEFAULT_LANGUAGE]: key }));
    group[lang] = route;
  };
  const en = ROUTE_TABLES[DEFAULT_LANGUAGE];
  for (const lang of languages.slice(1)) {
    const table = ROUTE_TABLES[lang];
    const own = sources.translations[lang]!;
    for (const page of Object.keys(table.fixed) as FixedPage[]) add(en.fixed[page], lang, table.fixed[page]);
    const shared = Math.min(pagesFor(sources.cities.length), pagesFor(own.cities.length));
    for (let n = 2; n <= shared; n++) add(en.locationsPage(n), lang, table.locationsPage(n));
    for (const [file, route] of own.services) add(en.service(file), lang, route);
    for (const slug of own.cities) add(en.city(slug), lang, table.city(slug));
  }
  return { languages, groups: [...byKey.values()] };
}

const indexes = new WeakMap<Twins, Map<string, Partial<Record<Lang, string>>>>();

function groupOf(twins: Twins, route: string): Partial<Record<Lang, string>> | undefined {
  let index = indexes.get(twins);
  if (!index) {
    index = new Map();
    for (const group of twins.groups) for (const r of Object.values(group)) index.set(r, group);
    indexes.set(twins, index);
  }
  return index.get(route);
}

/**
 * A page's alternates (every version, itself included, then x-default: the English one) and its
 * language switch's target: the twin in the other language, else that language's home. Nothing
 * for a site in one language; no alternates for a page search engines are not to index.
 */
export function versionsOf(twins: Twins | undefined, lang: Lang, route: string, origin: string, noindex = false): { alternates?: Alternate[]; languageSwitch?: string } {
  if (!twins || twins.languages.length < 2) return {};
  const group = groupOf(twins, route) ?? { [lang]: route };
  const other = twins.languages.find((l) => l !== lang)!;
  const languageSwitch = (!noindex && group[other]) || ROUTE_TABLES[other].fixed.home;
  if (noindex) return { languageSwitch };
  const url = (r: string) => origin + (r === '/' ? '/' : r);
  const alternates: Alternate[] = twins.languages.flatMap((l) => (group[l] ? [{ hreflang: LANGUAGE_INFO[l].hreflang, href: url(group[l]!) }] : []));
  const fallback = group[DEFAULT_LANGUAGE];
  if (fallback) alternates.push({ hreflang: X_DEFAULT, href: url(fallback) });
  return { alternates, languageSwitch };
}

const citySlugs = (files: readonly string[]) => files.filter((rel) => kindOf(rel) === 'city').map(slugOf);

/**
 * A build's twins, from each language's content as the build reads it first (the default language
 * first): its model (the services) and its collections' files (the cities, read later in the workers).
 */
export function twinsOfContent([english, ...translations]: readonly { model?: SiteModel | undefined; collectionFiles: readonly string[] }[]): Twins | undefined {
  const own = translations.flatMap((t) => (t.model ? [[t.model.lang, { services: serviceRoutes(t.model), cities: citySlugs(t.collectionFiles) }] as const] : []));
  return own.length ? twinsOf({ cities: citySlugs(english!.collectionFiles), translations: Object.fromEntries(own) }) : undefined;
}

/** npm run dev's twins, from the models, which hold every entry (the default language's first). */
export function twinsOfModels([english, ...translated]: readonly SiteModel[]): Twins | undefined {
  if (!translated.length) return undefined;
  return twinsOf({
    cities: english!.cities.map((c) => c.slug),
    translations: Object.fromEntries(translated.map((m) => [m.lang, { services: serviceRoutes(m), cities: m.cities.map((c) => c.slug) }])),
  });
}

/** A translation's services: the English file name (its twin's) → its own route. */
const serviceRoutes = (model: SiteModel) => new Map(model.services.map((s) => [s.slug, s.route]));
