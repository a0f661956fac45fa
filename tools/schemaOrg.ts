/**
 * The schema.org vocabulary, offline: read from the type definitions of the `schema-dts` package
 * (the same ones generator/plan/jsonld.ts is typed with), and a checker for JSON-LD nodes that
 * reports every unknown type, unknown property and value outside a property's range.
 *
 * The .d.ts has a regular shape, which a few regular expressions read:
 *   interface PlaceBase extends ThingBase { "address"?: SchemaValue<PostalAddress | Text | IdReference, "address">; … }
 *   export interface CityLeaf extends PlaceBase { "@type": "City"; }
 *   export type AdministrativeArea = AdministrativeAreaLeaf | City | Country | … | string;
 *   export type DayOfWeek = "https://schema.org/Friday" | "Friday" | … | DayOfWeekLeaf;
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface Vocabulary {
  /** type name → the interface holding its properties (`City` → `PlaceBase`) */
  typeBase: Map<string, string>;
  /** interface → the interfaces it extends */
  baseExtends: Map<string, string[]>;
  /** interface → property → the names in its range */
  baseProps: Map<string, Map<string, string[]>>;
  /** type alias → its union members (identifiers, `"literals"`, `string`, `number`, …) */
  unions: Map<string, string[]>;
}

export function schemaDtsPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('schema-dts/package.json')), 'dist/schema.d.ts');
}

export function loadVocabulary(file = schemaDtsPath()): Vocabulary {
  const text = readFileSync(file, 'utf8');
  const vocab: Vocabulary = { typeBase: new Map(), baseExtends: new Map(), baseProps: new Map(), unions: new Map() };
  const interfaceRe = /^(?:export )?interface (\w+) extends ([^{]+)\{\n([\s\S]*?)^\}/gm;
  for (const [, name, ext, body] of text.matchAll(interfaceRe)) {
    const parents = ext!.split(',').map((s) => s.trim()).filter((s) => /^\w+$/.test(s));
    if (name!.endsWith('Leaf')) {
      const type = /^\s+"@type": "([^"]+)";/m.exec(body!)?.[1];
      if (type && parents[0]) vocab.typeBase.set(type, parents[0]);
      continue;
    }
    vocab.baseExtends.set(name!, parents);
    const props = new Map<string, string[]>();
    for (const [, prop, range] of body!.matchAll(/^\s+"([^"@]+)"\??: SchemaValue<(.*), "[^"]+">;$/gm)) {
      props.set(prop!, range!.split('|').map((s) => s.trim()));
    }
    vocab.baseProps.set(name!, props);
  }
  for (const [, name, members] of text.matchAll(/^export type (\w+) = ([^;\n]+);$/gm)) {
    vocab.unions.set(name!, members!.split('|').map((s) => s.trim()));
  }
  return vocab;
}

/** Every property a type has, its own and inherited, with its range. */
export function propertiesOf(vocab: Vocabulary, type: string): Map<string, string[]> {
  const props = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (base: string) => {
    if (seen.has(base)) return;
    seen.add(base);
    for (const [p, range] of vocab.baseProps.get(base) ?? []) if (!props.has(p)) props.set(p, range);
    for (const parent of vocab.baseExtends.get(base) ?? []) visit(parent);
  };
  const base = vocab.typeBase.get(type);
  if (base) visit(base);
  return props;
}

/** Whether `type` is `range` or one of its subtypes (following the `export type X = XLeaf | Sub | …` unions). */
export function isSubtype(vocab: Vocabulary, type: string, range: string, seen = new Set<string>()): boolean {
  if (type === range) return true;
  if (seen.has(range)) return false;
  seen.add(range);
  return (vocab.unions.get(range) ?? []).some((m) => /^\w+$/.test(m) && !m.endsWith('Leaf') && isSubtype(vocab, type, m, seen));
}

const TEXTUAL = new Set(['Text', 'URL', 'Date', 'DateTime', 'Time', 'CssSelectorType', 'XPathType', 'PronounceableText']);
const NUMERIC = new Set(['Number', 'Integer', 'Float']);

