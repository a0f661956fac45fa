/**
 * Stage 1: read content files and parse them. Parsing takes the fast path (js-yaml with the
 * YAML 1.2 core schema, plain values, no positions: about 6x faster than a position-keeping
 * parse); the `yaml` package re-reads a file only when it has a problem, for exact positions.
 */
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { RawDoc } from '../contracts/documents.js';
import type { ContentError } from '../contracts/errors.js';
import { kindOf, slugOf } from '../contracts/kinds.js';

/** Every content file below contentDir that belongs to a kind, as posix paths relative to contentDir. */
export async function listContentFiles(contentDir: string): Promise<string[]> {
  const entries = await readdir(contentDir, { recursive: true, withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const rel = path.relative(contentDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (kindOf(rel)) files.push(rel);
  }
  return files.sort();
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

/** Parse one file's text. `displayFile` is how messages name it (relative to the project root). */
export function parseContent(rel: string, displayFile: string, text: string): { doc?: RawDoc; error?: ContentError } {
  const kind = kindOf(rel);
  if (!kind) return { error: { file: displayFile, message: 'not a content file the generator knows' } };
  let yaml = text;
  let lineOffset = 0;
  let body: string | undefined;
  if (rel.endsWith('.md')) {
    const match = FRONT_MATTER.exec(text);
    if (!match) {
      return { error: { file: displayFile, line: 1, column: 1, message: 'missing front matter', hint: 'start the file with a --- line, the title, description and lastUpdated fields, and another --- line' } };
    }
    yaml = match[1] ?? '';
    lineOffset = 1;
    body = text.slice(match[0].length);
  }
  try {
    const data = fastParse(yaml) ?? parseYaml(yaml, { prettyErrors: false });
    return { doc: { file: displayFile, kind, slug: slugOf(rel), yaml, lineOffset, data: data ?? {}, ...(body !== undefined && { body }) } };
  } catch (err) {
    if (err instanceof YAMLParseError) {
      const [line, column] = lineColumn(yaml, err.pos[0]);
      const reason = err.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? 'invalid YAML';
      return { error: { file: displayFile, line: line + lineOffset, column, message: `invalid YAML: ${reason}`, hint: yamlHint(err.code) } };
    }
    throw err;
  }
}

/** The fast parse, or undefined when it fails (the careful parser then explains why). */
function fastParse(yaml: string): unknown {
  try {
    return loadYaml(yaml, { schema: CORE_SCHEMA }) ?? {};
  } catch {
    return undefined;
  }
}

function yamlHint(code: string): string {
  switch (code) {
    case 'BAD_INDENT':
    case 'MISSING_CHAR':
      return 'check the indentation: nested fields use two more spaces than their parent';
    case 'DUPLICATE_KEY':
      return 'each field may appear once; remove or rename the second one';
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY':
      return 'a text containing ": " must be put in quotes';
    default:
      return 'texts containing a colon, # or starting with a quote are safest in double quotes';
  }
}

export function lineColumn(text: string, offset: number): [number, number] {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return [line, offset - lineStart + 1];
}

/** Read the given files (posix paths relative to contentDir): [rel, bytes] pairs, decoded later so a bad byte is an error. */
export function readFiles(contentDir: string, rels: readonly string[]): [string, Uint8Array][] {
  // Synchronous reads: for thousands of small files they cost a third of as many promises.
  return rels.map((rel) => [rel, readFileSync(path.join(contentDir, rel))]);
}
