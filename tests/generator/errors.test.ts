/** A broken content file never reaches visitors: the build names file, line, field and a hint. */
import { execFile } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../generator/build.js';
import { ContentErrors, formatError } from '../../contracts/validate/errors.js';
import { contentCopy, englishContentCopy, problems, ROOT, tempDir, treeDigest, withTempDir } from '../helpers/content.js';

const run = promisify(execFile);
const BROKEN = path.join(ROOT, 'tests/fixtures/broken');

describe('content errors', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let contentDir: string;
  beforeAll(async () => {
    tmp = await tempDir('broken-content-');
    contentDir = await contentCopy(tmp.dir, BROKEN);
  });
  afterAll(() => tmp.remove());

  it('lists every problem of every file in one run, each with file:line:column, field and hint', async () => {
    const messages = await problems(contentDir);
    expect(messages).toEqual([
      'content/cities/belmont.yaml:4:14 invalid YAML: Nested mappings are not allowed in compact mappings\n    hint: a text containing ": " must be put in quotes',
      'content/cities/brisbane.yaml:12:5 page.benefits: has 5 items, exactly 6 expected\n    hint: Exactly six selling points',
      'content/cities/colma.yaml:3:1 population: required field is missing\n    hint: add `population:` (Approximate population as shown, e.g. ~82,000)',
      'content/cities/colma.yaml:4:1 populaton: unknown field `populaton`\n    hint: did you mean `population`?',
      'content/cities/colma.yaml:26:15 page.faqs[2].answer: expected text, got a number',
    ]);
  });

  it('reports a text read as a YAML alias (`*New*`) at its line, instead of failing the check', async () => {
    await withTempDir('alias-', async (dir) => {
      const copy = await englishContentCopy(dir);
      const article = (await readdir(path.join(copy, 'articles')))[0]!;
      const file = path.join(copy, 'articles', article);
      const { readFile } = await import('node:fs/promises');
      const text = (await readFile(file, 'utf8')).replace(/^author: .*$/m, 'author: *Maria*');
      await writeFile(file, text);
      const line = text.split('\n').findIndex((l) => l.startsWith('author:')) + 1;
      const colma = path.join(copy, 'cities/colma.yaml');
      await writeFile(colma, (await readFile(colma, 'utf8')).replace(/^name: Colma$/m, 'name: *Colma*'));
      const messages = await problems(copy);
      expect(messages).toEqual([
        `content/articles/${article}:${line}:9 invalid YAML: *Maria* names no &Maria* before it\n    hint: a text starting with * or & must be put in quotes`,
        'content/cities/colma.yaml:2:7 invalid YAML: *Colma* names no &Colma* before it\n    hint: a text starting with * or & must be put in quotes',
      ]);
    });
  });

  it('names a missing image and a duplicate city with the line that wrote them', async () => {
    await withTempDir('cross-file-', async (dir) => {
      const copy = await englishContentCopy(dir);
      await writeFile(path.join(copy, 'cities/sanjose-again.yaml'), 'name: San Jose\npopulation: "~1"\ndescription: Again.\n');
      const cupertino = path.join(copy, 'cities/cupertino.yaml');
      const text = (await import('node:fs/promises')).readFile(cupertino, 'utf8');
      await writeFile(cupertino, (await text).replace('heroImage: cities/cupertino.svg', 'heroImage: cities/cupertin.svg'));
      const messages = await problems(copy);
      expect(messages).toHaveLength(2);
      expect(messages[0]).toMatch(/^content\/cities\/cupertino\.yaml:\d+:\d+ page\.heroImage: image cities\/cupertin\.svg does not exist\n    hint: put the file in content\/images\//);
      expect(messages[1]).toMatch(/^content\/cities\/sanjose-again\.yaml:1:7 name: city "San Jose" is already defined in content\/cities\/san-jose\.yaml/);
    });
  });

  it('fails the build on an internal link that leads nowhere, pointing at the content line', async () => {
    await withTempDir('broken-link-', async (dir) => {
      const copy = await contentCopy(dir);
      const file = path.join(copy, 'services/routine-cleaning-bay-area.yaml');
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(file, 'utf8');
      const broken = text.replace(/href: \/book-online/, 'href: /book-onlin');
      expect(broken).not.toBe(text);
      await writeFile(file, broken);
      const error = await build({ root: ROOT, contentDir: copy, outDir: path.join(dir, 'dist'), skipIslands: true }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ContentErrors);
      const [message] = (error as ContentErrors).errors.map(formatError);
      expect(message).toMatch(/^content\/services\/routine-cleaning-bay-area\.yaml:\d+:\d+ link to \/book-onlin leads nowhere/);
      expect(await readdir(dir)).toEqual(['content']);
    });
  });

  it('npm run build exits non-zero, prints the problems and leaves the previous dist/ exactly as it was', async () => {
    await withTempDir('failed-build-', async (dir) => {
      const good = await contentCopy(path.join(dir, 'good'));
      const outDir = path.join(dir, 'dist');
      await build({ root: ROOT, contentDir: good, outDir, skipIslands: true });
      const before = await treeDigest(outDir);
      expect(before.size).toBeGreaterThan(20);

      const bad = await contentCopy(path.join(dir, 'bad'), BROKEN);
      await mkdir(path.dirname(bad), { recursive: true });
      const result = await run(process.execPath, ['cli/main.mjs', 'build'], {
        cwd: ROOT, env: { ...process.env, CONTENT_DIR: bad, DIST_DIR: outDir },
      }).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('Build failed: 5 problems in content. dist/ was left as it was.');
      expect(result.stderr).toContain('page.faqs[2].answer: expected text, got a number');
      expect(await treeDigest(outDir)).toEqual(before);
      expect((await readdir(dir)).sort()).toEqual(['bad', 'dist', 'good']);
    });
  });

  it('npm run check in GitHub Actions also annotates each problem on its file, line and column', async () => {
    await withTempDir('check-annotations-', async (dir) => {
      const bad = await contentCopy(dir, BROKEN);
      const result = await run(process.execPath, ['cli/main.mjs', 'check'], {
        cwd: ROOT, env: { ...process.env, CONTENT_DIR: bad, GITHUB_ACTIONS: 'true' },
      }).then(() => ({ code: 0, stdout: '' }), (e: { code: number; stdout: string }) => e);
      expect(result.code).toBe(1);
      const annotations = result.stdout.split('\n').filter((l) => l.startsWith('::error '));
      expect(annotations).toHaveLength(5);
      expect(annotations).toContainEqual(expect.stringMatching(/^::error file=[^,]*content\/cities\/[\w-]+\.yaml,line=\d+,col=\d+,title=page\.faqs\[2\]\.answer::expected text, got a number/));
    });
  });
});
