/** The self-hosted web font (Inter, latin subset) from @fontsource-variable/inter. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { contentHash } from './hash.js';

const require = createRequire(import.meta.url);
const LATIN_RANGE = 'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD';

interface FontAsset {
  url: string;
  bytes: Buffer;
  fontFaceCss: string;
}

export async function loadFont(): Promise<FontAsset> {
  const file = require.resolve('@fontsource-variable/inter/files/inter-latin-wght-normal.woff2');
  const bytes = await readFile(file);
  const url = `/assets/inter-latin-${contentHash(bytes)}.woff2`;
  const fontFaceCss = `@font-face{font-family:"Inter Variable";font-style:normal;font-display:swap;font-weight:100 900;src:url(${url}) format("woff2-variations");unicode-range:${LATIN_RANGE}}`;
  return { url, bytes, fontFaceCss };
}
