/**
 * The CMS configuration is derived from the content model (cms/config.ts):
 * - the committed content/schemas/cms-config.json is what the model generates today;
 * - every field of every content kind is there, labelled, with the model's description as hint;
 * - the CMS accepts exactly what `npm run check` accepts, field by field: each text pattern, length,
 *   list length and number range is tried against ajv on the JSON Schema the build validates with;
 * - the CMS's YAML format (cms/app/format.ts) saves every committed YAML file back with the same
 *   data and its editor modeline, so opening and saving an entry changes nothing the build sees;
 * - the Spanish files (content/es/) have collections of their own beside the English ones, with the
 *   same fields from the same schema, but for a translation's own fields (a service's slug, required
 *   there and absent from the English form; the language switch's texts, required there), and a new
 *   Spanish city or service is named after the English original it is started from.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { load as parseYaml } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { ENGLISH_ONLY_KINDS, kinds, kindNames, type ContentKind, type KindName } from '../../contracts/kinds.js';
import { DEFAULT_LANGUAGE, LANGUAGES, type Lang } from '../../contracts/languages.js';
import { cmsCollections, cmsConfig, cmsConfigText, modelineOf, type CmsCollection, type CmsField } from '../../cms/config.js';
import { listContentFiles } from '../../generator/content/load.js';
import { jsonSchemaOf } from '../../contracts/validate/jsonSchemas.js';
import { cmsYamlFormat, fieldSetsOf, yamlFormatOf } from '../../cms/app/format.js';
import { collectionIn, contentPathOf, TWIN_FIELD, TWIN_WIDGET } from '../../cms/app/translations.js';
import { contentCopy, problems, ROOT, withTempDir } from '../helpers/content.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
type Schema = { type?: string; format?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; description?: string; oneOf?: Schema[]; minItems?: number; maxItems?: number; minimum?: number; maximum?: number };

/** Where a content file is: its language and kind ('es:city'). */
type Where = `${Lang}:${KindName}`;

/** The fields the CMS shows for each kind in each language (a folder collection's, or one file's of a files collection), a new translation's English original left out. */
function fieldsByKind(): Map<Where, CmsField[]> {
  const out = new Map<Where, CmsField[]>();
  const at = (file: string): Where => {
    const where = contentPathOf(file.slice('content/'.length))!;
    return `${where.lang}:${where.kind}`;
  };
  for (const c of cmsCollections()) {
    if (typeof c.folder === 'string') out.set(at(`${c.folder}/x.${c.extension}`), (c.fields as CmsField[]).filter((f) => f.name !== TWIN_FIELD));
    for (const f of (c.files ?? []) as { name: KindName; file: string; fields: CmsField[] }[]) {
      expect(at(f.file).endsWith(`:${f.name}`), f.file).toBe(true);
      out.set(at(f.file), f.fields);
    }
  }
  return out;
}

/** The kinds each language has: every kind in English, all but the English-only ones in a translation. */
const kindsIn = (lang: Lang) => kindNames.filter((k) => lang === DEFAULT_LANGUAGE || !ENGLISH_ONLY_KINDS.has(k));

/** What a translation writes that its English twin does not (contracts/validate/twins.ts, OWN_FIELDS): required in its form; a slug absent from the English one. */
const TRANSLATION_ONLY: Partial<Record<KindName, string>> = { service: 'slug', site: 'language' };

/** The JSON Schema of a kind as its form in `lang` shows it. */
function formSchema(name: KindName, lang: Lang): Schema {
  const schema = jsonSchemaOf(kinds[name] as ContentKind) as Schema;
  const own = TRANSLATION_ONLY[name];
  if (!own) return schema;
  if (lang !== DEFAULT_LANGUAGE) return { ...schema, required: [...(schema.required ?? []), own] };
  if (name !== 'service') return schema;
  const { [own]: _slug, ...properties } = schema.properties ?? {};
  return { ...schema, properties };
}

/** A list of several entry types (service sections): each JSON Schema variant, without its tag, with its CMS type. */
function variants(s: Schema, field: CmsField): [Schema, CmsField][] {
  const types = (field.types ?? []) as CmsField[];
  return (s.items?.oneOf ?? []).map((variant, i) => {
    const { kind: _tag, ...properties } = variant.properties ?? {};
    return [{ ...variant, properties, required: variant.required?.filter((r) => r !== 'kind') }, types[i]!];
  });
}

