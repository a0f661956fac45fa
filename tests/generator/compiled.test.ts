/**
 * The generator runs from JavaScript compiled once per state of its sources (generator/runtime/compiled.mjs):
 * never stale (a changed source compiles again, the next start and a restarted render worker get
 * it), not compiled again when nothing it reads changed, and whole when two processes start at once.
 * Each test works on a copy of the project, so its compiles are its own.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledCode } from '../../generator/runtime/compiled.mjs';
import type { DevSession as DevSessionType } from '../../serve/dev.js';
import { tempDir } from '../helpers/content.js';
import { projectCopy } from './projectCopy.js';

const run = promisify(execFile);

describe('the compiled generator', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let root: string;
  const cacheDir = () => path.join(root, '.cache', 'code');
  const compiledDirs = async () => (await readdir(cacheDir())).filter((name) => /^[0-9a-f]{24}$/.test(name)).sort();

  beforeAll(async () => {
    tmp = await tempDir('compiled-');
    root = await projectCopy(path.join(tmp.dir, 'project'), { lockfile: true });
  });
  afterAll(() => tmp.remove());

  it('runs the command line from the compiled code, and compiles only when a source it reads changed', async () => {
    const check = () => run(process.execPath, [path.join(root, 'cli/main.mjs'), 'check'], { cwd: root });
    expect((await check()).stdout).toMatch(/^Content is valid: \d+ services/m);
    const [first] = await compiledDirs();
    expect(first).toBeDefined();
    const latest = path.join(cacheDir(), 'latest.json');
    const recorded = await stat(latest);

    // Nothing the compile read changed (a new file that nothing imports is not read): no compile.
    await writeFile(path.join(root, 'generator/unused-note.ts'), 'export const note = 1;\n');
    await check();
    expect(await compiledDirs()).toEqual([first]);
    expect((await stat(latest)).mtimeMs).toBe(recorded.mtimeMs);

    // A changed source: compiled again, and the command runs the new code.
    const cli = path.join(root, 'cli/commands.ts');
    const original = await readFile(cli, 'utf8');
    await writeFile(cli, original.replace('Content is valid:', 'Content checked and valid:'));
    expect((await check()).stdout).toMatch(/^Content checked and valid:/m);
    expect(await compiledDirs()).toHaveLength(2);

    // Back as it was: the first compile is found again.
    await writeFile(cli, original);
    const again = await compiledCode({ root });
    expect(path.basename(again.dir)).toBe(first);
    expect((await check()).stdout).toMatch(/^Content is valid:/m);
  });

  it('names the file and line of a source that does not compile, and compiles once it is fixed', async () => {
    const file = path.join(root, 'generator/build.ts');
    const original = await readFile(file, 'utf8');
    await writeFile(file, original.replace('export async function checkContent(', 'export async function checkContent(('));
    const failed = await run(process.execPath, [path.join(root, 'cli/main.mjs'), 'check'], { cwd: root }).catch((err: { code: number; stderr: string }) => err);
    expect('code' in failed && failed.code).toBe(1);
    expect((failed as { stderr: string }).stderr).toMatch(/Could not compile the generator:\n.*generator\/build\.ts:\d+:\d+: /);
    await writeFile(file, original);
    await expect(compiledCode({ root })).resolves.toBeDefined();
  });

  it('leaves one whole compiled folder when two processes compile the same sources at once', async () => {
    await writeFile(path.join(root, 'cli/commands.ts'), `${await readFile(path.join(root, 'cli/commands.ts'), 'utf8')}\n// two at once\n`);
    const before = await compiledDirs();
    const compileInChild = () => run(process.execPath, ['--input-type=module', '-e',
      `const { compiledCode } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'generator/runtime/compiled.mjs')).href)}); console.log((await compiledCode()).dir);`]);
    const [a, b] = await Promise.all([compileInChild(), compileInChild()]);
    expect(a.stdout.trim()).toBe(b.stdout.trim());
    const dir = a.stdout.trim();
    expect(await compiledDirs()).toEqual([...before, path.basename(dir)].sort());
    expect(existsSync(path.join(dir, 'cli.mjs')) && existsSync(path.join(dir, 'worker.mjs')) && existsSync(path.join(dir, 'assetHelper.mjs'))).toBe(true);
    expect((await readdir(cacheDir())).filter((name) => name.startsWith('.staging-'))).toEqual([]);
  });

  it('compiles whole when one process asks for several compiles at once, of one copy and of another', async () => {
    // A build asks from its own thread and from its asset jobs; tests build copies side by side.
    const other = await projectCopy(path.join(tmp.dir, 'other'), { lockfile: true });
    for (const dir of [root, other]) {
      const cli = path.join(dir, 'cli/commands.ts');
      await writeFile(cli, `${await readFile(cli, 'utf8')}\n// asked for at once\n`);
    }
    const compiled = pathToFileURL(path.join(root, 'generator/runtime/compiled.mjs')).href;
    // Unsettled, the child would end with code 13 (an await nothing can settle) instead of printing.
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e',
      `const { compiledCode } = await import(${JSON.stringify(compiled)}); const roots = ${JSON.stringify([root, root, other])};
       console.log(JSON.stringify((await Promise.all(roots.map((root) => compiledCode({ root })))).map((c) => c.dir)));`]);
    const [a, b, c] = JSON.parse(stdout) as string[];
    expect(a).toBe(b);
    expect(path.dirname(a!)).toBe(cacheDir());
    expect(path.dirname(c!)).toBe(path.join(other, '.cache', 'code'));
    for (const dir of [a!, c!]) expect(['cli.mjs', 'worker.mjs', 'assetHelper.mjs'].every((f) => existsSync(path.join(dir, f)))).toBe(true);
  });

  it('gives a render worker restarted by npm run dev the templates as they are now', async () => {
    const contentDir = path.join(root, 'content');
    const outDir = path.join(tmp.dir, 'dev-dist');
    // The copy's own modules, so its workers compile the copy's templates.
    const { DevSession } = (await import(pathToFileURL(path.join(root, 'serve/dev.ts')).href)) as { DevSession: typeof DevSessionType };
    const session = new DevSession({ root, contentDir, outDir, skipIslands: true, siteUrl: 'https://www.bayshinecleaning.com' });
    try {
      expect((await session.start()).errors).toEqual([]);
      const page = () => readFile(path.join(outDir, 'contact.html'), 'utf8');
      expect(await page()).not.toContain('data-edited');
      const footer = path.join(root, 'templates/layout/Footer.tsx');
      const text = await readFile(footer, 'utf8');
      expect(text).toContain('<footer className="bg-ink-900 text-ink-200">');
      await writeFile(footer, text.replace('<footer className="bg-ink-900 text-ink-200">', '<footer className="bg-ink-900 text-ink-200" data-edited="yes">'));
      const update = await session.codeChanged('templates');
      expect(update.errors).toEqual([]);
      expect(await page()).toContain('<footer class="bg-ink-900 text-ink-200" data-edited="yes">');
    } finally {
      await session.close();
    }
  });
});
