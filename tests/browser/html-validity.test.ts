/**
 * Every generated page is valid HTML by the W3C Nu HTML Checker (vnu.jar from npm `vnu-jar`, run
 * with the machine's Java). Invalid markup is what browsers, screen readers and crawlers each repair
 * in their own way. The check is tools/builtSite.ts's, which the content gate runs too.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { htmlProblems } from '../../tools/builtSite.js';
import { tempDir } from '../helpers/content.js';
import { distPages, type DistPage } from '../helpers/dist.js';

describe('HTML validity (W3C Nu HTML Checker)', () => {
  const dist = inject('siteDist');
  let pages: DistPage[];
  let problems: string[];

  beforeAll(async () => {
    pages = await distPages(dist);
    problems = await htmlProblems(dist, pages);
  }, 120_000);

  it('checks every generated page', () => {
    expect(pages.length).toBeGreaterThan(20);
    expect(pages.map((p) => p.route)).toEqual(expect.arrayContaining(['/', '/contact', '/404']));
  });

  it('finds no errors on any page', () => {
    expect(problems.length, `${problems.length} HTML errors:\n${problems.join('\n')}`).toBe(0);
  });

  it('would see an error, with its file and line (the checker is not blind)', async () => {
    const tmp = await tempDir('html-validity-');
    try {
      await writeFile(path.join(tmp.dir, 'bad.html'), '<!DOCTYPE html>\n<html lang="en"><head><title>x</title></head>\n<body><p><div>x</div></p></body></html>\n');
      const found = await htmlProblems(tmp.dir, [{ file: 'bad.html', route: '/bad' }]);
      expect(found.join('\n')).toMatch(/^bad\.html:3:\d+ .*p/m);
    } finally {
      await tmp.remove();
    }
  }, 60_000);
});
