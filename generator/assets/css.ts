/** Tailwind compiled at build time: one minified stylesheet holding only the classes in use. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { compile, optimize } from '@tailwindcss/node';
import { Scanner } from '@tailwindcss/oxide';

export async function buildCss(root: string, fontFaceCss: string): Promise<string> {
  const entry = path.join(root, 'templates/styles/site.css');
  const input = await readFile(entry, 'utf8');
  const compiler = await compile(input, { base: path.dirname(entry), onDependency: () => {} });
  const sources = compiler.sources.map((s) => ({ ...s, negated: s.negated ?? false }));
  const scanner = new Scanner({ sources });
  const candidates = scanner.scan().sort();
  const css = fontFaceCss + compiler.build(candidates);
  return optimize(css, { minify: true }).code;
}
