/**
 * Stage load: read content files and parse them. Parsing takes the fast path (js-yaml with the
 * YAML 1.2 core schema, plain values, no positions: far faster than a position-keeping
 * parse); the `yaml` package re-reads a file only when it has a problem, for exact positions.
 * gray-matter splits a Markdown file into front matter and body, with the same parse as its engine.
 */
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { parseDocument, visit, YAMLParseError, type Alias } from 'yaml';
import type { RawDoc } from '../../contracts/documents.js';
import { lineColumn, type ContentError } from '../../contracts/errors.js';
import { kindOf, slugOf } from '../../contracts/kinds.js';

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

/** The opening delimiter on a line of its own (gray-matter would also take `---yaml` or `---json`), and a closing one. */
const DELIMITED = /^---\r?\n[\s\S]*?\n---/;

/** Parse one file's text. `displayFile` is how messages name it (relative to the project root). */
export function parseContent(rel: string, displayFile: string, text: string): { doc?: RawDoc; error?: ContentError } {
  const kind = kindOf(rel);
  if (!kind) return { error: { file: displayFile, message: 'not a content file the generator knows' } };
  let yaml = text;
  let lineOffset = 0;
  try {
    if (!rel.endsWith('.md')) return { doc: { file: displayFile, kind, slug: slugOf(rel), yaml, lineOffset, data: parseYamlText(yaml) } };
    if (!DELIMITED.test(text)) {
      return { error: { file: displayFile, line: 1, column: 1, message: 'missing front matter', hint: 'start the file with a --- line, the title, description and lastUpdated fields, and another --- line' } };
    }
    lineOffset = 1;
    yaml = '';
    // gray-matter is given the file up to its closing delimiter, where it ends the front matter
    // (DELIMITED found one): it looks up each text it is given in its cache by the whole text,
    // which cost a long body more than its front matter's parse.
    const end = text.indexOf('\n---', 3) + 4;
    // The engine wraps the value: gray-matter expects an object, and a front matter may hold anything.
    const file = matter(text.slice(0, end), { language: 'yaml', engines: { yaml: (block: string) => ({ value: parseYamlText(yaml = withoutBreaks(block)) }) } });
    yaml = withoutBreaks(file.matter);
    const data = 'value' in file.data ? (file.data as { value: unknown }).value : {};
    return { doc: { file: displayFile, kind, slug: slugOf(rel), yaml, lineOffset, data, body: bodyAfter(text, end) } };
  } catch (err) {
    if (err instanceof YAMLParseError) {
      const { line, column } = lineColumn(yaml, err.pos[0]);
      const reason = err.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? 'invalid YAML';
      return { error: { file: displayFile, line: line + lineOffset, column, message: `invalid YAML: ${reason}`, hint: yamlHint(err.code) } };
    }
    throw err;
  }
}

/** The body after the closing delimiter, as gray-matter cuts it: without the line break that ends the delimiter's line. */
function bodyAfter(text: string, end: number): string {
  let at = end;
  if (text[at] === '\r') at++;
  if (text[at] === '\n') at++;
  return text.slice(at);
}

/** gray-matter's block without the line break after the opening --- and the \r before the closing one. */
const withoutBreaks = (block: string) => block.replace(/^\r?\n/, '').replace(/\r$/, '');

/** The fast parse; when it fails, the careful parser throws the reason with its position. */
function parseYamlText(yaml: string): unknown {
  return fastParse(yaml) ?? carefulParse(yaml) ?? {};
}

/**
 * The careful parse: its first error, with its position. An alias to no anchor is not one to the
 * parser (it fails when the value is made, without a position), and it is easily written by
 * accident: `title: *New*` reads `*New*` as an alias.
 */
function carefulParse(yaml: string): unknown {
  const doc = parseDocument(yaml, { prettyErrors: false });
  if (doc.errors[0]) throw doc.errors[0];
  let unresolved: Alias | undefined;
  visit(doc, {
    Alias(_, alias) {
      if (alias.resolve(doc)) return undefined;
      unresolved = alias;
      return visit.BREAK;
    },
  });
  if (unresolved) {
    const [start, end] = unresolved.range ?? [0, 0];
    throw new YAMLParseError([start, end], 'BAD_ALIAS', `*${unresolved.source} names no &${unresolved.source} before it`);
  }
  return doc.toJS();
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
    case 'BAD_ALIAS':
      return 'a text starting with * or & must be put in quotes';
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY':
      return 'a text containing ": " must be put in quotes';
    default:
      return 'texts containing a colon, # or starting with a quote are safest in double quotes';
  }
}

/** Read the given files (posix paths relative to contentDir): [rel, bytes] pairs, decoded later so a bad byte is an error. */
export function readFiles(contentDir: string, rels: readonly string[]): [string, Uint8Array][] {
  // Synchronous reads: for thousands of small files they cost far less than as many promises.
  return rels.map((rel) => [rel, readFileSync(path.join(contentDir, rel))]);
}
