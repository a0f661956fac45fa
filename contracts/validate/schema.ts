/**
 * Stage validate: each document parsed with the zod model, so that later stages get the model's
 * output (trimmed texts). A refused one is checked against its kind's JSON Schema (ajv) as well,
 * errors turned into plain words; zod's problems, in the same words, for what JSON Schema cannot
 * say (lengths are counted after trimming).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { z } from 'zod';
import type { RawDoc, ValidDoc } from '../documents.js';
import type { ContentError, PathSegment } from '../errors.js';
import { kinds, type KindName } from '../kinds.js';
import { formatPath } from './errors.js';
import { jsonSchemaOf, NOT_BLANK } from './jsonSchemas.js';
import { closest } from './hints.js';
import { locator, type Locator } from './locate.js';

const BLANK_HINT = 'write the text; spaces, tabs and line breaks alone do not count';
const TRIM_HINT = 'spaces, tabs and line breaks at the start and end do not count';

type Schema = Record<string, unknown>;

const validators = new Map<KindName, { validate: ValidateFunction; schema: Schema }>();

/** The ajv every validator is compiled with (the tests compile the editors' schemas with it too). */
export function contentAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  return ajv;
}

/** A kind's validator, compiled the first time a document of that kind is refused. */
function validatorFor(kind: KindName) {
  let entry = validators.get(kind);
  if (!entry) {
    const schema = jsonSchemaOf(kinds[kind]);
    entry = { validate: contentAjv().compile(schema), schema };
    validators.set(kind, entry);
  }
  return entry;
}

export type Validated = { doc: ValidDoc; errors?: undefined } | { doc?: undefined; errors: ContentError[] };

/**
 * One document against its kind's model: the valid document, its data the model's output (texts
 * trimmed) so every later stage gets what the types say, or its problems. The zod model decides;
 * only a refused document is checked against the JSON Schema too, for its messages in the words
 * editors see (the schema's), and for what the schema cannot say (lengths counted after
 * trimming) in zod's turned into the same words.
 */
export function validateDoc(doc: RawDoc): Validated {
  const parsed = kinds[doc.kind].schema.safeParse(doc.data);
  // The schema is the one of doc.kind, so its output is that kind's data (TypeScript cannot pair the two).
  if (parsed.success) return { doc: { ...doc, data: parsed.data } as ValidDoc };
  const loc = locator(doc.yaml, doc.lineOffset);
  const { validate, schema } = validatorFor(doc.kind);
  if (!validate(doc.data)) {
    return { errors: relevantErrors(validate.errors ?? [], doc.data, schema).map((e) => describeError(e, doc, loc, schema)) };
  }
  return { errors: parsed.error.issues.map((issue) => describeIssue(issue, doc, loc)) };
}

/** A model problem the JSON Schema let through, in the same words as the schema's. */
function describeIssue(issue: z.core.$ZodIssue, doc: RawDoc, loc: Locator): ContentError {
  const path = issue.path.filter((seg): seg is PathSegment => typeof seg !== 'symbol');
  const value = valueAt(doc.data, path);
  const base = { file: doc.file, ...loc.value(path), path: formatPath(path) };
  if (typeof value !== 'string') return { ...base, message: issue.message };
  const length = `is ${value.trim().length} characters long without the spaces around it`;
  if (issue.code === 'too_small') {
    return Number(issue.minimum) <= 1
      ? { ...base, message: 'must not be blank', hint: BLANK_HINT }
      : { ...base, message: `${length}, at least ${issue.minimum} needed`, hint: TRIM_HINT };
  }
  if (issue.code === 'too_big') return { ...base, message: `${length}, at most ${issue.maximum} allowed`, hint: TRIM_HINT };
  return { ...base, message: issue.message };
}

function toPath(instancePath: string): PathSegment[] {
  if (!instancePath) return [];
  return instancePath.slice(1).split('/').map((s) => {
    const seg = s.replace(/~1/g, '/').replace(/~0/g, '~');
    return /^\d+$/.test(seg) ? Number(seg) : seg;
  });
}

function valueAt(data: unknown, path: readonly PathSegment[]): unknown {
  let v: unknown = data;
  for (const seg of path) v = v && typeof v === 'object' ? (v as Record<string | number, unknown>)[seg] : undefined;
  return v;
}

