/**
 * `npm run content-gate`, what a content-only push must pass before it goes live
 * (.github/workflows/deploy.yml): it refuses the broken content the full suite refuses, with the
 * same messages (those of the build's own content errors, which tests/generator/errors.test.ts
 * pins), and passes the real site, saying how long each step took.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { build } from '../../generator/build.js';
import { ContentErrors, formatError } from '../../contracts/validate/errors.js';
import { contentCopy, ROOT, withTempDir } from '../helpers/content.js';

const run = promisify(execFile);

async function gate(contentDir: string, outDir: string) {
  return run(process.execPath, ['cli/main.mjs', 'content-gate'], {
    cwd: ROOT, env: { ...process.env, CONTENT_DIR: contentDir, DIST_DIR: outDir, SITE_URL: 'https://www.bayshinecleaning.com' }, maxBuffer: 16 << 20,
  }).then((r) => ({ code: 0, ...r }), (e: { code: number; stdout: string; stderr: string }) => e);
}

/** The messages the build itself gives for this content (what `npm test` asserts on), formatted as `npm run check` prints them. */
async function buildMessages(contentDir: string, outDir: string): Promise<string[]> {
  const error = await build({ root: ROOT, contentDir, outDir, skipIslands: true }).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ContentErrors);
  return (error as ContentErrors).errors.map(formatError);
}

const BREAKS: [string, string, (text: string) => string][] = [
  ['a link that leads nowhere', 'services/routine-cleaning-bay-area.yaml', (t) => t.replace(/href: \/book-online/, 'href: /book-onlin')],
  ['a picture that is not there', 'cities/cupertino.yaml', (t) => t.replace('heroImage: cities/cupertino.svg', 'heroImage: cities/cupertin.svg')],
  ['a picture the site cannot show', 'cities/cupertino.yaml', (t) => t.replace('heroImage: cities/cupertino.svg', 'heroImage: cities/cupertino.gif')],
  ['a text that breaks the model', 'cities/colma.yaml', (t) => t.replace(/^population: .*$/m, 'population: 12')],
];

describe('the content gate', () => {
  it.each(BREAKS)('refuses %s with the messages of the full suite, and writes no dist/', async (_, file, breakIt) => {
    await withTempDir('content-gate-', async (dir) => {
      const contentDir = await contentCopy(dir);
      const text = await readFile(path.join(contentDir, file), 'utf8');
      expect(breakIt(text)).not.toBe(text);
      await writeFile(path.join(contentDir, file), breakIt(text));
      const expected = await buildMessages(contentDir, path.join(dir, 'dist-build'));
      expect(expected.length).toBeGreaterThan(0);

      const result = await gate(contentDir, path.join(dir, 'dist'));
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`Build failed: ${expected.length} problem${expected.length === 1 ? '' : 's'} in content.`);
      for (const message of expected) expect(result.stderr).toContain(message);
      expect(existsSync(path.join(dir, 'dist'))).toBe(false);
    });
  }, 60_000);

  it('refuses a built page content alone broke: an HTML file dropped into content/static/', async () => {
    await withTempDir('content-gate-static-', async (dir) => {
      const contentDir = await contentCopy(dir);
      await writeFile(path.join(contentDir, 'static/offer.html'), '<!DOCTYPE html>\n<html lang="en"><head><title>Offer</title></head>\n<body><p><div>10% off</div></p></body></html>\n');
      const result = await gate(contentDir, path.join(dir, 'dist'));
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/The built pages have \d+ problems:/);
      expect(result.stderr).toMatch(/^  HTML validity: offer\.html:3:\d+ /m);
      expect(result.stderr).toContain('  canonical URLs and sitemap: /offer: 0 canonical links, expected 1');
      expect(result.stderr).toContain('  structured data: /offer: no JSON-LD on an indexable page');
    });
  }, 120_000);

  it('passes the real site after checking its built pages, and times each step', async () => {
    await withTempDir('content-gate-ok-', async (dir) => {
      const result = await gate(path.join(ROOT, 'content'), path.join(dir, 'dist'));
      expect(result.stderr).not.toMatch(/problem/);
      expect(result.code).toBe(0);
      for (const step of ['npm run check', 'production build', 'check: HTML validity', 'check: structured data', 'check: canonical URLs and sitemap', 'check: JavaScript budget', 'check: pictures']) {
        expect(result.stdout).toMatch(new RegExp(`^ +\\d+\\.\\d\\d s  ${step}$`, 'm'));
      }
      expect(result.stdout).toContain('The built pages pass every check.');
      expect(existsSync(path.join(dir, 'dist/index.html'))).toBe(true);
    });
  }, 120_000);
});
