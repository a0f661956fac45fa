/**
 * Content images as the browser gets them, named by content hash.
 * - Vector artwork (SVG) is served as it is: smaller and sharper than any raster version.
 * - Photos (PNG, JPEG, WebP) become AVIF and WebP at a few widths with sharp; encoded files are
 *   cached in .cache/images/ by content hash, so an unchanged photo is never encoded twice.
 * - Each image also gets a small pre-blurred WebP (cached the same way), inlined as a data: URL
 *   where a hero starts blurred: a crossfade to the sharp image costs the phone no filter work.
 */
import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageRef } from '../../contracts/pages.js';
import { writeAtomic } from '../cache.js';
import { contentHash } from './hash.js';

interface ImageFile {
  url: string;
  /** Where the bytes are: the cache for encoded photos, the content folder for SVG. */
  sourcePath: string;
}

const WIDTHS = [640, 1024, 1600];

/**
 * The pre-blurred image: BLUR_WIDTH px wide, blurred as CSS blur(6px) blurs it at 1280 px (the
 * home hero's look), so stretched to the hero it looks the same; a blurred image has no detail
 * a larger one would keep. About 3 KB.
 */
const BLUR_WIDTH = 480;
const BLUR_SIGMA = (6 * BLUR_WIDTH) / 1280;

/**
 * What needs sharp. The build's own process only finds out whether everything is cached
 * (`cacheOnly`); if not, a process of its own encodes (sharp and its native library hold ~60 MB
 * that a build would otherwise keep while it renders) and the build reads the results.
 */
interface Encoder {
  /** Make cachePath unless it exists; false if it is missing and this encoder cannot make it. */
  ensure(cachePath: string, make: (sharp: Sharp) => Promise<Buffer>): Promise<boolean>;
}
type Sharp = typeof import('sharp').default;

export const cacheOnly = (misses: string[]): Encoder => ({
  async ensure(cachePath) {
    if (await exists(cachePath)) return true;
    misses.push(cachePath);
    return false;
  },
});

const withSharp: Encoder = {
  async ensure(cachePath, make) {
    if (await exists(cachePath)) return true;
    const { default: sharp } = await import('sharp');
    await writeAtomic(cachePath, await make(sharp));
    return true;
  },
};

async function blurredDataUrl(source: Buffer, cachePath: string, encoder: Encoder): Promise<string> {
  const made = await encoder.ensure(cachePath, (sharp) => sharp(source).resize({ width: BLUR_WIDTH }).blur(BLUR_SIGMA).webp({ quality: 50 }).toBuffer());
  return made ? `data:image/webp;base64,${(await readFile(cachePath)).toString('base64')}` : '';
}

export async function listImages(contentDir: string): Promise<string[]> {
  const dir = path.join(contentDir, 'images');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && /\.(svg|png|jpe?g|webp)$/.test(e.name))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

const exists = (p: string) => access(p).then(() => true, () => false);

/** The intrinsic size an SVG declares (width/height attributes, else its viewBox). */
function svgSize(svg: string): { width: number; height: number } {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const attr = (name: string) => Number(new RegExp(`\\s${name}="([\\d.]+)"`).exec(root)?.[1]);
  const box = /viewBox="[\d.-]+[\s,]+[\d.-]+[\s,]+([\d.]+)[\s,]+([\d.]+)"/.exec(root);
  const width = attr('width') || Number(box?.[1]) || 1600;
  const height = attr('height') || Number(box?.[2]) || 900;
  return { width: Math.round(width), height: Math.round(height) };
}


/** Encode every image's cached files with sharp (run in a process of its own by processImages, fromCache.ts). */
export async function encodeImages(contentDir: string, cacheDir: string, names: readonly string[]): Promise<void> {
  await describeImages(contentDir, cacheDir, names, withSharp);
}

/**
 * Every image at once, not one after the other: a build checks the cache while the content stage
 * holds the event loop, and each await waits for its next pause.
 */
export async function describeImages(contentDir: string, cacheDir: string, names: readonly string[], encoder: Encoder) {
  const described = await Promise.all(names.map((name) => describeImage(contentDir, cacheDir, name, encoder)));
  const refs = new Map(described.map((d, i) => [names[i]!, d.ref]));
  const files = described.flatMap((d) => d.files).sort((a, b) => a.url.localeCompare(b.url));
  return { refs, files };
}

async function describeImage(contentDir: string, cacheDir: string, name: string, encoder: Encoder): Promise<{ ref: ImageRef; files: ImageFile[] }> {
  const files: ImageFile[] = [];
  const sourcePath = path.join(contentDir, 'images', name);
  const source = await readFile(sourcePath);
  const hash = contentHash(source);
  const base = name.replace(/\.[a-z]+$/, '').replace(/\//g, '-');
  const blurredSrc = await blurredDataUrl(source, path.join(cacheDir, `${base}-${hash}-blur.webp`), encoder);
  if (name.endsWith('.svg')) {
    const url = `/assets/img/${base}-${hash}.svg`;
    files.push({ url, sourcePath });
    const svg = source.toString('utf8');
    return { ref: { src: url, ...svgSize(svg), blurredSrc }, files };
  }
  const metaPath = path.join(cacheDir, `${base}-${hash}.json`);
  const known = await encoder.ensure(metaPath, async (sharp) => Buffer.from(JSON.stringify(await sharp(source).metadata())));
  const meta = known ? (JSON.parse(await readFile(metaPath, 'utf8')) as { width?: number; height?: number }) : {};
  const ratio = (meta.height ?? 9) / (meta.width ?? 16);
  const widths = WIDTHS.filter((w) => w <= (meta.width ?? Infinity));
  if (widths.length === 0) widths.push(meta.width ?? WIDTHS[0]!);
  const sets: Record<'avif' | 'webp', string[]> = { avif: [], webp: [] };
  for (const width of widths) {
    for (const format of ['avif', 'webp'] as const) {
      const fileName = `${base}-${hash}-${width}.${format}`;
      const cachePath = path.join(cacheDir, fileName);
      await encoder.ensure(cachePath, (sharp) => {
        const pipeline = sharp(source).resize({ width });
        return format === 'avif' ? pipeline.avif({ quality: 50, effort: 4 }).toBuffer() : pipeline.webp({ quality: 75 }).toBuffer();
      });
      const url = `/assets/img/${fileName}`;
      files.push({ url, sourcePath: cachePath });
      sets[format].push(`${url} ${width}w`);
    }
  }
  const fallbackWidth = widths[Math.min(1, widths.length - 1)]!;
  const ref = {
    src: `/assets/img/${base}-${hash}-${fallbackWidth}.webp`,
    avifSrcSet: sets.avif.join(', '),
    webpSrcSet: sets.webp.join(', '),
    width: fallbackWidth,
    height: Math.round(fallbackWidth * ratio),
    blurredSrc,
  };
  return { ref, files };
}
