/**
 * Property-based test on the real content: whatever happens to one content file (wrong types,
 * deleted keys, repeated keys and list items, a cut-off file, odd bytes, blank texts), checking the
 * content either accepts it or reports content errors that name that file, never an exception;
 * and a build of it either replaces dist/ by a complete site or leaves the previous one byte for
 * byte. Mutations whose outcome is known (a bad byte, a blank or mistyped value, a repeated key)
 * must be refused, at the right place. The seed is fixed: a failure reproduces on every run, and
 * fast-check prints the smallest case it found.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMap, isPair, isScalar, isSeq, parseDocument, Scalar, visit, type Document } from 'yaml';
import { build } from '../../generator/build.js';
import { checkFile, type CheckedFile } from '../../generator/content.js';
import type { RawDoc, ValidDoc } from '../../contracts/documents.js';
import type { ContentError } from '../../contracts/errors.js';
import { listContentFiles } from '../../generator/load.js';
import { assembleModel } from '../../generator/model/assemble.js';
import { ContentErrors, formatError, formatPath } from '../../contracts/validate/errors.js';
import { ROOT, tempDir, treeDigest } from '../helpers/content.js';
import { projectCopy } from './projectCopy.js';

const SEED = 20250607;
const IN_PROCESS_CASES = 5000;
const BUILD_CASES = 50;
const CONTENT_DIR = path.join(ROOT, 'content');

type Path = (string | number)[];

/** One real content file, taken apart so that it can be changed as YAML or as bytes. */
interface Source {
  rel: string;
  display: string;
  bytes: Buffer;
  /** For Markdown the front matter is the YAML; head and tail are kept as they are. */
  head: string;
  yaml: string;
  tail: string;
  leaves: { path: Path; type: 'string' | 'number' | 'boolean' }[];
  /** Paths of map entries (deletable) and of lists (whose items can be repeated). */
  keys: Path[];
  lists: Path[];
  /** Lines (0-based, in the whole file) that hold one key of a block mapping and start with it. */
  keyLines: number[];
  /** Byte offsets at which a character starts (or the file ends). */
  boundaries: number[];
}

function walk(value: unknown, at: Path, src: Pick<Source, 'leaves' | 'keys' | 'lists'>) {
  if (Array.isArray(value)) {
    src.lists.push(at);
    value.forEach((v, i) => walk(v, [...at, i], src));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      src.keys.push([...at, k]);
      walk(v, [...at, k], src);
    }
  } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    src.leaves.push({ path: at, type: typeof value as 'string' | 'number' | 'boolean' });
  }
}

function keyLinesOf(yaml: string, lineOffset: number): number[] {
  const doc = parseDocument(yaml);
  const keyStarts = new Set<number>();
  visit(doc, {
    Map(_, map) {
      if (map.flow) return;
      for (const pair of map.items) if (isPair(pair) && isScalar(pair.key) && pair.key.range) keyStarts.add(pair.key.range[0]);
    },
  });
  const lines: number[] = [];
  let offset = 0;
  yaml.split('\n').forEach((line, i) => {
    if (keyStarts.has(offset + line.length - line.trimStart().length)) lines.push(i + lineOffset);
    offset += line.length + 1;
  });
  return lines;
}

function sourceOf(rel: string, bytes: Buffer, doc: RawDoc): Source {
  const text = bytes.toString('utf8');
  const front = rel.endsWith('.md') ? /^---\n([\s\S]*?\n)(---\n[\s\S]*)$/.exec(text) : null;
  const [head, yaml, tail] = front ? ['---\n', front[1]!, front[2]!] : ['', text, ''];
  const src: Source = {
    rel, display: `content/${rel}`, bytes, head, yaml, tail, leaves: [], keys: [], lists: [],
    keyLines: keyLinesOf(yaml, head ? 1 : 0),
    boundaries: [...bytes.keys(), bytes.length].filter((i) => i === bytes.length || (bytes[i]! & 0xc0) !== 0x80),
  };
  walk(doc.data, [], src);
  return src;
}

