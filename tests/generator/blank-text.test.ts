/** A required text of only spaces, tabs or line breaks is as empty as no text at all. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { checkContent } from '../../generator/build.js';
import { problems, ROOT, useContentCopy } from '../helpers/content.js';

describe('blank text', () => {
  const copy = useContentCopy('blank-text-');
  const colma = () => path.join(copy.contentDir, 'cities/colma.yaml');
  const edit = async (file: string, from: string | RegExp, to: string) => {
    const text = await readFile(file, 'utf8');
    const edited = text.replace(from, to);
    expect(edited).not.toBe(text);
    await writeFile(file, edited);
  };

  it('refuses a required text of only spaces, or only tabs and line breaks, with file:line:column, field and hint', async () => {
    await edit(colma(), 'name: Colma', 'name: "   "');
    await edit(colma(), /^ {2}tagline: .*$/m, '  tagline: "\\t\\n\\t"');
    expect(await problems(copy.contentDir)).toEqual([
      'content/cities/colma.yaml:2:7 name: must not be blank\n    hint: write the text; spaces, tabs and line breaks alone do not count',
      'content/cities/colma.yaml:8:12 page.tagline: must not be blank\n    hint: write the text; spaces, tabs and line breaks alone do not count',
    ]);
  });

  it('refuses blank text in a list and in a Markdown front matter', async () => {
    await edit(colma(), /^ {4}- One local contact.*$/m, "    - ' '");
    const policy = path.join(copy.contentDir, 'legal/privacy-policy.md');
    await edit(policy, 'title: Privacy Policy', 'title: "\\t"');
    expect(await problems(copy.contentDir)).toEqual([
      'content/cities/colma.yaml:14:7 page.benefits[0]: must not be blank\n    hint: write the text; spaces, tabs and line breaks alone do not count',
      'content/legal/privacy-policy.md:2:8 title: must not be blank\n    hint: write the text; spaces, tabs and line breaks alone do not count',
    ]);
  });

  it('counts lengths without the spaces around a text, as the model does', async () => {
    // 49 characters, padded past the 50-character minimum with spaces the model trims.
    await edit(colma(), /^ {2}seoDescription: .*$/m, `  seoDescription: "${'Deep cleaning in Colma, CA, by a local small team.'.slice(0, 49)}      "`);
    expect(await problems(copy.contentDir)).toEqual([
      'content/cities/colma.yaml:7:19 page.seoDescription: is 49 characters long without the spaces around it, at least 50 needed\n    hint: spaces, tabs and line breaks at the start and end do not count',
    ]);
  });

  it('gives the pages the trimmed text', async () => {
    await edit(colma(), 'name: Colma', 'name: "  Colma\\t"');
    const { model } = await checkContent({ root: copy.dir, contentDir: copy.contentDir });
    expect(model.cities.find((c) => c.slug === 'colma')?.name).toBe('Colma');
  });

  it('the committed JSON Schema refuses blank text too, so editors underline it', async () => {
    const schema = JSON.parse(await readFile(path.join(ROOT, 'content/schemas/city.schema.json'), 'utf8'));
    const validate = new Ajv2020({ strict: false }).compile(schema);
    const city = { name: 'Colma', population: '~1,500', description: 'A town.' };
    expect(validate(city)).toBe(true);
    expect(validate({ ...city, name: ' \t\n ' })).toBe(false);
    expect(validate({ ...city, description: '   ' })).toBe(false);
  });
});
