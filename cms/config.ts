/**
 * The Decap CMS configuration, derived from the content model: every collection, field, label,
 * hint, required flag, list length, pattern and number range comes from the JSON Schemas that
 * contracts/validate/jsonSchemas.ts derives from contracts/content.ts, so the CMS refuses what
 * `npm run check` refuses. `npm run schemas` writes it to content/schemas/cms-config.json (a test
 * fails when that file is stale); the build serves it at /admin/config.json with the settings of
 * the deployment (GitHub repository, site URL) added.
 */
import path from 'node:path';
import { IMAGE_PATH } from '../contracts/content.js';
import { ENGLISH_ONLY_KINDS, kinds, type ContentKind, type KindName } from '../contracts/kinds.js';
import { DEFAULT_LANGUAGE, LANGUAGE_INFO, TRANSLATIONS, type Lang } from '../contracts/languages.js';
import { LOCAL_DATE_TIME } from '../contracts/zonedTime.js';
import { yamlFormatOf } from './app/format.js';
import { collectionIn, fileIn, TWIN_FIELD, TWIN_WIDGET } from './app/translations.js';
import { MAX_UPLOAD_BYTES } from './app/upload.js';
import { ZONED_DATE_TIME_WIDGET } from './app/zonedDate.js';
import { jsonSchemaOf, NOT_BLANK } from '../contracts/validate/jsonSchemas.js';
import { TRANSLATION_FIELDS } from '../contracts/validate/twins.js';

type Schema = {
  type?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; description?: string;
  anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[]; const?: unknown; enum?: unknown[]; pattern?: string; format?: string;
  minItems?: number; maxItems?: number; minLength?: number; maxLength?: number; minimum?: number; maximum?: number;
};

export type CmsField = Record<string, unknown> & { name: string; label: string; widget: string };
export type CmsCollection = Record<string, unknown> & { name: string; label: string };
export type CmsConfig = Record<string, unknown> & { collections: CmsCollection[] };


/** The widget the admin bundle registers for a value that is one of a few JSON values (true, false, "N/A"). */
export const CHOICE_WIDGET = 'json-choice';

/**
 * How the CMS groups the content kinds. A presentation choice only: every kind must be in exactly
 * one group (checked below), and what each holds comes from the model.
 */
interface Group {
  name: string; label: string; singular?: string; kinds: KindName[]; create?: boolean; preview?: boolean; description: string;
  /** A folder collection's list: sortable by these fields, the first (descending) by default. */
  sortBy?: string[];
}

const GROUPS: Group[] = [
  // preview: the admin page draws these with the site's templates (cms/app/main.tsx); the others
  // get the whole width for their form.
  { name: 'cities', label: 'Cities', singular: 'City', kinds: ['city'], create: true, preview: true, description: 'One entry per city. The file name (from the city name) becomes the page address: Mountain View → /locations/deep-cleaning-mountain-view-ca.' },
  { name: 'services', label: 'Services', singular: 'Service', kinds: ['service'], preview: true, description: 'The five service pages.' },
  {
    name: 'articles', label: 'Articles', singular: 'Article', kinds: ['article'], create: true, preview: true, sortBy: ['date', 'title'],
    description: 'Tips and guides, in Markdown. The file name (from the title) becomes the page address: How Long Does a Deep Clean Take? → /articles/how-long-does-a-deep-clean-take. A draft, or an article dated later, is on no page of the site until then.',
  },
  { name: 'pages', label: 'Pages', kinds: ['home', 'servicesIndex', 'locations', 'contact', 'customerLogin', 'bookOnline', 'articlesIndex'], description: 'The single pages of the site.' },
  { name: 'checklist', label: 'Checklist', kinds: ['checklist'], description: 'The rooms and tasks of /checklist.' },
  { name: 'settings', label: 'Site settings', kinds: ['site', 'forms'], description: 'Business details, navigation, and the texts of the forms.' },
  { name: 'legal', label: 'Legal pages', singular: 'Legal page', kinds: ['legal'], description: 'Privacy policy and terms, in Markdown.' },
];