/** Texts that probe every rule the model has for a text: blank, lengths, paths, URLs, formats. */
const SAMPLES = [
  ' ', '\t', 'x', ' x ', 'x'.repeat(49), 'x'.repeat(50), 'x'.repeat(70), 'x'.repeat(71), 'x'.repeat(160), 'x'.repeat(161), 'x'.repeat(170), 'x'.repeat(171),
  'cities/mountain-view.svg', 'cities/Mountain View.svg', 'home/hero.png', 'photo.gif', '/book-online', 'tel:+14085550186', 'mailto:a@b.co', 'https://example.com/x', 'http://example.com',
  'hello@bayshinecleaning.com', 'not an email', '+14085550186', '408-555', '09:00', '9am', 'February 6, 2025', 'Feb 6 2025', 'kitchen', 'Kitchen 1',
  'https://www.bayshinecleaning.com', 'https://www.bayshinecleaning.com/', 'CA', 'NY', 'Monday', 'star', 'no-such-icon',
];

describe('the CMS configuration', () => {
  it('is the one the content model generates (content/schemas/cms-config.json is not stale)', async () => {
    expect(await readFile(path.join(ROOT, 'content/schemas/cms-config.json'), 'utf8'), 'cms-config.json is stale: run npm run schemas').toBe(cmsConfigText());
  });

  it('has every field of every content kind in every language, labelled, with the model\'s description as hint and its required flag', () => {
    const byKind = fieldsByKind();
    expect([...byKind.keys()].sort()).toEqual(LANGUAGES.flatMap((lang) => kindsIn(lang).map((k): Where => `${lang}:${k}`)).sort());
    const compare = (schema: Schema, fields: CmsField[], where: string) => {
      const names = fields.map((f) => f.name).filter((n) => n !== 'body');
      expect(names, where).toEqual(Object.keys(schema.properties ?? {}));
      for (const field of fields) {
        if (field.name === 'body') continue;
        const s = schema.properties![field.name]!;
        const at = `${where}.${field.name}`;
        expect(field.label, at).toMatch(/^[A-Z]/);
        expect(field.hint, at).toBe(s.description);
        expect(field.required ?? true, at).toBe(schema.required?.includes(field.name) ?? false);
        if (s.type === 'object') compare(s, field.fields as CmsField[], at);
        if (s.type === 'array' && s.items?.type === 'object') compare(s.items, field.fields as CmsField[], `${at}[]`);
        for (const [variant, type] of variants(s, field)) compare(variant, type.fields as CmsField[], `${at}[${type.name}]`);
        if (s.type === 'array') {
          expect(field.min, `${at} min`).toBe(s.minItems);
          expect(field.max, `${at} max`).toBe(s.maxItems);
        }
        if (s.type === 'integer') expect(field.min, `${at} min`).toBe(s.minimum);
      }
    };
    for (const [where, fields] of byKind) {
      const [lang, name] = where.split(':') as [Lang, KindName];
      compare(formSchema(name, lang), fields, where);
    }
    // The lengths the issue names, read from the city form.
    const page = byKind.get('en:city')!.find((f) => f.name === 'page')!.fields as CmsField[];
    expect(Object.fromEntries(page.filter((f) => f.widget === 'list').map((f) => [f.name, [f.min, f.max]]))).toEqual({ intro: [2, 2], benefits: [6, 6], faqs: [3, 4] });
  });

  it('accepts exactly the texts `npm run check` accepts, field by field', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: false });
    addFormats(ajv);
    let compared = 0;
    const walk = (schema: Schema, fields: CmsField[], where: string) => {
      for (const field of fields) {
        const s = schema.properties?.[field.name];
        if (!s) continue;
        const at = `${where}.${field.name}`;
        if (s.type === 'object') walk(s, field.fields as CmsField[], at);
        else if (s.type === 'array' && s.items?.type === 'object') walk(s.items, field.fields as CmsField[], `${at}[]`);
        else if (s.type === 'array' && s.items?.type === 'string' && field.field) check(s.items, field.field as CmsField, `${at}[]`);
        else if (s.type === 'string' && field.widget !== 'hidden') check(s, field, at);
        for (const [variant, type] of variants(s, field)) walk(variant, type.fields as CmsField[], `${at}[${type.name}]`);
      }
    };
    const check = (s: Schema, field: CmsField, at: string) => {
      const { description: _d, ...rules } = s;
      const valid = ajv.compile(rules);
      const pattern = field.pattern as [string, string] | undefined;
      const options = (field.options as unknown[] | undefined)?.map(String);
      for (const sample of SAMPLES) {
        const cms = options ? options.includes(sample) : !pattern || new RegExp(pattern[0]).test(sample);
        // A named format (uri) is checked by ajv loosely and by zod strictly (http and https only):
        // there the CMS must refuse at least what ajv refuses; elsewhere exactly what ajv refuses.
        if (s.format && !valid(sample)) expect(cms, `${at} with ${JSON.stringify(sample)}`).toBe(false);
        else if (!s.format) expect(cms, `${at} with ${JSON.stringify(sample)}`).toBe(valid(sample));
        compared++;
      }
    };
    for (const [where, fields] of fieldsByKind()) walk(jsonSchemaOf(kinds[where.split(':')[1] as KindName] as ContentKind) as Schema, fields, where);
    expect(compared).toBeGreaterThan(2000);
  });

  it('saves every committed YAML file back with the same data and its modeline, English and Spanish, and the content stays valid', async () => {
    const byKind = fieldsByKind();
    await withTempDir('cms-format-', async (dir) => {
      const contentDir = await contentCopy(dir);
      let spanish = 0;
      for (const lang of LANGUAGES) {
        // Each language's files with its own format, as Decap is configured (yaml, yaml-es).
        const format = cmsYamlFormat(fieldSetsOf(cmsConfig(), yamlFormatOf(lang)));
        const folder = lang === DEFAULT_LANGUAGE ? '' : `${lang}/`;
        const files = (await listContentFiles(path.join(contentDir, folder))).filter((f) => f.endsWith('.yaml'));
        expect(files.length).toBeGreaterThan(lang === DEFAULT_LANGUAGE ? 30 : 20);
        for (const own of files) {
          const rel = folder + own;
          const { kind } = contentPathOf(rel)!;
          const fields = byKind.get(`${lang}:${kind}`)!;
          const text = await readFile(path.join(contentDir, rel), 'utf8');
          // As Decap calls it for a files collection's file: no comments (the format finds them).
          const saved = format.toFile(format.fromFile(text) as object, fields.map((f) => f.name), {});
          expect(saved.split('\n')[0], rel).toBe(`# ${modelineOf(kinds[kind] as ContentKind, lang)}`);
          expect(saved.split('\n')[0], rel).toBe(text.split('\n')[0]);
          expect(parseYaml(saved), rel).toEqual(parseYaml(text));
          await writeFile(path.join(contentDir, rel), saved);
          if (lang !== DEFAULT_LANGUAGE) spanish++;
        }
      }
      expect(spanish).toBeGreaterThan(20);
      expect(await problems(contentDir)).toEqual([]);
    });
  });

  it('leaves out optional values the form left empty, which the model would refuse, and a page left blank', () => {
    const format = cmsYamlFormat();
    const order = ['name', 'population', 'description', 'order', 'page'];
    // A city with only a card: the form's blank page (empty picture, empty lists) is not written.
    expect(format.toFile({ name: 'Los Altos', order: '', population: '~31,000', description: 'x', page: { heroImage: '', intro: [], faqs: [] } }, order, { name: 'modeline' }))
      .toBe('# modeline\nname: Los Altos\npopulation: ~31,000\ndescription: x\n');
    // A page with something in it is kept, lists and all, for the check to count.
    expect(format.toFile({ name: 'Los Altos', population: '~31,000', description: 'x', page: { tagline: 't', heroImage: null, intro: [] } }, order, {}))
      .toBe('name: Los Altos\npopulation: ~31,000\ndescription: x\npage:\n  tagline: t\n  intro: []\n');
  });
});

