/**
 * The fuzz corpus of content files: each real content file taken apart (sourceOf), and what an
 * editor may do to one (mutation, mutate). Shared by content-fuzz.test.ts and
 * schema-agreement.test.ts, which run the same seed over it.
 */
import fc from 'fast-check';
import { isMap, isScalar, isSeq, isPair, parseDocument, Scalar, visit, type Document } from 'yaml';
import type { RawDoc } from '../../contracts/documents.js';

/** The seed of both: a failure reproduces on every run, and fast-check prints the smallest case it found. */
export const SEED = 20250607;

export type Path = (string | number)[];

/** One real content file, taken apart so that it can be changed as YAML or as bytes. */
export interface Source {
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

export function sourceOf(rel: string, bytes: Buffer, doc: RawDoc): Source {
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

export const mutation = fc.oneof(
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
export type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

/** What the mutated file must lead to, when that is known. */
export type Expectation =
  | { refused: 'utf8'; line: number; column: number; byte: number }
  | { refused: 'value'; path: Path; quoted: boolean }
  | { refused: 'yaml' }
  | { sameAsOriginal: true }
  | undefined;

export interface Mutated {
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

export function mutate(src: Source, m: Mutation): Mutated {
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
