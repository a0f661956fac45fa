/**
 * Writes content/schemas/ from the zod model: the JSON Schemas, the content reference and the CMS
 * configuration (cms/config.ts); reports which files changed.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cmsConfigText } from './backOffice.js';
import { schemaFilesWithReference } from './reference.js';

/** Every generated file of content/schemas/: name → text. */
export function generatedSchemaFiles(): Map<string, string> {
  return new Map([...schemaFilesWithReference(), ['cms-config.json', cmsConfigText()]]);
}

export async function writeSchemas(contentDir: string): Promise<string[]> {
  const dir = path.join(contentDir, 'schemas');
  await mkdir(dir, { recursive: true });
  const changed: string[] = [];
  for (const [name, json] of generatedSchemaFiles()) {
    const file = path.join(dir, name);
    const current = await readFile(file, 'utf8').catch(() => '');
    if (current !== json) {
      await writeFile(file, json);
      changed.push(name);
    }
  }
  return changed;
}
