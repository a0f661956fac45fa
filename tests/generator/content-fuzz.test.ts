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
import { build } from '../../generator/build.js';
import { checkFile, type CheckedFile } from '../../generator/content/check.js';
import type { RawDoc, ValidDoc } from '../../contracts/documents.js';
import type { ContentError } from '../../contracts/errors.js';
import { listContentFiles } from '../../generator/content/load.js';
import { assembleModel } from '../../generator/model/assemble.js';
import { ContentErrors, formatError, formatPath } from '../../contracts/validate/errors.js';
import { ROOT, tempDir, treeDigest } from '../helpers/content.js';
import { mutate, mutation, SEED, sourceOf, type Mutated, type Source } from './contentMutations.js';
import { projectCopy } from './projectCopy.js';

const IN_PROCESS_CASES = 5000;
const BUILD_CASES = 50;
const CONTENT_DIR = path.join(ROOT, 'content');

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
