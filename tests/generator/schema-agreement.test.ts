/**
 * The editors' JSON Schemas (content/schemas/*.schema.json, written from the zod model by `npm run
 * schemas`) and the build (validateDoc, where the zod model decides) accept and refuse the same
 * documents: what an editor sees underlined is what the build refuses, and the reverse. Checked on
 * the real content and on the fuzz corpus of content-fuzz.test.ts (same seed, same mutations): for
 * each document that loads, ajv compiled from the committed schema accepts it ⇔ validateDoc
 * returns it. A rule of the model that its JSON Schema does not carry (a zod refinement, which
 * z.toJSONSchema leaves out without a word) makes this fail, as the last test shows.
 *
 * Two known differences, accounted for explicitly; a disagreement is explained only when the
 * document, read as the model reads it (below), differs from the document as written and both
 * agree on it. Any other disagreement is a failure.
 * - Texts the model trims. `text` is z.string().trim().min(1) (contracts/content.ts): the model
 *   counts and matches a text without the spaces around it, and JSON Schema cannot trim. A blank
 *   text is said in JSON Schema (NOT_BLANK, contracts/validate/jsonSchemas.ts), but the schema
 *   checks a text's other rules on the text as written: "  " + 49 characters + "  " passes the
 *   schema's minLength 50 and fails the model's; 160 characters and a space fail the schema's
 *   maxLength 160 and pass the model's; a date with a space after it fails the schema's pattern.
 *   Read as the model reads it: each text the schema marks NOT_BLANK trimmed.
 * - URLs. z.url() parses with the WHATWG URL parser (`new URL`), the schema's `format: "uri"`
 *   (ajv-formats) is RFC 3986: a host with a character the parser drops (a byte-order mark
 *   U+FEFF, which the fuzz corpus puts into site.yaml's bookingUrl) is accepted by the build as
 *   written and underlined by an editor. Read as the model reads it: each `format: "uri"` text
 *   replaced by what `new URL` makes of it.
 * Not reached by the corpus, so not accounted for: ajv counts a text's length in code points, zod
 * in UTF-16 units (an emoji counts 1 and 2), and z.email() is not ajv-formats' `email`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RawDoc } from '../../contracts/documents.js';
import { kinds, kindNames, type KindName } from '../../contracts/kinds.js';
import { decodeUtf8 } from '../../contracts/validate/encoding.js';
import { NOT_BLANK } from '../../contracts/validate/jsonSchemas.js';
import { contentAjv, validateDoc } from '../../contracts/validate/schema.js';
import { listContentFiles, parseContent } from '../../generator/content/load.js';
import { ROOT } from '../helpers/content.js';
import { mutate, mutation, SEED, sourceOf, type Source } from './contentMutations.js';

const CASES = 5000;
const CONTENT_DIR = path.join(ROOT, 'content');

type Schema = Record<string, unknown>;
type Accepts = (doc: RawDoc) => boolean;

const byBuild: Accepts = (doc) => validateDoc(doc).doc !== undefined;

/** A text the model trims: the schema says NOT_BLANK for it (only such texts are trimmed, jsonSchemas.ts). */
const isTrimmedText = (schema: Schema) =>
  schema.pattern === NOT_BLANK || ((schema.allOf as Schema[] | undefined) ?? []).some((s) => s.pattern === NOT_BLANK);

/** A URL as the model's parser reads it, or the text as it is when it is none. */
function parsedUrl(text: string): string {
  try {
    return new URL(text).href;
  } catch {
    return text;
  }
}

/**
 * The value as the model reads it, following the schema (properties, items, tagged unions): every
 * text the model trims trimmed, every URL as `new URL` reads it (the two known differences).
 */
function asModelReads(value: unknown, schema: Schema): unknown {
  if (typeof value === 'string') return isTrimmedText(schema) ? value.trim() : schema.format === 'uri' ? parsedUrl(value) : value;
  const branches = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (branches) {
    const tag = value && typeof value === 'object' ? (value as Record<string, unknown>).kind : undefined;
    const branch = branches.find((b) => (b.properties as Record<string, Schema> | undefined)?.kind?.const === tag);
    // The one untagged union (true, false or "N/A") holds no text the model trims.
    return branch ? asModelReads(value, branch) : value;
  }
  if (Array.isArray(value)) return schema.items ? value.map((v) => asModelReads(v, schema.items as Schema)) : value;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, properties[k] ? asModelReads(v, properties[k]) : v]));
  }
  return value;
}