/** The sub-schema at an ajv schemaPath such as #/properties/page/properties/faqs. */
function schemaAt(schema: Schema, schemaPath: string): Schema | undefined {
  let node: unknown = schema;
  for (const seg of schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[seg.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  return node && typeof node === 'object' ? (node as Schema) : undefined;
}

/**
 * For unions, ajv reports every branch. Keep only the branch the author meant: for tagged unions
 * the one whose `kind` matches; otherwise replace the branch noise by one error at the union.
 */
function relevantErrors(errors: ErrorObject[], data: unknown, schema: Schema): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
  let kept = errors;
  for (const union of unions) {
    const prefix = union.schemaPath.slice(0, -union.keyword.length - 1) + '/' + union.keyword + '/';
    const branches = (schemaAt(schema, union.schemaPath) as unknown as Schema[]) ?? [];
    const value = valueAt(data, toPath(union.instancePath)) as Record<string, unknown> | undefined;
    const tag = value && typeof value === 'object' ? value.kind : undefined;
    const chosen = branches.findIndex((b) => (b.properties as Record<string, Schema> | undefined)?.kind?.const === tag);
    kept = kept.filter((e) => {
      if (!e.schemaPath.startsWith(prefix)) return true;
      return chosen >= 0 && e.schemaPath.startsWith(`${prefix}${chosen}/`);
    });
    if (chosen >= 0) kept = kept.filter((e) => e !== union);
  }
  // A blank text that also breaks another rule of its field (empty, too short) is told that one.
  const isBlankRule = (e: ErrorObject) => e.keyword === 'pattern' && e.params.pattern === NOT_BLANK;
  return kept.filter((e) => !isBlankRule(e) || !kept.some((other) => other !== e && !isBlankRule(other) && other.instancePath === e.instancePath));
}

const typeWords: Record<string, string> = {
  string: 'text', number: 'a number', integer: 'a whole number', boolean: 'true or false',
  array: 'a list', object: 'a group of fields', null: 'nothing',
};

function describeValue(v: unknown): string {
  if (v === null || v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return 'text';
  if (typeof v === 'number') return Number.isInteger(v) ? 'a number' : 'a decimal number';
  if (typeof v === 'boolean') return `${v}`;
  return 'a group of fields';
}

function describeError(e: ErrorObject, doc: RawDoc, loc: Locator, schema: Schema): ContentError {
  const path = toPath(e.instancePath);
  const value = valueAt(doc.data, path);
  const sub = schemaAt(schema, e.schemaPath.slice(0, e.schemaPath.lastIndexOf('/')));
  const description = typeof sub?.description === 'string' ? sub.description : undefined;
  const base = { file: doc.file, ...loc.value(path), path: formatPath(path) };
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type':
      return { ...base, message: `expected ${typeWords[String(params.type)] ?? params.type}, got ${describeValue(value)}`, ...(description && { hint: description }) };
    case 'required': {
      const missing = String(params.missingProperty);
      const fieldSchema = (sub?.properties as Record<string, Schema> | undefined)?.[missing];
      const about = typeof fieldSchema?.description === 'string' ? ` (${fieldSchema.description})` : '';
      return { ...base, path: formatPath([...path, missing]), message: 'required field is missing', hint: `add \`${missing}:\`${about}` };
    }
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const allowed = Object.keys((sub?.properties as Record<string, unknown> | undefined) ?? {});
      const guess = closest(key, allowed);
      return {
        ...base, ...loc.key(path, key), path: formatPath([...path, key]), message: `unknown field \`${key}\``,
        hint: guess ? `did you mean \`${guess}\`?` : `allowed fields here: ${allowed.join(', ')}`,
      };
    }
    case 'minLength':
      return Number(params.limit) <= 1
        ? { ...base, message: 'must not be empty' }
        : { ...base, message: `is ${String(value).length} characters long, at least ${params.limit} needed`, ...(description && { hint: description }) };
    case 'maxLength':
      return { ...base, message: `is ${String(value).length} characters long, at most ${params.limit} allowed`, ...(description && { hint: description }) };
    case 'minItems':
    case 'maxItems': {
      const count = Array.isArray(value) ? value.length : 0;
      const exact = sub?.minItems !== undefined && sub.minItems === sub.maxItems;
      const need = exact ? `exactly ${params.limit}` : `${e.keyword === 'minItems' ? 'at least' : 'at most'} ${params.limit}`;
      return { ...base, message: `has ${count} item${count === 1 ? '' : 's'}, ${need} expected`, ...(description && { hint: description }) };
    }
    case 'enum':
    case 'const': {
      const options = (params.allowedValues as unknown[] | undefined) ?? [params.allowedValue];
      const guess = typeof value === 'string' ? closest(value, options.map(String)) : undefined;
      return {
        ...base, message: `expected ${options.map((o) => JSON.stringify(o)).join(' or ')}, got ${JSON.stringify(value)}`,
        ...(guess && { hint: `did you mean \`${guess}\`?` }),
      };
    }
    case 'pattern':
    case 'format':
      if (params.pattern === NOT_BLANK) return { ...base, message: 'must not be blank', hint: BLANK_HINT };
      return { ...base, message: `${JSON.stringify(value)} is not valid here`, hint: description ?? `expected ${e.keyword === 'format' ? `a valid ${params.format}` : 'a different form'}` };
    case 'minimum':
    case 'maximum':
      return { ...base, message: `must be ${e.keyword === 'minimum' ? 'at least' : 'at most'} ${params.limit}` };
    case 'anyOf':
    case 'oneOf':
      return { ...base, message: `${JSON.stringify(value)} is not one of the allowed forms`, ...(description && { hint: description }) };
    default:
      return { ...base, message: e.message ?? 'is not valid' };
  }
}
