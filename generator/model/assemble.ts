/** Stage model: validated documents → SiteModel, with the rules that span files. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { remark } from 'remark';
import remarkHtml from 'remark-html';
import type { CityEntry, LegalEntry, ServiceEntry, SiteModel } from '../../contracts/content.js';
import type { ValidDoc, ValidDocOf } from '../../contracts/documents.js';
import type { ContentError } from '../../contracts/errors.js';
import { ENGLISH_ONLY_KINDS, kinds, kindNames, type ContentKind, type KindName } from '../../contracts/kinds.js';
import { ROUTE_TABLES, ROUTES } from '../../contracts/routes.js';
import { DEFAULT_LANGUAGE, type Lang } from '../../contracts/languages.js';
import { formatPath } from '../../contracts/validate/errors.js';
import { locator } from '../../contracts/validate/locate.js';
import { englishOnlyError, fieldError, fileNameRule, imageRule, translationRules, type RuleOptions } from './rules.js';
import { articleEntry, articleFileRules, repeatedArticleTexts, withArticles } from './articles.js';
import { officeHoursRule } from './officeHours.js';

/** The rules' options; for a translation, the default language's content, whose twins its files are. */
export interface EnglishContent { model?: SiteModel | undefined; docs: readonly ValidDoc[] }

export interface AssembleOptions extends RuleOptions {
  /** For a translation: the English model (absent when the English content has errors) and documents, its twins. */
  english?: EnglishContent;
}

/** The validated documents, by kind: one each for single files, a list for folders. */
interface Docs {
  one<K extends KindName>(kind: K): ValidDocOf<K>;
  has(kind: KindName): boolean;
  service: ValidDocOf<'service'>[];
  city: ValidDocOf<'city'>[];
  legal: ValidDocOf<'legal'>[];
  article: ValidDocOf<'article'>[];
}

function byKind(docs: readonly ValidDoc[]): Docs {
  const of = <K extends KindName>(kind: K) => docs.filter((d): d is ValidDocOf<K> => d.kind === kind);
  return {
    one: (kind) => of(kind)[0]!,
    has: (kind) => docs.some((d) => d.kind === kind),
    service: of('service'),
    city: of('city'),
    legal: of('legal'),
    article: of('article'),
  };
}

export function assembleModel(validDocs: readonly ValidDoc[], opts: AssembleOptions): { model?: SiteModel; errors: ContentError[] } {
  const errors: ContentError[] = [];
  const lang: Lang = opts.translation?.lang ?? DEFAULT_LANGUAGE;
  const translated = lang !== DEFAULT_LANGUAGE;
  const docs = byKind(validDocs);
  for (const name of kindNames) {
    const { file }: ContentKind = kinds[name];
    if (translated && ENGLISH_ONLY_KINDS.has(name)) continue;
    if (file && !docs.has(name)) errors.push({ file: opts.displayPrefix + file, message: 'file is missing', hint: translated ? `translate content/${file} into it (a translation has every page the English site has but the articles and legal pages)` : `create it; its schema is content/schemas/${kinds[name].schemaFile}` });
  }
  for (const doc of validDocs) {
    if (translated && ENGLISH_ONLY_KINDS.has(doc.kind)) errors.push(englishOnlyError(doc.file));
    else errors.push(...translationRules(doc, opts));
  }
  for (const doc of [...docs.service, ...docs.city, ...docs.legal]) errors.push(...fileNameRule(doc));
  for (const doc of docs.service) errors.push(...serviceSlugRule(doc, translated));
  // A translation's model is made against a valid English one: until there is one, its errors say why.
  const english = opts.english?.model;
  if (translated && !english) return { errors };
  for (const doc of docs.article) errors.push(...articleFileRules(doc, opts));
  if (docs.has('site')) errors.push(...officeHoursRule(docs.one('site')));
  if (errors.length) return { errors };

  const site = docs.one('site').data;
  const routes = ROUTE_TABLES[lang];
  const services: ServiceEntry[] = docs.service
    .map((d) => entryOf(d, () => ({ ...d.data, slug: d.slug, route: routes.service(d.data.slug ?? d.slug) })))
    .sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug));
  const cities: CityEntry[] = docs.city.map((d) => entryOf(d, () => cityEntry(d))).sort(byCityOrder);
  const legal: LegalEntry[] = docs.legal
    .map((d) => ({ ...d.data, slug: d.slug, route: routes.service(d.slug), html: markdownToHtml(d.body ?? '') }))
    .sort((a, b) => a.slug.localeCompare(b.slug));

  const model: SiteModel = {
    lang,
    site,
    home: docs.one('home').data,
    servicesIndex: docs.one('servicesIndex').data,
    locations: docs.one('locations').data,
    contact: docs.one('contact').data,
    checklist: docs.one('checklist').data,
    forms: docs.one('forms').data,
    customerLogin: docs.one('customerLogin').data,
    bookOnline: docs.one('bookOnline').data,
    services,
    cities,
    servedCities: servedCities(site.servedCities, cities),
    legal,
    // A translation's pages link to the English articles' feeds.
    articlesIndex: english ? english.articlesIndex : docs.one('articlesIndex').data,
    articles: [],
  };
  const timeZone = site.hours.timeZone;
  const articles = docs.article.map((d) => entryOf(d, () => articleEntry(d, timeZone)));
  errors.push(...crossFileRules(model, docs, opts));
  errors.push(...repeatedArticleTexts(articles.map((card, i) => ({ card, file: docs.article[i]!.file })), (file, field) => {
    const doc = docs.article.find((d) => d.file === file)!;
    return locator(doc.yaml, doc.lineOffset).value(field);
  }));
  // A warning does not stop the model.
  return errors.some((e) => !e.warning) ? { errors } : { model: withArticles(model, articles), errors };
}