/**
 * Each translation's collections: every group of English kinds it has (not the articles nor the
 * legal pages, ENGLISH_ONLY_KINDS), beside the English one, with the same fields. Only the names
 * shown are the translation's own; a group of kinds a translation has must be named here.
 */
const TRANSLATED_GROUPS: Partial<Record<Lang, Record<string, Pick<Group, 'label' | 'singular' | 'description'>>>> = {
  es: {
    cities: {
      label: 'Ciudades (español)', singular: 'Ciudad (español)',
      description: 'The Spanish version of each city (content/es/cities/), at /es/ubicaciones/limpieza-profunda-<city>-ca. A new one starts from the English city it translates, whose file name it takes; the build checks it against that city: the same fields and list items, the same facts, every long text in Spanish.',
    },
    services: {
      label: 'Servicios (español)', singular: 'Servicio (español)',
      description: 'The Spanish version of each service page (content/es/services/), at /es/<its Slug>. A new one starts from the English service it translates, whose file name it takes; the build checks it against that service.',
    },
    pages: { label: 'Páginas (español)', description: 'The single pages of the Spanish site (/es, /es/servicios, /es/ubicaciones, …): each is the translation of the English page of the same name, checked against it by the build.' },
    checklist: { label: 'Lista de limpieza (español)', description: 'The rooms and tasks of /es/lista-de-limpieza: the English checklist\'s rooms and cells, in Spanish.' },
    settings: { label: 'Ajustes del sitio (español)', description: 'The Spanish texts of the business details, navigation, language switch and forms; the facts (phone, hours, addresses) are the English ones.' },
  },
};


const ACRONYMS: Record<string, string> = {
  seo: 'SEO', faq: 'FAQ', faqs: 'FAQs', url: 'URL', id: 'ID', cta: 'Call to action', e164: 'E.164',
  // A picture's fields (an article's image).
  src: 'File', alt: 'Alt text',
};

/** "seoDescription" → "SEO description": the label of a field, from its name in the model. */
export function labelOf(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(' ').map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase());
  const first = words[0] ?? name;
  words[0] = first === first.toLowerCase() ? first.charAt(0).toUpperCase() + first.slice(1) : first;
  return words.join(' ');
}