// What an editor may do to a file. Choices are free numbers taken modulo what the file offers.
const WRONG_VALUES: Record<Source['leaves'][number]['type'], readonly unknown[]> = {
  string: [42, 3.5, true, null, [1, 2], { a: 1 }],
  number: ['seven', 2.5, -1, true, null, [], { a: 1 }],
  boolean: ['yes', 1, null, [], { a: 1 }],
};
const BLANKS = ['', ' ', '   ', '\t', '\n', ' \t\n ', '\u00a0', '\u2003 \u3000'];
const INVALID_UTF8 = [[0xff], [0xfe], [0x80], [0xc3], [0xc0, 0xaf], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]];
const ODD_CHARACTERS = [[0x00], [0xef, 0xbb, 0xbf], [0x0d], [0x0d, 0x0a], [0x09], [0x0b], [0x0c], [0x7f], [0xc2, 0x85], [0xe2, 0x80, 0xa8], [0x1b]];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('wrongType' as const), pick: fc.nat(), value: fc.nat() }),
  fc.record({ kind: fc.constant('blank' as const), pick: fc.nat(), value: fc.constantFrom(...BLANKS) }),
  fc.record({ kind: fc.constant('deleteKey' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('repeatItem' as const), pick: fc.nat(), item: fc.nat() }),
  fc.record({ kind: fc.constant('repeatKeyLine' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('invalidUtf8' as const), at: fc.nat(), bytes: fc.constantFrom(...INVALID_UTF8) }),
  fc.record({ kind: fc.constant('oddCharacter' as const), at: fc.nat(), bytes: fc.constantFrom(...ODD_CHARACTERS) }),
  fc.record({ kind: fc.constant('leadingBom' as const) }),
  fc.record({ kind: fc.constant('overwriteBytes' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 4 }) }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

/** What the mutated file must lead to, when that is known. */
type Expectation =
  | { refused: 'utf8'; line: number; column: number; byte: number }
  | { refused: 'value'; path: Path; quoted: boolean }
  | { refused: 'yaml' }
  | { sameAsOriginal: true }
  | undefined;

interface Mutated {
  bytes: Buffer;
  expect: Expectation;
}

function editYaml(src: Source, edit: (doc: Document) => void): Buffer {
  const doc = parseDocument(src.yaml);
  edit(doc);
  return Buffer.from(src.head + doc.toString() + src.tail);
}

function insert(bytes: Buffer, at: number, added: readonly number[]): Buffer {
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(added), bytes.subarray(at)]);
}

