/**
 * The self-hosted web font (Inter, latin subset) from @fontsource-variable/inter, cut to the
 * weights the site uses (400-800 of its 100-900 axis) with subset-font (HarfBuzz): 48 KB -> 31 KB,
 * the largest file a first visit downloads before its largest paint. Same glyphs, same shapes.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { CacheKey, writeAtomic } from '../cache.js';
import { contentHash } from './hash.js';
import { runInOwnProcess } from './ownProcess.js';

const require = createRequire(import.meta.url);
const LATIN_RANGE = 'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD';
/** font-normal to font-extrabold: every weight templates/ and src/ use. */
const WEIGHTS = { min: 400, max: 800 };

interface FontAsset {
  url: string;
  bytes: Buffer;
  fontFaceCss: string;
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

const fontSource = () => require.resolve('@fontsource-variable/inter/files/inter-latin-wght-normal.woff2');

/** Cut the font to the latin range and the weights used, into `cached` (run in a process of its own by loadFont). */
export async function subsetFontInto(source: string, cached: string): Promise<void> {
  const { default: subsetFont } = await import('subset-font');
  await writeAtomic(cached, await subsetFont(await readFile(source), rangeText(LATIN_RANGE), { targetFormat: 'woff2', variationAxes: { wght: WEIGHTS } }));
}

let font: Promise<FontAsset> | undefined;

/**
 * The font file and its @font-face rule. Subsetting takes ~0.5 s, more than a whole warm build's
 * assets: the result is kept in .cache/font/, keyed by the source file, the cut and the lockfile.
 */
export function loadFont(root: string): Promise<FontAsset> {
  font ??= (async () => {
    const source = await readFile(fontSource());
    const key = new CacheKey().add(source, LATIN_RANGE, JSON.stringify(WEIGHTS)).lockfile(root).digest(32);
    const cached = path.join(root, '.cache', 'font', `${key}.woff2`);
    const bytes: Buffer = await readFile(cached).catch(async () => {
      // HarfBuzz (WebAssembly) in a process of its own: the build would keep its memory.
      await runInOwnProcess({ module: new URL('./fonts.ts', import.meta.url), fn: 'subsetFontInto', args: [fontSource(), cached], what: 'font subsetting' });
      return readFile(cached);
    });
    const url = `/assets/inter-latin-${contentHash(bytes)}.woff2`;
    const fontFaceCss = `@font-face{font-family:"Inter Variable";font-style:normal;font-display:swap;font-weight:${WEIGHTS.min} ${WEIGHTS.max};src:url(${url}) format("woff2-variations");unicode-range:${LATIN_RANGE}}`;
    return { url, bytes, fontFaceCss };
  })();
  font.catch(() => { font = undefined; });
  return font;
}