describe('the editors\' JSON Schemas and the build accept the same documents', () => {
  const schemas = new Map<KindName, Schema>();
  const byEditors = new Map<KindName, ValidateFunction>();
  let sources: Source[];
  let originals: RawDoc[];

  beforeAll(async () => {
    for (const kind of kindNames) {
      const schema = JSON.parse(await readFile(path.join(CONTENT_DIR, 'schemas', kinds[kind].schemaFile), 'utf8')) as Schema;
      schemas.set(kind, schema);
      byEditors.set(kind, contentAjv().compile(schema));
    }
    sources = [];
    originals = [];
    for (const rel of await listContentFiles(CONTENT_DIR)) {
      const bytes = await readFile(path.join(CONTENT_DIR, rel));
      const doc = loaded(rel, bytes)!;
      originals.push(doc);
      sources.push(sourceOf(rel, bytes, doc));
    }
  });

  /** The document a file's bytes load to, or nothing for a file refused before validation (bytes, YAML). */
  function loaded(rel: string, bytes: Uint8Array): RawDoc | undefined {
    const { text } = decodeUtf8(`content/${rel}`, bytes);
    return text === undefined ? undefined : parseContent(rel, `content/${rel}`, text).doc;
  }

  type Verdict = { agreed: true; explained?: boolean } | { agreed: false; editors: boolean; build: boolean };

  /** Whether the editors' schema and `build` agree on a document, or disagree only by the known differences. */
  function compare(doc: RawDoc, build: Accepts): Verdict {
    const editorsAccept = (data: unknown) => byEditors.get(doc.kind)!(data);
    const editors = editorsAccept(doc.data);
    const built = build(doc);
    if (editors === built) return { agreed: true };
    const read = asModelReads(doc.data, schemas.get(doc.kind)!);
    const explained = JSON.stringify(read) !== JSON.stringify(doc.data) && editorsAccept(read) === build({ ...doc, data: read });
    return explained ? { agreed: true, explained } : { agreed: false, editors, build: built };
  }

  /** Every real content file, then CASES mutated ones: where they disagree (at most `stop` of them). */
  function disagreements(build: Accepts, stop = 5): string[] {
    const found: string[] = [];
    const tally = { documents: 0, explained: 0 };
    const check = (doc: RawDoc) => {
      if (found.length >= stop) return;
      tally.documents++;
      const verdict = compare(doc, build);
      if (!verdict.agreed) found.push(`${doc.file}: the JSON Schema ${verdict.editors ? 'accepts' : 'refuses'} it, the build ${verdict.build ? 'accepts' : 'refuses'} it\n${JSON.stringify(doc.data)}`);
      else if (verdict.explained) tally.explained++;
    };
    for (const doc of originals) check(doc);
    fc.assert(
      fc.property(fc.nat(), mutation, (which, m) => {
        if (found.length >= stop) return;
        const src = sources[which % sources.length]!;
        const doc = loaded(src.rel, mutate(src, m).bytes);
        if (doc) check(doc);
      }),
      { seed: SEED, numRuns: CASES },
    );
    if (build === byBuild) console.info(`schema agreement, seed ${SEED}: ${tally.documents} documents, ${tally.explained} told apart only by the known differences`);
    return found;
  }

  it(`agree on the real content and on ${CASES} mutated files (the fuzz corpus)`, { timeout: 300_000 }, () => {
    expect(disagreements(byBuild)).toEqual([]);
  });

  it('differ only on the known differences: texts the model trims, URLs the model parses', () => {
    const colma = originals.find((d) => d.file === 'content/cities/colma.yaml')!;
    const city = colma.data as { description: string; page: { seoDescription: string } };
    // The schema lets 49 characters padded with spaces through; the model refuses them.
    const short = { ...colma, data: { ...city, page: { ...city.page, seoDescription: `  ${'x'.repeat(49)}  ` } } };
    // 160 characters and a space: the schema refuses them; the model counts 160, its maximum.
    const long = { ...colma, data: { ...city, description: `${'x'.repeat(160)} ` } };
    const site = originals.find((d) => d.kind === 'site')!;
    const booking = (site.data as { booking: Record<string, string> }).booking;
    // A byte-order mark in the host: RFC 3986 refuses it, the WHATWG parser drops it.
    const url = { ...site, data: { ...site.data as object, booking: { ...booking, bookingUrl: 'https://exam\uFEFFple.com/book' } } };
    for (const [doc, editors] of [[short, true], [long, false], [url, false]] as const) {
      expect(byEditors.get(doc.kind)!(doc.data)).toBe(editors);
      expect(byBuild(doc)).toBe(!editors);
      expect(compare(doc, byBuild)).toEqual({ agreed: true, explained: true });
    }
  });

  it('a rule of the model that the JSON Schema does not carry makes them disagree', () => {
    // A zod refinement: z.toJSONSchema leaves it out, so the schema accepts what the model refuses.
    const refined = kinds.city.schema.refine((city) => !(city as { name: string }).name.includes(' '));
    const build: Accepts = (doc) => (doc.kind === 'city' ? refined.safeParse(doc.data).success : byBuild(doc));
    const found = disagreements(build, 1);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^content\/cities\/.*: the JSON Schema accepts it, the build refuses it/);
  });
});
