/**
 * The self-hosted web font (Inter, latin subset) from @fontsource-variable/inter, cut to the
 * weights the site uses (400-800 of its 100-900 axis) with subset-font (HarfBuzz): a smaller file.
 *
 * Pages do not wait for it: they paint first in a fallback drawn to Inter's metrics, and the
 * font loader (src/scripts/font-loader.js, inlined in <head>) adds Inter after that first paint,
 * or at once when an earlier page has already fetched it. On a phone the font would otherwise
 * share the first round trips with the stylesheet, and Lighthouse counts them in the largest paint.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { WebFont } from '../../contracts/pages.js';
import { CacheKey, writeAtomic } from '../cache/store.js';
import { assetDirs, packageVersions, type AssetDirs } from './prebuilt.js';

const require = createRequire(import.meta.url);
/** What the file holds: no unicode-range is declared, since a character it lacks falls back all the same. */
export const LATIN_RANGE = 'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD';
/** font-normal to font-extrabold: every weight templates/ and src/ use. */
export const WEIGHTS = { min: 400, max: 800 };
export const FAMILY = 'Inter Variable';

/**
 * The fallback family of templates/styles/site.css's --font-sans: Arial drawn to Inter's line box
 * and, weight by weight, to the width Inter's text takes, so that the text keeps its lines when
 * Inter replaces it after the first paint (a rewrapped line moves what follows: layout shift).
 * Where there is no Arial, a font drawn to its metrics (Liberation Sans, Arimo) or Android's
 * Roboto stands in.
 *
 * One size-adjust for every weight (Arial's and Inter's average widths of English text, from
 * @capsizecss/metrics) left this site's regular text wider than in Inter and its bold narrower
 * (Inter widens with weight, Arial's synthetic bold does not), and one text strays further from
 * the average: the intro of /locations took a line more on a phone than in Inter (a layout shift).
 * Each weight now has its own face, the bold ones Arial Bold (no synthetic bold). Their
 * size-adjust: first what the site's own text measures, weight by weight, in Inter against
 * Liberation Sans (Arial's metric twin; canvas measureText in Chromium, every text of the six key
 * pages), then moved a little to where the first screens of those pages shift least as Inter swaps
 * in (the browser's layout-shift entries in Chromium at phone, tablet and desktop widths). A rewrap
 * cannot be ruled out everywhere: a fallback only approaches Inter's widths, and texts pull apart
 * (at Lighthouse's 412 px no regular scale keeps both the intro of /locations and the line breaks
 * of the intro of /checklist; on /checklist a line's words change and the centred lines move
 * sideways, a small shift). tests/browser/font-fallback.test.ts holds the key pages at 412 px;
 * re-fit when their texts change much.
 */
export const FALLBACK_FAMILY = 'Inter Fallback';
const INTER_METRICS = { ascent: 1984, descent: -494, unitsPerEm: 2048 };
const REGULAR_LOCALS = ['Arial', 'ArialMT', 'Liberation Sans', 'LiberationSans', 'Arimo', 'Roboto', 'Roboto-Regular'];
const BOLD_LOCALS = ['Arial Bold', 'Arial-BoldMT', 'Liberation Sans Bold', 'LiberationSans-Bold', 'Arimo Bold', 'Arimo-Bold', 'Roboto Bold', 'Roboto-Bold'];
/** Per weight the site uses (WEIGHTS): the face that stands in, and its scale (about Inter's width over its own at one size). */
const FALLBACK_FACES = [
  { weight: 400, locals: REGULAR_LOCALS, sizeAdjust: 1.0591 },
  { weight: 500, locals: REGULAR_LOCALS, sizeAdjust: 1.0864 },
  { weight: 600, locals: BOLD_LOCALS, sizeAdjust: 1.0265 },
  { weight: 700, locals: BOLD_LOCALS, sizeAdjust: 1.0189 },
  { weight: 800, locals: BOLD_LOCALS, sizeAdjust: 1.0297 },
] as const;

const percent = (n: number) => `${Number((n * 100).toFixed(4))}%`;

/** The fallback's @font-face rules, for the stylesheet (Inter's own is added by the page). */
export function fallbackFontFace(): string {
  return FALLBACK_FACES.map(({ weight, locals, sizeAdjust }) => {
    // Inter's ascent and descent, in the scaled face's em (capsize's formula); Inter has no line gap.
    const em = INTER_METRICS.unitsPerEm * sizeAdjust;
    const src = locals.map((name) => `local("${name}")`).join(',');
    return `@font-face{font-family:"${FALLBACK_FAMILY}";font-weight:${weight};src:${src};ascent-override:${percent(INTER_METRICS.ascent / em)};descent-override:${percent(-INTER_METRICS.descent / em)};line-gap-override:0%;size-adjust:${percent(sizeAdjust)}}`;
  }).join('');
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

/** The cut's file name in its folder. */
export const FONT_FILE = 'inter-latin.woff2';

/**
 * Where the cut of this source, range, weights and subsetter is (prebuilt/font/<key>/, then
 * .cache/font/<key>/): the key is everything the bytes depend on, the packages that cut and
 * compress by their versions.
 */
export function fontDirs(root: string, source: Uint8Array): AssetDirs {
  const key = new CacheKey().add(source, LATIN_RANGE, JSON.stringify(WEIGHTS), packageVersions(['subset-font', 'harfbuzzjs', 'fontverter', 'wawoff2'])).digest(24);
  return assetDirs(root, 'font', key);
}

/** Cut the font to the latin range and the weights used, into `cached` (run outside the build, on a thread of the asset helper, by loadFont, fromCache.ts). */
export async function subsetFontInto(source: string, cached: string): Promise<void> {
  const { default: subsetFont } = await import('subset-font');
  await writeAtomic(cached, await subsetFont(await readFile(source), rangeText(LATIN_RANGE), { targetFormat: 'woff2', variationAxes: { wght: WEIGHTS } }));
}