/** Whether a string is allowed by a range name: a textual type, an enumeration member, or a type that takes a URL reference. */
function acceptsString(vocab: Vocabulary, range: string, value: string, seen = new Set<string>()): boolean {
  if (TEXTUAL.has(range)) return true;
  if (NUMERIC.has(range)) return value.trim() !== '' && Number.isFinite(Number(value));
  if (seen.has(range)) return false;
  seen.add(range);
  const members = vocab.unions.get(range) ?? [];
  return members.some((m) => m === 'string' || m === JSON.stringify(value) || (/^\w+$/.test(m) && !m.endsWith('Leaf') && acceptsString(vocab, m, value, seen)));
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Problems of a JSON-LD document against the vocabulary, each with its JSON path:
 * unknown @type, property not defined for the node's type, value outside the property's range.
 */
export function checkJsonLd(vocab: Vocabulary, doc: unknown): string[] {
  const problems: string[] = [];
  const root = doc as { [key: string]: Json };
  if (root['@context'] !== 'https://schema.org') problems.push(`$: @context is ${JSON.stringify(root['@context'])}, expected "https://schema.org"`);
  const nodes = Array.isArray(root['@graph']) ? root['@graph'].map((n, i) => [n, `$['@graph'][${i}]`] as const) : [[root as Json, '$'] as const];
  for (const [node, at] of nodes) checkNode(vocab, node, at, undefined, problems);
  return problems;
}

function checkNode(vocab: Vocabulary, node: Json, at: string, range: string[] | undefined, problems: string[]) {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) {
    problems.push(`${at}: expected a node, got ${JSON.stringify(node)}`);
    return;
  }
  const keys = Object.keys(node).filter((k) => k !== '@context');
  if (!('@type' in node)) {
    // A bare reference to a node described elsewhere.
    if (keys.length === 1 && keys[0] === '@id' && typeof node['@id'] === 'string') {
      if (range && !range.includes('IdReference')) problems.push(`${at}: a reference by @id is not allowed here`);
      return;
    }
    problems.push(`${at}: node without @type`);
    return;
  }
  const types = Array.isArray(node['@type']) ? node['@type'] : [node['@type']];
  const props = new Map<string, string[]>();
  for (const type of types) {
    if (typeof type !== 'string' || !vocab.typeBase.has(type)) {
      problems.push(`${at}: @type ${JSON.stringify(type)} is not a schema.org type`);
      continue;
    }
    for (const [p, r] of propertiesOf(vocab, type)) props.set(p, r);
    if (range && !range.some((r) => isSubtype(vocab, type, r))) problems.push(`${at}: a ${type} is not allowed here (expected ${range.join(' | ')})`);
  }
  if (!props.size) return;
  for (const key of keys) {
    if (key === '@type' || key === '@id') continue;
    const propRange = props.get(key);
    if (!propRange) {
      problems.push(`${at}.${key}: ${types.join('/')} has no property "${key}" in schema.org`);
      continue;
    }
    const value = node[key]!;
    const values = Array.isArray(value) ? value : [value];
    values.forEach((v, i) => checkValue(vocab, v, Array.isArray(value) ? `${at}.${key}[${i}]` : `${at}.${key}`, propRange, problems));
  }
}

function checkValue(vocab: Vocabulary, value: Json, at: string, range: string[], problems: string[]) {
  if (typeof value === 'string') {
    if (!range.some((r) => acceptsString(vocab, r, value))) problems.push(`${at}: ${JSON.stringify(value)} is not a valid ${range.join(' | ')}`);
  } else if (typeof value === 'number') {
    if (!range.some((r) => NUMERIC.has(r))) problems.push(`${at}: a number is not allowed here (expected ${range.join(' | ')})`);
  } else if (typeof value === 'boolean') {
    if (!range.includes('Boolean')) problems.push(`${at}: a boolean is not allowed here (expected ${range.join(' | ')})`);
  } else {
    checkNode(vocab, value, at, range, problems);
  }
}
