/**
 * Writes what `npm run schemas` generates from the zod model: content/schemas/ (the JSON Schemas,
 * the content reference and the CMS configuration, cms/config.ts); reports which files changed.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cmsConfigText } from '../../generator/backOffice/backOffice.js';
import { schemaFilesWithReference } from './reference.js';

/** Every generated file of content/schemas/: name → text. */
export function generatedSchemaFiles(): Map<string, string> {
  return new Map([...schemaFilesWithReference(), ['cms-config.json', cmsConfigText()]]);
}

async function writeIfChanged(file: string, text: string): Promise<boolean> {
  if ((await readFile(file, 'utf8').catch(() => '')) === text) return false;
  await writeFile(file, text);
  return true;
}

export async function writeSchemas(contentDir: string): Promise<string[]> {
  const dir = path.join(contentDir, 'schemas');
  await mkdir(dir, { recursive: true });
  const changed: string[] = [];
  for (const [name, json] of generatedSchemaFiles()) {
    if (await writeIfChanged(path.join(dir, name), json)) changed.push(name);
  }
  return changed;
}
