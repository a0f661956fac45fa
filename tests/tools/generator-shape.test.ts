/**
 * The generator reads as its pipeline: its root holds the orchestrator and folders, each stage
 * imports only the stages before it (tools/importGraph.mjs RULES, checked in import-graph.test.ts),
 * the orchestrator and the render and write stages name no collection (each comes through
 * generator/collections/), and no source file grows past what one reads through.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kinds } from '../../contracts/kinds.js';
import { COLLECTIONS } from '../../generator/collections/index.js';
import { RULES } from '../../tools/importGraph.mjs';
import { ROOT } from '../helpers/content.js';

const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

/** The stages in pipeline order (docs/how-it-works.md). */
const STAGES = ['generator/content', 'generator/model', 'generator/plan', 'generator/render', 'generator/write'];

describe('the generator', () => {
  it('holds the orchestrator at its root, and folders', () => {
    const atRoot = tracked.filter((f) => f.startsWith('generator/') && !f.slice('generator/'.length).includes('/'));
    expect(atRoot).toEqual(['generator/build.ts']);
  });

  it('lets a stage import only the stages before it', () => {
    STAGES.forEach((stage, i) => {
      const allowed = (RULES as Record<string, readonly string[]>)[stage];
      expect(allowed, stage).toBeDefined();
      for (const later of STAGES.slice(i + 1)) expect(allowed, `${stage} may import ${later}`).not.toContain(later);
    });
  });

  it('names no collection in the orchestrator, the render stage or the write stage', () => {
    // A collection's kind and folder (city, cities), in code and comments alike.
    const names = COLLECTIONS.flatMap((c) => [c.kind, (kinds[c.kind] as { dir?: string }).dir ?? '']).filter(Boolean);
    const word = new RegExp(`\\b(${names.join('|')})\\b`, 'i');
    const files = tracked.filter((f) => f === 'generator/build.ts' || /^generator\/(render|write)\//.test(f))
      // The table of templates by page kind: a collection's template is registered there.
      .filter((f) => f !== 'generator/render/renderPage.tsx');
    expect(files.length).toBeGreaterThan(10);
    const naming = files.filter((f) => word.test(readFileSync(`${ROOT}/${f}`, 'utf8')));
    expect(naming).toEqual([]);
  });

  it('has no committed source file over 2,000 lines', () => {
    const long = tracked
      .filter((f) => /\.(ts|tsx|mts|mjs|js)$/.test(f) && !f.startsWith('node_modules/'))
      .filter((f) => readFileSync(`${ROOT}/${f}`, 'utf8').split('\n').length > 2000);
    expect(long).toEqual([]);
  });
});
