/**
 * The repository's import graph (tools/importGraph.mjs): no file imports back into itself through
 * others, no top-level folder does, and each part imports only what docs/how-it-works.md's map
 * allows it. A new cycle, or the build importing a server, fails here with the files named.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkImports, cycles, partOf, RULES } from '../../tools/importGraph.mjs';
import { ROOT } from '../helpers/content.js';

describe('the import graph', () => {
  const report = checkImports(ROOT);

  it('has no file cycle and no folder cycle, type-only imports included', () => {
    expect(report.files).toBeGreaterThan(200);
    expect(report.fileCycles).toEqual([]);
    expect(report.folderCycles).toEqual([]);
    expect(report.partCycles).toEqual([]);
  });

  it('has only the imports the map allows, and every relative import names a file that exists', () => {
    expect(report.forbidden).toEqual([]);
    expect(report.missing).toEqual([]);
  });

  it('finds a cycle of any length, and places a file in the most specific part', () => {
    const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
    expect(partOf('cms/app/main.tsx')).toBe('cms/app');
    expect(partOf('cms/config.ts')).toBe('cms');
    expect(partOf('README.md')).toBe('');
  });

  it('is the map docs/how-it-works.md shows: a row for every top-level folder of the rules', () => {
    const doc = readFileSync(`${ROOT}/docs/how-it-works.md`, 'utf8');
    for (const folder of Object.keys(RULES).filter((p) => !p.includes('/'))) expect(doc).toContain(`\`${folder}/\``);
  });
});
