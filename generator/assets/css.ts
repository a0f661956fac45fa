/**
 * Tailwind compiled at build time: one minified stylesheet holding only the classes in use. The
 * result depends only on the files Tailwind scans, so it is cached by their digest and the
 * compiler is not even loaded when nothing changed.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hashLockfiles } from './lockfile.js';

const SCANNED = ['templates', 'src'];

function inputDigest(root: string, fontFaceCss: string): string {
  const hash = createHash('sha256').update(fontFaceCss);
  for (const dir of SCANNED) {
    const files = readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
    for (const file of files) hash.update(path.relative(root, file)).update(readFileSync(file));
  }
  hashLockfiles(hash, root);
  return hash.digest('hex').slice(0, 24);
}

export async function buildCss(root: string, fontFaceCss: string): Promise<string> {
  const cacheFile = path.join(root, '.cache', 'css', `${inputDigest(root, fontFaceCss)}.css`);
  const cached = await readFile(cacheFile, 'utf8').catch(() => undefined);
  if (cached !== undefined) return cached;
  const [{ compile, optimize }, { Scanner }] = await Promise.all([import('@tailwindcss/node'), import('@tailwindcss/oxide')]);
  const entry = path.join(root, 'templates/styles/site.css');
  const input = await readFile(entry, 'utf8');
  const compiler = await compile(input, { base: path.dirname(entry), onDependency: () => {} });
  const scanner = new Scanner({ sources: compiler.sources.map((s) => ({ ...s, negated: s.negated ?? false })) });
  const css = optimize(fontFaceCss + compiler.build(scanner.scan().sort()), { minify: true }).code;
  await mkdir(path.dirname(cacheFile), { recursive: true });
  await writeFile(`${cacheFile}.${process.pid}`, css);
  await rename(`${cacheFile}.${process.pid}`, cacheFile);
  return css;
}
