/** JSON Schemas derived from the zod model: written to content/schemas/ and compiled by ajv. */
import { z } from 'zod';
import { kinds, kindNames, type ContentKind } from './kinds.js';

export function jsonSchemaOf(kind: ContentKind): Record<string, unknown> {
  const schema = z.toJSONSchema(kind.schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' });
  return { ...schema, title: kind.title };
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

export async function schemaFilesWithReference(): Promise<Map<string, string>> {
  const { contentReference } = await import('./reference.js');
  return new Map([...schemaFiles(), ['README.md', contentReference()]]);
}
