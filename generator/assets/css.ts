/**
 * Tailwind compiled at build time: one minified stylesheet holding only the classes in use. The
 * result depends only on the files Tailwind scans, so it is cached by their digest and the
 * compiler is not even loaded when nothing changed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CacheKey, writeAtomic } from '../cache/store.js';

/** What templates/styles/site.css tells Tailwind to scan (its @source lines). */
const SCANNED = ['templates', 'src', 'cms/app'];

const inputDigest = (root: string, fontFaceCss: string) => new CacheKey().add(fontFaceCss).files(root, SCANNED).lockfile(root).digest(24);

export const cacheFileOf = (root: string, fontFaceCss: string) => path.join(root, '.cache', 'css', `${inputDigest(root, fontFaceCss)}.css`);


/** Compile the stylesheet into the cache (run in a process of its own by compileCss, fromCache.ts). */
export async function compileCssIntoCache(root: string, fontFaceCss: string): Promise<void> {
  const cacheFile = cacheFileOf(root, fontFaceCss);
  const [{ compile, optimize }, { Scanner }] = await Promise.all([import('@tailwindcss/node'), import('@tailwindcss/oxide')]);
  const entry = path.join(root, 'templates/styles/site.css');
  const input = await readFile(entry, 'utf8');
  const compiler = await compile(input, { base: path.dirname(entry), onDependency: () => {} });
  const scanner = new Scanner({ sources: compiler.sources.map((s) => ({ ...s, negated: s.negated ?? false })) });
  const css = optimize(fontFaceCss + compiler.build(scanner.scan().sort()), { minify: true }).code;
  await writeAtomic(cacheFile, css);
}