const entries = new WeakMap<ValidDoc, object>();

/**
 * The model's entry for a document, the same object as long as the document is: npm run dev
 * re-assembles the model on every save, and planning recognizes unchanged entries by identity.
 */
function entryOf<T extends object>(doc: ValidDoc, make: () => T): T {
  let entry = entries.get(doc) as T | undefined;
  if (!entry) {
    entry = make();
    entries.set(doc, entry);
  }
  return entry;
}

/** A city file's entry in the model. */
export function cityEntry(doc: ValidDocOf<'city'>): CityEntry {
  const routes = ROUTE_TABLES[doc.lang ?? DEFAULT_LANGUAGE];
  const route = doc.data.page ? routes.city(doc.slug) : null;
  return { ...doc.data, slug: doc.slug, route, exploreHref: route ?? routes.fixed.bookOnline };
}

/** A translated service names its own path (its file name is its English twin's); an English one's path is its file name. */
function serviceSlugRule(doc: ValidDocOf<'service'>, translated: boolean): ContentError[] {
  if (translated && !doc.data.slug) return [{ file: doc.file, line: 1, column: 1, path: 'slug', message: 'a translated service needs its own path', hint: 'add a first line such as slug: limpieza-profunda (lowercase words joined by hyphens)' }];
  if (!translated && doc.data.slug) return [fieldError(doc, ['slug'], 'an English service\'s path is its file name', 'remove slug, or rename the file')];
  return [];
}

/** The order of the cities on /locations: by `order` where given, then by name. */
export const byCityOrder = (a: Pick<CityEntry, 'order' | 'name'>, b: Pick<CityEntry, 'order' | 'name'>) =>
  (a.order ?? Infinity) - (b.order ?? Infinity) || a.name.localeCompare(b.name);

/**
 * The rules of one city file that need nothing but it and the content folder: its file name and its
 * picture. A build checks them in the render worker that reads the file; assembleModel for the rest.
 */
export function cityFileRules(doc: ValidDocOf<'city'>, opts: AssembleOptions): ContentError[] {
  const naming = fileNameRule(doc);
  return naming.length ? naming : imageRule(doc, ['page', 'heroImage'], doc.data.page?.heroImage, opts);
}

/**
 * City names must be unique: two files for one city would give two cards. `locateName` says where
 * a file writes its name; it is asked only for a repeated one.
 */
