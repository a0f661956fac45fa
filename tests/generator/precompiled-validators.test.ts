/**
 * The build validates content with ajv's validators compiled ahead of time by `npm run schemas`
 * (contracts/validate/compiledValidators.ts) instead of compiling them on every build. A file
 * that is stale must never decide what content is accepted: a validator is used only while the
 * schema it was compiled from is the model's, and the committed one must be today's.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as committed from '../../contracts/validate/compiledValidators.js';
import { usePrecompiledValidators, validateDoc, type PrecompiledValidators } from '../../contracts/validate/schema.js';
import { COMPILED_VALIDATORS, compiledValidatorsText } from '../../generator/schemasWrite.js';
import { ROOT } from '../helpers/content.js';

const blankCity = { file: 'content/cities/x.yaml', kind: 'city' as const, slug: 'x', yaml: 'name: ""\n', lineOffset: 0, data: { name: '' } };
const acceptAll = Object.assign(() => true, { errors: null }) as unknown as NonNullable<PrecompiledValidators['validators']['city']>;
const restore = () => usePrecompiledValidators(committed);

describe('validators compiled ahead of time', () => {
  afterEach(restore);

  it('the committed module is the one today\'s content model generates', async () => {
    expect(await readFile(path.join(ROOT, COMPILED_VALIDATORS), 'utf8'), `${COMPILED_VALIDATORS} is stale: run npm run schemas`).toBe(compiledValidatorsText());
  });

  it('refuses what the model refuses: a blank city name, with the schema\'s words', () => {
    restore();
    const result = validateDoc(blankCity);
    expect(result.errors?.map((e) => e.path)).toContain('name');
  });

  it('a validator compiled from another schema is not used: the model\'s own is compiled', () => {
    usePrecompiledValidators({ validators: { city: acceptAll }, schemaTexts: { city: '{"type":"object"}' } });
    const data = { name: 'X', population: '~1,000', description: 'A small city.', colour: 'red' };
    expect(validateDoc({ ...blankCity, data }).errors?.[0]?.message).not.toMatch(/Unrecognized key/);
  });

  it('one compiled from the model\'s schema is the one used', () => {
    // An unknown field: ajv's validator names it in the schema's words; let through by the
    // accept-all stand-in (being used), it is refused by the model itself (zod), in zod's.
    const data = { name: 'X', population: '~1,000', description: 'A small city.', colour: 'red' };
    const unknownField = { ...blankCity, yaml: 'name: X\npopulation: "~1,000"\ndescription: A small city.\ncolour: red\n', data };
    const bySchema = validateDoc(unknownField).errors?.[0]?.message;
    expect(bySchema).toContain('colour');
    expect(bySchema).not.toMatch(/Unrecognized key/);
    usePrecompiledValidators({ validators: { city: acceptAll }, schemaTexts: { city: committed.schemaTexts.city } });
    expect(validateDoc(unknownField).errors?.[0]?.message).toBe('Unrecognized key: "colour"');
  });
});