function mutate(src: Source, m: Mutation): Mutated {
  const pick = <T>(list: readonly T[], n: number) => list[n % list.length];
  switch (m.kind) {
    case 'wrongType': {
      const leaf = pick(src.leaves, m.pick)!;
      const value = pick(WRONG_VALUES[leaf.type], m.value);
      return { bytes: editYaml(src, (doc) => doc.setIn(leaf.path, doc.createNode(value))), expect: { refused: 'value', path: leaf.path, quoted: false } };
    }
    case 'blank': {
      const leaf = pick(src.leaves, m.pick)!;
      const node = new Scalar(m.value);
      node.type = 'QUOTE_DOUBLE';
      return { bytes: editYaml(src, (doc) => doc.setIn(leaf.path, node)), expect: { refused: 'value', path: leaf.path, quoted: true } };
    }
    case 'deleteKey': {
      const key = pick(src.keys, m.pick)!;
      return { bytes: editYaml(src, (doc) => doc.deleteIn(key)), expect: undefined };
    }
    case 'repeatItem': {
      const list = pick(src.lists, m.pick);
      if (!list) return { bytes: src.bytes, expect: { sameAsOriginal: true } }; // a file without lists
      return {
        bytes: editYaml(src, (doc) => {
          const seq = doc.getIn(list, true);
          if (!isSeq(seq) || !seq.items.length) return;
          const i = m.item % seq.items.length;
          const item = seq.items[i]!;
          seq.items.splice(i, 0, isScalar(item) || isMap(item) || isSeq(item) ? item.clone() : item);
        }),
        expect: undefined,
      };
    }
    case 'repeatKeyLine': {
      const lines = (src.head + src.yaml + src.tail).split('\n');
      const line = pick(src.keyLines, m.pick)!;
      lines.splice(line, 0, lines[line]!);
      return { bytes: Buffer.from(lines.join('\n')), expect: { refused: 'yaml' } };
    }
    case 'truncate':
      return { bytes: src.bytes.subarray(0, m.at % (src.bytes.length + 1)), expect: undefined };
    case 'invalidUtf8': {
      const at = pick(src.boundaries, m.at)!;
      const before = src.bytes.subarray(0, at).toString('utf8');
      const line = before.split('\n').length;
      const column = before.length - before.lastIndexOf('\n');
      return { bytes: insert(src.bytes, at, m.bytes), expect: { refused: 'utf8', line, column, byte: m.bytes[0]! } };
    }
    case 'oddCharacter':
      return { bytes: insert(src.bytes, pick(src.boundaries, m.at)!, m.bytes), expect: undefined };
    case 'leadingBom':
      return { bytes: insert(src.bytes, 0, [0xef, 0xbb, 0xbf]), expect: { sameAsOriginal: true } };
    case 'overwriteBytes': {
      const bytes = Buffer.from(src.bytes);
      Buffer.from(m.bytes).copy(bytes, m.at % bytes.length);
      return { bytes, expect: undefined };
    }
  }
}

