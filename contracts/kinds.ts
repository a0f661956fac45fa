/** Which content file is which kind, and the schema each kind is validated against. */
import type { z } from 'zod';
import {
  checklistSchema, citySchema, contactSchema, embedPageSchema, formsSchema, homeSchema, legalFrontMatterSchema,
  locationsSchema, serviceSchema, articleFrontMatterSchema, articlesIndexSchema, servicesIndexSchema, siteSchema,
} from './content.js';

export interface ContentKind {
  /** Name of the JSON Schema file in content/schemas/. */
  schemaFile: string;
  schema: z.ZodType;
  /** A single file (relative to content/), or a folder whose every *.yaml / *.md file is one entry. */
  file?: string;
  dir?: string;
  format: 'yaml' | 'markdown';
  title: string;
}

export const kinds = {
  site: { file: 'site.yaml', schema: siteSchema, schemaFile: 'site.schema.json', format: 'yaml', title: 'Site settings' },
  home: { file: 'home.yaml', schema: homeSchema, schemaFile: 'home.schema.json', format: 'yaml', title: 'Home page' },
  servicesIndex: { file: 'services.yaml', schema: servicesIndexSchema, schemaFile: 'services-index.schema.json', format: 'yaml', title: '/services page' },
  locations: { file: 'locations.yaml', schema: locationsSchema, schemaFile: 'locations.schema.json', format: 'yaml', title: '/locations page and the texts of every city page' },
  contact: { file: 'contact.yaml', schema: contactSchema, schemaFile: 'contact.schema.json', format: 'yaml', title: '/contact page' },
  checklist: { file: 'checklist.yaml', schema: checklistSchema, schemaFile: 'checklist.schema.json', format: 'yaml', title: '/checklist page: rooms and tasks' },
  forms: { file: 'forms.yaml', schema: formsSchema, schemaFile: 'forms.schema.json', format: 'yaml', title: 'Texts of the quote form and the discount popup' },
  customerLogin: { file: 'customer-login.yaml', schema: embedPageSchema, schemaFile: 'embed-page.schema.json', format: 'yaml', title: '/customer-login page' },
  bookOnline: { file: 'book-online.yaml', schema: embedPageSchema, schemaFile: 'embed-page.schema.json', format: 'yaml', title: '/book-online page' },
  service: { dir: 'services', schema: serviceSchema, schemaFile: 'service.schema.json', format: 'yaml', title: 'A service page; the file name is its path' },
  city: { dir: 'cities', schema: citySchema, schemaFile: 'city.schema.json', format: 'yaml', title: 'A city; the file name is its slug' },
  articlesIndex: { file: 'articles.yaml', schema: articlesIndexSchema, schemaFile: 'articles-index.schema.json', format: 'yaml', title: '/articles, its tag pages and feeds, and the texts of every article page' },
  article: { dir: 'articles', schema: articleFrontMatterSchema, schemaFile: 'article.schema.json', format: 'markdown', title: 'An article in Markdown; the file name is its path under /articles' },
  legal: { dir: 'legal', schema: legalFrontMatterSchema, schemaFile: 'legal.schema.json', format: 'markdown', title: 'A legal page in Markdown; the file name is its path' },
} as const satisfies Record<string, ContentKind>;

export type KindName = keyof typeof kinds;

/** The kinds a translation (content/es/) does not have: the articles and the legal pages are published in English only (notes/decisions.md, "The site in Spanish"). */
export const ENGLISH_ONLY_KINDS: ReadonlySet<KindName> = new Set(['article', 'articlesIndex', 'legal']);
export const kindNames = Object.keys(kinds) as KindName[];

/** The kind a content file belongs to, or undefined for files the generator does not read. */
export function kindOf(relPath: string): KindName | undefined {
  for (const name of kindNames) {
    const kind: ContentKind = kinds[name];
    if (kind.file === relPath) return name;
    if (kind.dir && relPath.startsWith(kind.dir + '/') && !relPath.slice(kind.dir.length + 1).includes('/')) {
      const ext = kind.format === 'markdown' ? '.md' : '.yaml';
      if (relPath.endsWith(ext)) return name;
    }
  }
  return undefined;
}

/** The slug of a folder entry: its file name without extension. */
export function slugOf(relPath: string): string {
  const base = relPath.slice(relPath.lastIndexOf('/') + 1);
  return base.replace(/\.(ya?ml|md)$/, '');
}