const FORMAT_PATTERNS: Record<string, { re: string; says: string }> = {
  uri: { re: '^https?://[^\\s/?#]+[^\\s]*$', says: 'a web address starting with https://' },
  email: { re: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', says: 'an email address' },
};

/** Texts long enough for a multi-line box (by the field's name in the model). */
const LONG_TEXT = /(description|answer|text|intro|about|paragraphs?|subheading|fallback|consent|summary)$/i;

/**
 * One Decap pattern ([regex, message]) for everything the schema says about a text: its own pattern,
 * the not-blank rule and its length. Decap tests the regex anywhere in the value, as ajv does.
 */
function textPattern(s: Schema, hint: string | undefined): [string, string] | undefined {
  const parts: { re: string; says: string }[] = [];
  // A format ajv checks by name: as a pattern the CMS can test (the model's URLs are http(s) only).
  const format = s.format ? FORMAT_PATTERNS[s.format] : undefined;
  if (s.format && !format) throw new Error(`cms config: no pattern for the format ${s.format}`);
  if (format && !s.pattern) parts.push(format);
  for (const p of [s.pattern, ...(s.allOf ?? []).map((a) => a.pattern)]) {
    if (p === undefined) continue;
    const { re, says } = withoutUnicodeFlag(p);
    parts.push({ re, says: p === NOT_BLANK ? 'must not be blank' : (says ?? hint ?? 'must have the required form') });
  }
  const min = s.minLength ?? 0;
  const max = s.maxLength;
  if (max !== undefined || min > 1) {
    parts.push({ re: `^[\\s\\S]{${min},${max ?? ''}}$`, says: max === undefined ? `at least ${min} characters` : min > 1 ? `${min} to ${max} characters` : `at most ${max} characters` });
  }
  if (parts.length === 0) return undefined;
  const re = parts.length === 1 ? parts[0]!.re : `^${parts.map((p) => `(?=[\\s\\S]*?(?:${p.re}))`).join('')}`;
  const says = [...new Set(parts.map((p) => p.says))];
  return [re, says.join('; ')];
}

/**
 * Decap compiles a field's pattern without the `u` flag, where `\p{L}` is no letter class; ajv and
 * zod compile with it. The model's Unicode classes, in words Decap's RegExp reads: "a letter or
 * digit" becomes "a character that is neither a space nor ASCII punctuation", which lets through
 * only the non-ASCII signs (… — ©) the check before saving (cms/app/check.ts) still refuses.
 */
const UNICODE_CLASSES: Record<string, { re: string; says: string }> = {
  '[\\p{L}\\p{N}]': { re: '[^\\s!-/:-@[-`{-~]', says: 'must hold a letter or a digit' },
};

/** A pattern of the model as Decap can test it, and what it asks for (undefined: say the field's hint). */
function withoutUnicodeFlag(pattern: string): { re: string; says?: string } {
  const known = UNICODE_CLASSES[pattern];
  if (known) return known;
  if (/\\[pP]\{/.test(pattern)) throw new Error(`cms config: the pattern ${pattern} needs the u flag, which Decap does not set: add it to UNICODE_CLASSES`);
  return { re: pattern };
}

interface FieldContext { mediaFolder: string }

function fieldOf(name: string, s: Schema, required: boolean, ctx: FieldContext): CmsField {
  const base: CmsField = { name, label: labelOf(name), widget: 'string' };
  if (s.description) base.hint = s.description;
  if (!required) base.required = false;
  return { ...base, ...widgetOf(name, s, ctx) };
}

function widgetOf(name: string, s: Schema, ctx: FieldContext): Record<string, unknown> & { widget: string } {
  if (s.const !== undefined) return { widget: 'hidden', default: s.const };
  if (s.anyOf) {
    const values = s.anyOf.flatMap((o) => (o.type === 'boolean' ? [true, false] : o.const !== undefined ? [o.const] : []));
    if (values.length !== s.anyOf.length + 1 && values.length !== s.anyOf.length) throw new Error(`cms config: cannot edit the union of ${name}`);
    return { widget: CHOICE_WIDGET, options: values.map((v) => ({ label: v === true ? 'Yes' : v === false ? 'No' : String(v), value: v })) };
  }
  switch (s.type) {
    case 'string': {
      if (s.enum) return { widget: 'select', options: s.enum };
      // A moment (an article's date): typed and shown on the business's clock (cms/app/zonedDate.ts).
      if (s.pattern === LOCAL_DATE_TIME.source) return { widget: ZONED_DATE_TIME_WIDGET, pattern: [s.pattern, 'a date and time, e.g. 2026-11-20T09:30'] };
      if (s.pattern === IMAGE_PATH.source) {
        return {
          widget: 'image', choose_url: false, media_folder: `/content/images/${ctx.mediaFolder}`, public_folder: ctx.mediaFolder,
          media_library: { config: { max_file_size: MAX_UPLOAD_BYTES } }, pattern: [s.pattern, s.description ?? 'an image file'],
        };
      }
      const pattern = textPattern(s, s.description);
      return { widget: LONG_TEXT.test(name) ? 'text' : 'string', ...(pattern && { pattern }) };
    }
    case 'integer':
    case 'number':
      return {
        widget: 'number', value_type: s.type === 'integer' ? 'int' : 'float',
        ...(s.minimum !== undefined && { min: s.minimum }),
        ...(s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER && { max: s.maximum }),
      };
    case 'boolean':
      return { widget: 'boolean', default: false };
    case 'object':
      return { widget: 'object', collapsed: false, fields: fieldsOf(s, ctx) };
    case 'array':
      return listOf(name, s, ctx);
    default:
      throw new Error(`cms config: no widget for ${name} (${JSON.stringify(s).slice(0, 80)})`);
  }
}

const SUMMARY_FIELDS = ['name', 'title', 'question', 'task', 'type', 'label'];

function listOf(name: string, s: Schema, ctx: FieldContext): Record<string, unknown> & { widget: string } {
  const items = s.items ?? {};
  const counts = { ...(s.minItems !== undefined && { min: s.minItems }), ...(s.maxItems !== undefined && { max: s.maxItems }) };
  if (items.type === 'string' && items.enum) return { widget: 'select', multiple: true, options: items.enum, ...counts };
  if (items.oneOf) {
    // A discriminated union: one list entry type per variant, told apart by `kind`.
    const types = items.oneOf.map((variant) => {
      const tag = String(variant.properties?.kind?.const);
      const rest = { ...variant, properties: Object.fromEntries(Object.entries(variant.properties ?? {}).filter(([k]) => k !== 'kind')) };
      return { name: tag, label: labelOf(tag), widget: 'object', fields: fieldsOf(rest, ctx) };
    });
    return { widget: 'list', typeKey: 'kind', types, ...counts };
  }
  if (items.type === 'object') {
    // A collapsed entry shows its most telling field: its name or title if it has one.
    const keys = Object.keys(items.properties ?? {});
    const shown = SUMMARY_FIELDS.find((k) => keys.includes(k)) ?? keys[0];
    return { widget: 'list', collapsed: true, ...(shown && { summary: `{{fields.${shown}}}` }), fields: fieldsOf(items, ctx), ...counts };
  }
  const single = fieldOf(name.replace(/s$/, '') || name, items, true, ctx);
  const widget = /^(paragraphs|intro)$/.test(name) ? 'text' : single.widget;
  return { widget: 'list', field: { ...single, widget, label: labelOf(single.name) }, ...counts };
}

function fieldsOf(s: Schema, ctx: FieldContext): CmsField[] {
  return Object.entries(s.properties ?? {}).map(([name, field]) => fieldOf(name, field, s.required?.includes(name) ?? false, ctx));
}

/** The modeline every YAML content file starts with, for editors (as a YAML comment's text); a translation's files are one folder deeper. */
export function modelineOf(kind: ContentKind, lang: Lang = DEFAULT_LANGUAGE): string {
  const from = path.posix.join(LANGUAGE_INFO[lang].folder, kind.dir ?? path.posix.dirname(kind.file ?? '.'));
  const rel = path.posix.relative(from, `schemas/${kind.schemaFile}`);
  return `yaml-language-server: $schema=${rel.startsWith('.') ? rel : `./${rel}`}`;
}

/**
 * Where a Markdown body's pictures are written, as the body names them: /images/<path> is
 * content/images/<path> (BODY_IMAGE_PREFIX of generator/model/articles.ts).
 */
const BODY_IMAGE_PREFIX = '/images/';

/**
 * An article's text, with what its Markdown may hold (the build's Markdown rules,
 * contracts/articleMarkdown.ts): headings of levels 2 to 4 (the title is the page's one level 1),
 * bold, italic, links, lists, quotes and pictures. No code, no raw Markdown mode (where HTML could
 * be typed; the build would show it as text): the buttons and the picture are all there is. Pictures
 * go to content/images/articles/ like the article's own picture.
 */
const ARTICLE_BODY: CmsField = {
  name: 'body', label: 'Text', widget: 'markdown',
  hint: 'The article. Start sections with a level 2 heading (the title is the page\'s main heading); level 3 and 4 headings go inside a section.',
  buttons: ['bold', 'italic', 'link', 'heading-two', 'heading-three', 'heading-four', 'quote', 'bulleted-list', 'numbered-list'],
  editor_components: ['image'],
  modes: ['rich_text'],
  media_folder: '/content/images/articles', public_folder: `${BODY_IMAGE_PREFIX}articles`,
  media_library: { config: { max_file_size: MAX_UPLOAD_BYTES } },
};

/**
 * The fields of one kind in one language, the first carrying the modeline (Decap writes a field's
 * comment above it). A translation has the same fields, from the same schema, but for its own
 * fields (TRANSLATION_FIELDS), required there.
 */
function kindFields(name: KindName, lang: Lang = DEFAULT_LANGUAGE): CmsField[] {
  const kind: ContentKind = kinds[name];
  const own = TRANSLATION_FIELDS[name];
  const fields = fieldsOf(jsonSchemaOf(kind) as Schema, { mediaFolder: kind.dir ?? name }).flatMap((f): CmsField[] => {
    if (f.name !== own?.field) return [f];
    if (lang === DEFAULT_LANGUAGE) return own.english === 'absent' ? [] : [f];
    const { required: _optional, ...required } = f;
    return [required];
  });
  if (name === 'article') return [...fields, ARTICLE_BODY];
  if (kind.format === 'markdown') return [...fields, { name: 'body', label: 'Text', widget: 'markdown', hint: 'The page text. Headings start at level 2 (##).' }];
  if (fields[0]) fields[0] = { ...fields[0], comment: modelineOf(kind, lang) };
  return fields;
}

/**
 * A new translated entry's first field: the English entry it translates, among the English
 * collection's (Decap's relation widget, cms/app/twinWidget.tsx). Its value, that entry's file
 * name, becomes the new file's (the collection's identifier), so a translation never lacks its
 * twin; it is not written into the file (cms/app/format.ts). Required: an entry already saved keeps
 * its name, which the widget counts as its value.
 */
function twinField(english: CmsCollection, singular: string): CmsField {
  return {
    name: TWIN_FIELD, label: 'English original', widget: TWIN_WIDGET,
    hint: `The English ${singular.toLowerCase()} this one translates: the new file takes its file name, which pairs the two (the build checks one against the other). Only asked when the entry is created.`,
    collection: english.name, search_fields: ['name'], value_field: '{{slug}}', display_fields: ['{{name}} ({{slug}})'],
  };
}

/** One group's collection in the default language. */
function englishCollection(group: Group): CmsCollection {
  const first: ContentKind = kinds[group.kinds[0]!];
  const common = { name: group.name, label: group.label, description: group.description, editor: { preview: group.preview ?? false } };
  if (first.dir) {
    const markdown = first.format === 'markdown';
    const fields = kindFields(group.kinds[0]!);
    const identifier = fields.some((f) => f.name === 'name') ? 'name' : 'title';
    // Markdown is read and written by the admin script's own "frontmatter" format (cms/app/format.ts).
    const [sortFirst, ...sortRest] = group.sortBy ?? [];
    return {
      ...common, label_singular: group.singular ?? group.label, folder: `content/${first.dir}`,
      extension: markdown ? 'md' : 'yaml', format: markdown ? 'frontmatter' : 'yaml',
      create: group.create ?? false, delete: group.create ?? false,
      identifier_field: identifier, slug: '{{slug}}',
      // A draft says so in the list of entries.
      summary: fields.some((f) => f.name === 'draft') ? `{{${identifier}}}{{draft | ternary(' (draft)', '')}}` : `{{${identifier}}}`,
      ...(sortFirst && { sortable_fields: [{ field: sortFirst, default_sort: 'desc' }, ...sortRest] }),
      fields,
    };
  }
  return {
    ...common, format: 'yaml',
    files: group.kinds.map((name) => {
      const kind: ContentKind = kinds[name];
      return { name, label: kind.title.charAt(0).toUpperCase() + kind.title.slice(1), file: `content/${kind.file}`, fields: kindFields(name) };
    }),
  };
}

/**
 * The same group's collection in a translation, or none when it has none of its kinds: its files
 * under content/<folder>/ with the English file names, the same fields, its own format (the
 * modeline is one folder deeper: cms/app/format.ts), and a new city or service started from its
 * English original (twinField). The name is the English one's with the language (cities-es).
 */
function translatedCollection(group: Group, english: CmsCollection, lang: Lang): CmsCollection | undefined {
  const own = group.kinds.filter((k) => !ENGLISH_ONLY_KINDS.has(k));
  if (!own.length) return undefined;
  const names = TRANSLATED_GROUPS[lang]?.[group.name];
  if (!names) throw new Error(`cms config: the ${lang} collection of ${group.name} needs its label (TRANSLATED_GROUPS)`);
  const first: ContentKind = kinds[own[0]!];
  const common = {
    name: collectionIn(lang, group.name), label: names.label, description: names.description, editor: { preview: group.preview ?? false },
    format: yamlFormatOf(lang),
  };
  if (first.dir) {
    const singular = names.singular ?? names.label;
    return {
      ...common, label_singular: singular, folder: fileIn(lang, first.dir), extension: 'yaml',
      create: true, delete: true,
      // The new file's name is the English original's (Decap makes {{slug}} of the identifier).
      identifier_field: TWIN_FIELD, slug: '{{slug}}', summary: english.summary,
      fields: [twinField(english, group.singular ?? group.label), ...kindFields(own[0]!, lang)],
    };
  }
  return {
    ...common,
    files: own.map((name) => {
      const kind: ContentKind = kinds[name];
      return { name, label: kind.title.charAt(0).toUpperCase() + kind.title.slice(1), file: fileIn(lang, kind.file!), fields: kindFields(name, lang) };
    }),
  };
}

/** The collections, one per group of content kinds, each followed by its translations'. */
export function cmsCollections(): CmsCollection[] {
  const grouped = GROUPS.flatMap((g) => g.kinds);
  const missing = (Object.keys(kinds) as KindName[]).filter((k) => !grouped.includes(k));
  if (missing.length || new Set(grouped).size !== grouped.length) throw new Error(`cms config: every content kind must be in one group (missing: ${missing.join(', ')})`);
  return GROUPS.flatMap((group) => {
    const english = englishCollection(group);
    const translated = TRANSLATIONS.flatMap((lang) => translatedCollection(group, english, lang) ?? []);
    return [english, ...translated];
  });
}

/** The configuration as committed: everything but the deployment's own settings. */
export function cmsConfig(): CmsConfig {
  return {
    // Production: the GitHub backend with the editorial workflow (every change a pull request that
    // CI checks). The repository and the sign-in host are set by the build and the admin page.
    backend: { name: 'github', branch: 'main', auth_endpoint: 'api/auth', squash_merges: true },
    publish_mode: 'editorial_workflow',
    // On localhost and 127.0.0.1 the CMS uses the dev server's local backend instead (url set by the admin page).
    local_backend: true,
    media_folder: 'content/images',
    public_folder: '',
    slug: { encoding: 'ascii', clean_accents: true, sanitize_replacement: '-' },
    collections: cmsCollections(),
  };
}

export const cmsConfigText = () => JSON.stringify(cmsConfig(), null, 2) + '\n';

/** What /admin/config.json holds for one deployment. */
export function deployedCmsConfig(opts: { origin: string; repo?: string | undefined }): CmsConfig {
  const config = cmsConfig();
  const backend = config.backend as Record<string, unknown>;
  return {
    ...config,
    backend: { ...backend, ...(opts.repo && { repo: opts.repo }) },
    site_url: opts.origin,
    display_url: opts.origin,
  };
}