/** Every error names the changed file (as its place, or in its text when another file clashes with it). */
function expectNamed(errors: readonly ContentError[], src: Source) {
  expect(errors.length).toBeGreaterThan(0);
  for (const e of errors) {
    const text = formatError(e);
    expect(e.file === src.display || text.includes(src.display), text).toBe(true);
    expect(text, 'no stack trace, no missing value').not.toMatch(/\n\s+at |undefined|NaN|\[object /);
    if (e.line !== undefined) expect(e.line >= 1 && (e.column ?? 1) >= 1, text).toBe(true);
  }
}

function expectKnownOutcome(checked: CheckedFile, mutated: Mutated, src: Source, original: RawDoc) {
  const expected = mutated.expect;
  if (!expected) return;
  if ('sameAsOriginal' in expected) {
    expect(checked.doc?.data).toEqual(original.data);
    return;
  }
  expect(checked.errors, 'this change must be refused').toBeDefined();
  const errors = checked.errors!;
  if (expected.refused === 'utf8') {
    expect(errors.map(formatError)).toEqual([
      `${src.display}:${expected.line}:${expected.column} not valid UTF-8 (byte 0x${expected.byte.toString(16).toUpperCase().padStart(2, '0')})\n    hint: save the file as UTF-8 and retype the character at this position`,
    ]);
  } else if (expected.refused === 'yaml') {
    expect(errors.map(formatError).join('\n')).toMatch(/^\S+:\d+:\d+ invalid YAML: /);
  } else if (expected.refused === 'value') {
    const field = formatPath(expected.path);
    const exact = errors.find((e) => e.path === field);
    if (exact && expected.quoted) {
      // The error points at the value as written: its opening quote.
      const line = mutated.bytes.toString('utf8').split('\n')[exact.line! - 1] ?? '';
      expect(line[exact.column! - 1], `${formatError(exact)}\n${line}`).toBe('"');
    }
    // A value that decides a union (a section's kind) is reported at the union.
    if (!exact) expect(errors.some((e) => e.path !== undefined && field.startsWith(e.path)), errors.map(formatError).join('\n')).toBe(true);
  }
}

describe('content fuzzing', () => {
  let sources: Source[];
  let originals: ValidDoc[];
  const tally = new Map<string, { accepted: number; refused: number }>();

  beforeAll(async () => {
    const rels = await listContentFiles(CONTENT_DIR);
    sources = [];
    originals = [];
    for (const rel of rels) {
      const bytes = await readFile(path.join(CONTENT_DIR, rel));
      const checked = checkFile(rel, `content/${rel}`, bytes);
      expect(checked.errors, rel).toBeUndefined();
      originals.push(checked.doc!);
      sources.push(sourceOf(rel, bytes, checked.doc!));
    }
  });

  afterAll(() => {
    const total = [...tally.values()].reduce((n, t) => n + t.accepted + t.refused, 0);
    if (total) console.info(`content fuzzing, seed ${SEED}: ${total} in-process cases (${[...tally].map(([k, t]) => `${k} ${t.accepted} accepted / ${t.refused} refused`).join(', ')})`);
  });

  // A fixed amount of work (15-30 s on this 2-core machine when quiet): its time limit is the
  // machine's load, not a measure of the code, so it gets room for a busy one (68 s seen at load 9).
  it(`checks ${IN_PROCESS_CASES} mutated files in-process: accepted, or refused with errors naming the file`, { timeout: 300_000 }, () => {
    fc.assert(
      fc.property(fc.nat(), mutation, (which, m) => {
        const index = which % sources.length;
        const src = sources[index]!;
        const mutated = mutate(src, m);
        const checked = checkFile(src.rel, src.display, mutated.bytes);
        expectKnownOutcome(checked, mutated, src, originals[index]!);
        let errors = checked.errors;
        if (checked.doc) {
          const docs = originals.map((d, i) => (i === index ? checked.doc! : d));
          errors = assembleModel(docs, { contentDir: CONTENT_DIR, displayPrefix: 'content/' }).errors;
        }
        if (errors?.length) expectNamed(errors, src);
        const t = tally.get(m.kind) ?? { accepted: 0, refused: 0 };
        if (errors?.length) t.refused++;
        else t.accepted++;
        tally.set(m.kind, t);
      }),
      { seed: SEED, numRuns: IN_PROCESS_CASES },
    );
  });

  it(`builds ${BUILD_CASES} mutated sites: a complete new dist/, or the previous one byte for byte`, async () => {
    const tmp = await tempDir('content-fuzz-');
    try {
      const root = await projectCopy(path.join(tmp.dir, 'project'), { lockfile: true });
      const contentDir = path.join(root, 'content');
      const outDir = path.join(tmp.dir, 'dist');
      await build({ root, outDir, skipIslands: true });
      let previous = await treeDigest(outDir);
      let built = 0;
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(fc.nat(), mutation, async (which, m) => {
          const src = sources[which % sources.length]!;
          const file = path.join(contentDir, src.rel);
          const mutated = mutate(src, m);
          await writeFile(file, mutated.bytes);
          try {
            const error = await build({ root, outDir, skipIslands: true }).then(() => undefined, (e: unknown) => e);
            if (mutated.expect && 'refused' in mutated.expect) expect(error, 'this change must fail the build').toBeInstanceOf(ContentErrors);
            if (error === undefined) {
              built++;
              const files = await readdir(outDir, { recursive: true });
              for (const needed of ['index.html', '404.html', 'sitemap.xml', 'robots.txt', '_headers', '_redirects']) expect(files).toContain(needed);
              previous = await treeDigest(outDir);
            } else {
              refused++;
              if (!(error instanceof ContentErrors)) throw error;
              expectNamed(error.errors, src);
              expect(await treeDigest(outDir)).toEqual(previous);
            }
            // Neither a temporary nor an old copy of the site is left behind.
            expect((await readdir(tmp.dir)).sort()).toEqual(['dist', 'project']);
          } finally {
            await writeFile(file, src.bytes);
          }
        }),
        { seed: SEED, numRuns: BUILD_CASES },
      );
      console.info(`content fuzzing, seed ${SEED}: ${built + refused} builds (${built} built, ${refused} refused)`);
    } finally {
      await tmp.remove();
    }
  });
});
