/** Writes content/schemas/*.schema.json from the zod model, or reports which are out of date. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { schemaFilesWithReference } from './validate/reference.js';

export async function writeSchemas(contentDir: string): Promise<string[]> {
  const dir = path.join(contentDir, 'schemas');
  await mkdir(dir, { recursive: true });
  const changed: string[] = [];
  for (const [name, json] of schemaFilesWithReference()) {
    const file = path.join(dir, name);
    const current = await readFile(file, 'utf8').catch(() => '');
    if (current !== json) {
      await writeFile(file, json);
      changed.push(name);
    }
  }
  return changed;
}
