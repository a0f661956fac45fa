/**
 * The self-hosted web font (Inter, latin subset) from @fontsource-variable/inter, cut to the
 * weights the site uses (400-800 of its 100-900 axis) with subset-font (HarfBuzz): 48 KB -> 31 KB.
 *
 * Pages do not wait for it: they paint first in a fallback drawn to Inter's metrics, and the
 * font loader (src/scripts/font-loader.js, inlined in <head>) adds Inter after that first paint,
 * or at once when an earlier page has already fetched it. On a phone the 31 KB would otherwise
 * share the first round trips with the stylesheet, and Lighthouse counts them in the largest paint.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createFontStack } from '@capsizecss/core';
import type { WebFont } from '../../contracts/pages.js';
import { writeAtomic } from '../cache.js';

const require = createRequire(import.meta.url);
/** What the file holds: no unicode-range is declared, since a character it lacks falls back all the same. */
export const LATIN_RANGE = 'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD';
/** font-normal to font-extrabold: every weight templates/ and src/ use. */
export const WEIGHTS = { min: 400, max: 800 };
export const FAMILY = 'Inter Variable';

/**
 * The fallback family of templates/styles/site.css's --font-sans: Arial scaled to Inter's width
 * and line box (metrics from @capsizecss/metrics 4.3, latin widths), so text barely moves when
 * Inter replaces it. Where there is no Arial, a font drawn to its metrics (Liberation Sans, Arimo)
 * or Android's Roboto, within 0.3% of it, stands in.
 */
export const FALLBACK_FAMILY = 'Inter Fallback';
const INTER_METRICS = { familyName: FAMILY, ascent: 1984, descent: -494, lineGap: 0, unitsPerEm: 2048, xWidthAvg: 978 };
const ARIAL_METRICS = { familyName: 'Arial', ascent: 1854, descent: -434, lineGap: 67, unitsPerEm: 2048, xWidthAvg: 913 };
const FALLBACK_LOCALS = ['Arial', 'ArialMT', 'Liberation Sans', 'LiberationSans', 'Arimo', 'Roboto', 'Roboto-Regular'];

/** The fallback's @font-face, for the stylesheet (Inter's own is added by the page). */
export function fallbackFontFace(): string {
  const face = createFontStack([INTER_METRICS, ARIAL_METRICS], { fontFaceFormat: 'styleObject' }).fontFaces[0]!['@font-face'];
  const src = FALLBACK_LOCALS.map((name) => `local("${name}")`).join(',');
  return `@font-face{font-family:"${FALLBACK_FAMILY}";src:${src};ascent-override:${face.ascentOverride};descent-override:${face.descentOverride};line-gap-override:${face.lineGapOverride};size-adjust:${face.sizeAdjust}}`;
}

export interface FontAsset {
  bytes: Buffer;
  /** Inter as the page's font loader adds it (the loader's text is the build's to add). */
  face: Omit<WebFont, 'loader'>;
}

/** Every character of a CSS unicode-range list. */
function rangeText(range: string): string {
  let text = '';
  for (const part of range.split(',')) {
    const [from, to = from] = part.replace(/^U\+/, '').split('-');
    for (let c = parseInt(from!, 16); c <= parseInt(to!, 16); c++) text += String.fromCodePoint(c);
  }
  return text;
}

export const fontSource = () => require.resolve('@fontsource-variable/inter/files/inter-latin-wght-normal.woff2');

/** Cut the font to the latin range and the weights used, into `cached` (run outside the build, on a thread of the asset helper, by loadFont, fromCache.ts). */
export async function subsetFontInto(source: string, cached: string): Promise<void> {
  const { default: subsetFont } = await import('subset-font');
  await writeAtomic(cached, await subsetFont(await readFile(source), rangeText(LATIN_RANGE), { targetFormat: 'woff2', variationAxes: { wght: WEIGHTS } }));
}