export function repeatedCityNames(
  cities: Iterable<{ name: string; file: string }>,
  locateName: (file: string) => { line: number; column: number },
): ContentError[] {
  const errors: ContentError[] = [];
  const byName = new Map<string, string>();
  for (const { name, file } of cities) {
    const first = byName.get(name.toLowerCase());
    if (first) errors.push({ file, ...locateName(file), path: 'name', message: `city "${name}" is already defined in ${first}`, hint: 'remove one of the two files' });
    else byName.set(name.toLowerCase(), file);
  }
  return errors;
}

/** The model with its cities: a build adds them (without their page texts) once the render workers read them. */
export function withCities(model: SiteModel, cities: CityEntry[]): SiteModel {
  const sorted = [...cities].sort(byCityOrder);
  return { ...model, cities: sorted, servedCities: servedCities(model.site.servedCities, sorted) };
}

function servedCities(listed: readonly string[], cities: readonly CityEntry[]): string[] {
  const seen = new Set(listed.map((c) => c.toLowerCase()));
  const added = cities.map((c) => c.name).filter((n) => !seen.has(n.toLowerCase())).sort();
  return [...listed, ...added];
}

const markdownCache = new Map<string, string>();

/** Markdown → HTML, remembered per body: the dev server rebuilds the model on every save. */
function markdownToHtml(body: string): string {
  let html = markdownCache.get(body);
  if (html === undefined) {
    html = String(remark().use(remarkHtml).processSync(body));
    markdownCache.set(body, html);
  }
  return html;
}

function crossFileRules(model: SiteModel, docs: Docs, opts: AssembleOptions): ContentError[] {
  const errors: ContentError[] = [];

  const cityDocs = new Map(docs.city.map((d) => [d.file, d]));
  errors.push(...repeatedCityNames(docs.city.map((d) => ({ name: d.data.name, file: d.file })), (file) => locator(cityDocs.get(file)!.yaml, cityDocs.get(file)!.lineOffset).value(['name'])));

  // Routes must not collide (a service or legal page named like another page).
  const routes = ROUTE_TABLES[model.lang];
  const fixed = new Set<string>([...Object.values(routes.fixed), ...(model.lang === DEFAULT_LANGUAGE ? Object.values(ROUTES) : [])]);
  for (const doc of [...docs.service, ...docs.legal]) {
    const route = doc.kind === 'service' ? routes.service(doc.data.slug ?? doc.slug) : routes.service(doc.slug);
    if (fixed.has(route)) errors.push({ file: doc.file, message: `its path ${route} is already used by another page`, hint: doc.kind === 'service' && doc.data.slug ? 'change its slug' : 'rename the file' });
    fixed.add(route);
  }

  // References between files.
  const serviceSlugs = model.services.map((s) => s.slug);
  const servicesDoc = docs.one('servicesIndex');
  model.servicesIndex.services.forEach((slug, i) => {
    if (!serviceSlugs.includes(slug)) errors.push(fieldError(servicesDoc, ['services', i], `no service file content/services/${slug}.yaml`, `known services: ${serviceSlugs.join(', ')}`));
  });
  const locationsDoc = docs.one('locations');
  model.locations.cityPage.related.forEach((r, i) => {
    if (!serviceSlugs.includes(r.service)) errors.push(fieldError(locationsDoc, ['cityPage', 'related', i, 'service'], `no service file content/services/${r.service}.yaml`, `known services: ${serviceSlugs.join(', ')}`));
  });

  // Every image a file names must exist under content/images/.
  const checkImage = (doc: ValidDoc, fieldPath: (string | number)[], image: string | undefined) => errors.push(...imageRule(doc, fieldPath, image, opts));
  const homeDoc = docs.one('home');
  checkImage(homeDoc, ['hero', 'image'], model.home.hero.image);
  checkImage(homeDoc, ['about', 'image'], model.home.about.image);
  checkImage(locationsDoc, ['cityPage', 'defaultHeroImage'], model.locations.cityPage.defaultHeroImage);
  for (const doc of docs.service) checkImage(doc, ['hero', 'image'], doc.data.hero.image);
  for (const doc of docs.city) checkImage(doc, ['page', 'heroImage'], doc.data.page?.heroImage);
  return errors;
}

