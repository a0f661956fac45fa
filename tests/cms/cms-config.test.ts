/**
 * The CMS configuration is derived from the content model (cms/config.ts):
 * - the committed content/schemas/cms-config.json is what the model generates today;
 * - every field of every content kind is there, labelled, with the model's description as hint;
 * - the CMS accepts exactly what `npm run check` accepts, field by field: each text pattern, length,
 *   list length and number range is tried against ajv on the JSON Schema the build validates with;
 * - the CMS's YAML format (cms/app/format.ts) saves every committed YAML file back with the same
 *   data and its editor modeline, so opening and saving an entry changes nothing the build sees.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { load as parseYaml } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { kinds, kindNames, kindOf, type ContentKind, type KindName } from '../../contracts/kinds.js';
import { cmsCollections, cmsConfig, cmsConfigText, modelineOf, type CmsField } from '../../cms/config.js';
import { listContentFiles } from '../../generator/content/load.js';
import { jsonSchemaOf } from '../../contracts/validate/jsonSchemas.js';
import { cmsYamlFormat, fieldSetsOf } from '../../cms/app/format.js';
import { contentCopy, problems, ROOT, withTempDir } from '../helpers/content.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
type Schema = { type?: string; format?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; description?: string; oneOf?: Schema[]; minItems?: number; maxItems?: number; minimum?: number; maximum?: number };

/** The fields the CMS shows for each kind (a folder collection's, or one file's of a files collection). */
function fieldsByKind(): Map<KindName, CmsField[]> {
  const out = new Map<KindName, CmsField[]>();
  for (const c of cmsCollections()) {
    if (typeof c.folder === 'string') out.set(kindOf(`${c.folder.slice('content/'.length)}/x.${c.extension}`)!, c.fields as CmsField[]);
    for (const f of (c.files ?? []) as { name: KindName; file: string; fields: CmsField[] }[]) {
      expect(kindOf(f.file.slice('content/'.length)), f.file).toBe(f.name);
      out.set(f.name, f.fields);
    }
  }
  return out;
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

  it('has every field of every content kind, labelled, with the model\'s description as hint and its required flag', () => {
    const byKind = fieldsByKind();
    expect([...byKind.keys()].sort()).toEqual([...kindNames].sort());
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
    for (const [name, fields] of byKind) compare(jsonSchemaOf(kinds[name] as ContentKind) as Schema, fields, name);
    // The lengths the issue names, read from the city form.
    const page = byKind.get('city')!.find((f) => f.name === 'page')!.fields as CmsField[];
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
    for (const [name, fields] of fieldsByKind()) walk(jsonSchemaOf(kinds[name] as ContentKind) as Schema, fields, name);
    expect(compared).toBeGreaterThan(1000);
  });

  it('saves every committed YAML file back with the same data and its modeline, and the content stays valid', async () => {
    const byKind = fieldsByKind();
    const format = cmsYamlFormat(fieldSetsOf(cmsConfig()));
    await withTempDir('cms-format-', async (dir) => {
      const contentDir = await contentCopy(dir);
      const files = (await listContentFiles(contentDir)).filter((f) => f.endsWith('.yaml'));
      expect(files.length).toBeGreaterThan(30);
      for (const rel of files) {
        const kind = kindOf(rel)!;
        const fields = byKind.get(kind)!;
        const text = await readFile(path.join(contentDir, rel), 'utf8');
        // As Decap calls it for a files collection's file: no comments (the format finds them).
        const saved = format.toFile(format.fromFile(text) as object, fields.map((f) => f.name), {});
        expect(saved.split('\n')[0], rel).toBe(`# ${modelineOf(kinds[kind] as ContentKind)}`);
        expect(parseYaml(saved), rel).toEqual(parseYaml(text));
        await writeFile(path.join(contentDir, rel), saved);
      }
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
