/** JSON Schemas derived from the zod model in memory: compiled by ajv, and written to content/schemas/ for editors. */
import { z } from 'zod';
import { kinds, kindNames, type ContentKind } from '../kinds.js';

/**
 * The JSON Schema pattern of a text that must not be blank. JavaScript's \s is exactly what
 * String#trim removes, so this says for ajv and editors what z.string().trim().min(1) says.
 */
export const NOT_BLANK = '\\S';

export function jsonSchemaOf(kind: ContentKind): Record<string, unknown> {
  const schema = z.toJSONSchema(kind.schema, {
    target: 'draft-2020-12', io: 'input', unrepresentable: 'throw',
    // Called once per use of a schema, possibly more than once on one JSON object: add the rule once.
    override: ({ zodSchema, jsonSchema }) => {
      if (!refusesBlank(zodSchema) || jsonSchema.pattern === NOT_BLANK || jsonSchema.allOf?.some((s) => s.pattern === NOT_BLANK)) return;
      if (jsonSchema.pattern === undefined) jsonSchema.pattern = NOT_BLANK;
      else jsonSchema.allOf = [...(jsonSchema.allOf ?? []), { pattern: NOT_BLANK }];
    },
  });
  return { ...schema, title: kind.title };
}

type CheckDef = { check: string; tx?: (value: string) => string; minimum?: number };

/**
 * Whether a zod string trims before it needs at least one character: then blank text is refused
 * (JSON Schema's minLength alone counts the spaces). Read from the model, not declared twice.
 */
function refusesBlank(schema: z.core.$ZodType): boolean {
  const def = schema._zod.def as { type: string; checks?: { _zod: { def: CheckDef } }[] };
  if (def.type !== 'string') return false;
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  const trims = checks.findIndex((c) => c.check === 'overwrite' && c.tx?.(' \t\n') === '');
  const needsText = checks.findIndex((c) => c.check === 'min_length' && (c.minimum ?? 0) >= 1);
  return trims >= 0 && needsText > trims;
}

/** Every schema file (and the reference page): name → text, exactly as committed in content/schemas/. */
export function schemaFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of kindNames) {
    const kind: ContentKind = kinds[name];
    files.set(kind.schemaFile, JSON.stringify(jsonSchemaOf(kind), null, 2) + '\n');
  }
  return files;
}
