/** Stage 2b: validated documents → SiteModel, with the rules that span files. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { remark } from 'remark';
import remarkHtml from 'remark-html';
import type { CityEntry, CityFile, LegalEntry, LegalFrontMatter, Service, ServiceEntry, SiteModel } from '../../contracts/content.js';
import type { RawDoc } from '../../contracts/documents.js';
import type { ContentError } from '../../contracts/errors.js';
import { kinds, kindNames, type KindName } from '../../contracts/kinds.js';
import { BOOK_ONLINE, cityRoute, entryRoute, ROUTES } from '../../contracts/routes.js';
import { locator } from '../validate/locate.js';

type Single = Exclude<KindName, 'service' | 'city' | 'legal'>;

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export interface BuildModelOptions {
  contentDir: string;
  /** How messages name the content folder, e.g. "content/". */
  displayPrefix: string;
}

export function buildModel(docs: readonly RawDoc[], opts: BuildModelOptions): { model?: SiteModel; errors: ContentError[] } {
  const errors: ContentError[] = [];
  const single = new Map<KindName, RawDoc>();
  const many: Record<'service' | 'city' | 'legal', RawDoc[]> = { service: [], city: [], legal: [] };
  for (const doc of docs) {
    if (doc.kind === 'service' || doc.kind === 'city' || doc.kind === 'legal') many[doc.kind].push(doc);
    else single.set(doc.kind, doc);
  }
  for (const name of kindNames) {
    const file = (kinds[name] as { file?: string }).file;
    if (file && !single.has(name)) errors.push({ file: opts.displayPrefix + file, message: 'file is missing', hint: `create it; its schema is content/schemas/${kinds[name].schemaFile}` });
  }
  const folderEntries = [...many.service, ...many.city, ...many.legal];
  for (const doc of folderEntries) {
    if (!SLUG.test(doc.slug)) {
      errors.push({ file: doc.file, message: `file name "${doc.slug}" cannot be a web address`, hint: 'use lowercase letters, digits and single hyphens, e.g. mountain-view.yaml' });
    }
  }
  if (errors.length) return { errors };

  const get = <K extends Single>(k: K) => single.get(k)!.data as SiteModel[K extends 'servicesIndex' ? 'servicesIndex' : K];
  const site = get('site');

  const services: ServiceEntry[] = many.service
    .map((d) => ({ ...(d.data as Service), slug: d.slug, route: entryRoute(d.slug) }))
    .sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug));
  const cities: CityEntry[] = many.city
    .map((d) => {
      const data = d.data as CityFile;
      const route = data.page ? cityRoute(d.slug) : null;
      return { ...data, slug: d.slug, route, exploreHref: route ?? BOOK_ONLINE };
    })
    .sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity) || a.name.localeCompare(b.name));
  const legal: LegalEntry[] = many.legal
    .map((d) => ({ ...(d.data as LegalFrontMatter), slug: d.slug, route: entryRoute(d.slug), html: markdownToHtml(d.body ?? '') }))
    .sort((a, b) => a.slug.localeCompare(b.slug));

  const model: SiteModel = {
    site,
    home: get('home'),
    servicesIndex: get('servicesIndex'),
    locations: get('locations'),
    contact: get('contact'),
    checklist: get('checklist'),
    forms: get('forms'),
    customerLogin: get('customerLogin'),
    bookOnline: get('bookOnline'),
    services,
    cities,
    servedCities: servedCities(site.servedCities, cities),
    legal,
  };
  errors.push(...crossFileRules(model, single, many, opts));
  return errors.length ? { errors } : { model, errors };
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

function crossFileRules(
  model: SiteModel,
  single: Map<KindName, RawDoc>,
  many: Record<'service' | 'city' | 'legal', RawDoc[]>,
  opts: BuildModelOptions,
): ContentError[] {
  const errors: ContentError[] = [];
  const at = (doc: RawDoc, fieldPath: (string | number)[], message: string, hint?: string): ContentError => ({
    file: doc.file, ...locator(doc.yaml, doc.lineOffset).value(fieldPath), path: fieldPath.map((s, i) => (typeof s === 'number' ? `[${s}]` : i ? `.${s}` : s)).join(''),
    message, ...(hint && { hint }),
  });

  // City names must be unique: two files for one city would give two cards.
  const byName = new Map<string, RawDoc>();
  for (const doc of many.city) {
    const name = (doc.data as CityFile).name.toLowerCase();
    const first = byName.get(name);
    if (first) errors.push(at(doc, ['name'], `city "${(doc.data as CityFile).name}" is already defined in ${first.file}`, 'remove one of the two files'));
    else byName.set(name, doc);
  }

  // Routes must not collide (a service or legal page named like another page).
  const fixed = new Set<string>(Object.values(ROUTES));
  for (const doc of [...many.service, ...many.legal]) {
    const route = entryRoute(doc.slug);
    if (fixed.has(route)) errors.push({ file: doc.file, message: `its path ${route} is already used by another page`, hint: 'rename the file' });
    fixed.add(route);
  }

  // References between files.
  const serviceSlugs = model.services.map((s) => s.slug);
  const servicesDoc = single.get('servicesIndex')!;
  model.servicesIndex.services.forEach((slug, i) => {
    if (!serviceSlugs.includes(slug)) errors.push(at(servicesDoc, ['services', i], `no service file content/services/${slug}.yaml`, `known services: ${serviceSlugs.join(', ')}`));
  });
  const locationsDoc = single.get('locations')!;
  model.locations.cityPage.related.forEach((r, i) => {
    if (!serviceSlugs.includes(r.service)) errors.push(at(locationsDoc, ['cityPage', 'related', i, 'service'], `no service file content/services/${r.service}.yaml`, `known services: ${serviceSlugs.join(', ')}`));
  });

  // Every image a file names must exist under content/images/.
  const imagesDir = path.join(opts.contentDir, 'images');
  const checkImage = (doc: RawDoc, fieldPath: (string | number)[], image: string | undefined) => {
    if (image && !existsSync(path.join(imagesDir, image))) {
      errors.push(at(doc, fieldPath, `image ${image} does not exist`, `put the file in ${opts.displayPrefix}images/ or correct the name`));
    }
  };
  const homeDoc = single.get('home')!;
  checkImage(homeDoc, ['hero', 'image'], model.home.hero.image);
  checkImage(homeDoc, ['about', 'image'], model.home.about.image);
  checkImage(locationsDoc, ['cityPage', 'defaultHeroImage'], model.locations.cityPage.defaultHeroImage);
  for (const doc of many.service) checkImage(doc, ['hero', 'image'], (doc.data as Service).hero.image);
  for (const doc of many.city) checkImage(doc, ['page', 'heroImage'], (doc.data as CityFile).page?.heroImage);
  return errors;
}