describe('the Spanish collections', () => {
  const collections = cmsCollections();
  const byName = new Map(collections.map((c) => [c.name, c]));
  const fieldsOf = (c: CmsCollection) => (c.fields ?? []) as CmsField[];
  /** A form's fields without what differs by language: the modeline's path, a translation's own fields, its English original. */
  const shared = (fields: CmsField[]) => fields
    .filter((f) => f.name !== TWIN_FIELD && f.name !== 'slug' && f.name !== 'language')
    .map(({ comment: _modeline, ...f }) => f);

  it('are beside their English collections, labelled in Spanish, over content/es/ with the English file names', () => {
    expect(collections.map((c) => `${c.name} ${c.label}`)).toEqual([
      'cities Cities', 'cities-es Ciudades (español)', 'services Services', 'services-es Servicios (español)', 'articles Articles',
      'pages Pages', 'pages-es Páginas (español)', 'checklist Checklist', 'checklist-es Lista de limpieza (español)',
      'settings Site settings', 'settings-es Ajustes del sitio (español)', 'legal Legal pages',
    ]);
    expect(byName.get('cities-es')).toMatchObject({ folder: 'content/es/cities', extension: 'yaml', format: 'yaml-es', create: true, editor: { preview: true } });
    expect(byName.get('services-es')).toMatchObject({ folder: 'content/es/services', extension: 'yaml', format: 'yaml-es', create: true, editor: { preview: true } });
    for (const name of ['pages', 'checklist', 'settings']) {
      const english = (byName.get(name)!.files as { name: string; file: string }[]).filter((f) => !ENGLISH_ONLY_KINDS.has(f.name as KindName));
      const spanish = byName.get(collectionIn('es', name))!.files as { name: string; file: string }[];
      // The articles' page is English only.
      expect(spanish.map((f) => [f.name, f.file]), name).toEqual(english.map((f) => [f.name, f.file.replace(/^content\//, 'content/es/')]));
    }
  });

  it('have the same fields as the English ones, from the same schema, with the modeline one folder deeper', () => {
    for (const english of collections.filter((c) => byName.has(collectionIn('es', c.name)))) {
      const spanish = byName.get(collectionIn('es', english.name))!;
      expect(shared(fieldsOf(spanish)), spanish.name).toEqual(shared(fieldsOf(english)));
      const files = (c: CmsCollection) => ((c.files ?? []) as { name: string; fields: CmsField[] }[]);
      for (const file of files(spanish)) {
        const twin = files(english).find((f) => f.name === file.name)!;
        expect(shared(file.fields), `${spanish.name}/${file.name}`).toEqual(shared(twin.fields));
        expect(file.fields[0]!.comment, file.name).toBe(String(twin.fields[0]!.comment).replace('$schema=./', '$schema=../'));
      }
    }
    expect(fieldsOf(byName.get('cities-es')!)[1]!.comment).toBe('yaml-language-server: $schema=../../schemas/city.schema.json');
  });

  it('show the English service no slug (its address is its file name) and ask the Spanish one for it, with the model\'s rule', () => {
    expect(fieldsOf(byName.get('services')!).map((f) => f.name)).not.toContain('slug');
    const slug = fieldsOf(byName.get('services-es')!).find((f) => f.name === 'slug')!;
    expect(slug.required).toBeUndefined();
    expect(slug.pattern).toEqual(['^[a-z0-9]+(-[a-z0-9]+)*$', expect.any(String)]);
    // First in the file, where the committed Spanish services have it, under the modeline.
    expect(fieldsOf(byName.get('services-es')!).map((f) => f.name).slice(0, 2)).toEqual([TWIN_FIELD, 'slug']);
    // The language switch's texts: optional in English, required in Spanish.
    const site = (name: string) => ((byName.get(name)!.files as { name: string; fields: CmsField[] }[]).find((f) => f.name === 'site')!.fields).find((f) => f.name === 'language')!;
    expect(site('settings').required).toBe(false);
    expect(site('settings-es').required).toBeUndefined();
  });

  it('start a new Spanish city or service from its English original, whose file name it takes', () => {
    for (const [name, english] of [['cities-es', 'cities'], ['services-es', 'services']] as const) {
      const c = byName.get(name)!;
      const [original] = fieldsOf(c);
      expect(original, name).toMatchObject({ name: TWIN_FIELD, widget: TWIN_WIDGET, collection: english, value_field: '{{slug}}', search_fields: ['name'] });
      // Required (a saved entry counts its file name as its value: cms/app/twinWidget.tsx).
      expect(original!.required, name).toBeUndefined();
      // Decap makes the new file's name ({{slug}}) of the identifier: the English entry's file name.
      expect(c, name).toMatchObject({ identifier_field: TWIN_FIELD, slug: '{{slug}}', summary: '{{name}}' });
    }
  });

  it('never write the English original into the file (the model has no such field)', () => {
    const format = cmsYamlFormat(fieldSetsOf(cmsConfig(), 'yaml-es'));
    const fields = fieldsOf(byName.get('cities-es')!);
    const comments = { name: String(fields[1]!.comment) };
    expect(format.toFile({ [TWIN_FIELD]: 'fremont', name: 'Fremont', population: '~230,000', description: 'x' }, fields.map((f) => f.name), comments))
      .toBe('# yaml-language-server: $schema=../../schemas/city.schema.json\nname: Fremont\npopulation: ~230,000\ndescription: x\n');
  });
});
