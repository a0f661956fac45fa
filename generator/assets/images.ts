/**
 * Content images as the browser gets them, named by content hash.
 * - Vector artwork (SVG) is served as it is: smaller and sharper than any raster version.
 * - Photos (PNG, JPEG, WebP) become AVIF and WebP at a few widths with sharp; encoded files are
 *   named by content hash in a folder named by the encoding's settings and sharp's version
 *   (imageDirs): committed in prebuilt/images/ (prebuilt.ts), else made into .cache/images/, so an
 *   unchanged photo is never encoded twice.
 * - Each image also gets a small pre-blurred WebP (cached the same way), inlined as a data: URL
 *   where a hero starts blurred: a crossfade to the sharp image costs the phone no filter work.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageRef } from '../../contracts/pages.js';
import { CacheKey, writeAtomic } from '../cache/store.js';
import { contentHash } from './hash.js';
import { assetDirs, findAsset, packageVersions, type AssetDirs } from './prebuilt.js';

interface ImageFile {
  url: string;
  /** Where the bytes are: prebuilt/ or the cache for encoded photos, the content folder for SVG. */
  sourcePath: string;
}

const WIDTHS = [640, 1024, 1600];

/**
 * The pre-blurred image: BLUR_WIDTH px wide, blurred as CSS blur(6px) blurs it at 1280 px (the
 * home hero's look), so stretched to the hero it looks the same; a blurred image has no detail
 * a larger one would keep.
 */
const BLUR_WIDTH = 480;
const BLUR_SIGMA = (6 * BLUR_WIDTH) / 1280;
const BLUR_WEBP = { quality: 50 };
const AVIF = { quality: 50, effort: 4 };
const WEBP = { quality: 75 };

/**
 * Where encoded files are looked for and made: a folder per encoding (every setting above and
 * sharp's version, which pins its libvips), each file named by its source's content hash.
 */
export function imageDirs(root: string): AssetDirs {
  const settings = JSON.stringify({ WIDTHS, BLUR_WIDTH, BLUR_SIGMA, BLUR_WEBP, AVIF, WEBP });
  return assetDirs(root, 'images', new CacheKey().add(settings, packageVersions(['sharp'])).digest(16));
}

/**
 * What needs sharp. The build's own process only finds out whether everything is there
 * (`cacheOnly`); if not, a process of its own encodes (sharp and its native library hold memory
 * that a build would otherwise keep while it renders) and the build reads the results.
 */
interface Encoder {
  /** The path of `fileName`, in prebuilt/ or made into the cache unless there; undefined if missing and this encoder cannot make it. */
  ensure(fileName: string, make: (sharp: Sharp) => Promise<Buffer>): Promise<string | undefined>;
}
type Sharp = typeof import('sharp').default;

export const cacheOnly = (dirs: AssetDirs, misses: string[]): Encoder => ({
  async ensure(fileName) {
    const found = await findAsset(dirs, fileName);
    if (!found) misses.push(fileName);
    return found;
  },
});

const withSharp = (dirs: AssetDirs): Encoder => ({
  async ensure(fileName, make) {
    const found = await findAsset(dirs, fileName);
    if (found) return found;
    const { default: sharp } = await import('sharp');
    const file = path.join(dirs.cache, fileName);
    await writeAtomic(file, await make(sharp));
    return file;
  },
});

async function blurredDataUrl(source: Buffer, fileName: string, encoder: Encoder): Promise<string> {
  const file = await encoder.ensure(fileName, (sharp) => sharp(source).resize({ width: BLUR_WIDTH }).blur(BLUR_SIGMA).webp(BLUR_WEBP).toBuffer());
  return file ? `data:image/webp;base64,${(await readFile(file)).toString('base64')}` : '';
}

export async function listImages(contentDir: string): Promise<string[]> {
  const dir = path.join(contentDir, 'images');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && /\.(svg|png|jpe?g|webp)$/.test(e.name))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** The intrinsic size an SVG declares (width/height attributes, else its viewBox). */
function svgSize(svg: string): { width: number; height: number } {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const attr = (name: string) => Number(new RegExp(`\\s${name}="([\\d.]+)"`).exec(root)?.[1]);
  const box = /viewBox="[\d.-]+[\s,]+[\d.-]+[\s,]+([\d.]+)[\s,]+([\d.]+)"/.exec(root);
  const width = attr('width') || Number(box?.[1]) || 1600;
  const height = attr('height') || Number(box?.[2]) || 900;
  return { width: Math.round(width), height: Math.round(height) };
}


/**
 * Encode every image's missing files into dirs.cache with sharp (run in a process of its own by
 * processImages, fromCache.ts; by `npm run prebuilt` into prebuilt/); the names of all its files.
 */
export async function encodeImages(contentDir: string, dirs: AssetDirs, names: readonly string[]): Promise<string[]> {
  const encoder = withSharp(dirs);
  const fileNames: string[] = [];
  await describeImages(contentDir, names, { ensure: (fileName, make) => (fileNames.push(fileName), encoder.ensure(fileName, make)) });
  return fileNames.sort();
}

/**
 * Every image at once, not one after the other: a build checks the cache while the content stage
 * holds the event loop, and each await waits for its next pause.
 */
export async function describeImages(contentDir: string, names: readonly string[], encoder: Encoder) {
  const described = await Promise.all(names.map((name) => describeImage(contentDir, name, encoder)));
  const refs = new Map(described.map((d, i) => [names[i]!, d.ref]));
  const files = described.flatMap((d) => d.files).sort((a, b) => a.url.localeCompare(b.url));
  return { refs, files };
}

async function describeImage(contentDir: string, name: string, encoder: Encoder): Promise<{ ref: ImageRef; files: ImageFile[] }> {
  const files: ImageFile[] = [];
  const sourcePath = path.join(contentDir, 'images', name);
  const source = await readFile(sourcePath);
  const hash = contentHash(source);
  const base = name.replace(/\.[a-z]+$/, '').replace(/\//g, '-');
  const blurredSrc = await blurredDataUrl(source, `${base}-${hash}-blur.webp`, encoder);
  if (name.endsWith('.svg')) {
    const url = `/assets/img/${base}-${hash}.svg`;
    files.push({ url, sourcePath });
    const svg = source.toString('utf8');
    return { ref: { src: url, ...svgSize(svg), blurredSrc }, files };
  }
  const metaPath = await encoder.ensure(`${base}-${hash}.json`, async (sharp) => Buffer.from(JSON.stringify(await sharp(source).metadata())));
  const meta = metaPath ? (JSON.parse(await readFile(metaPath, 'utf8')) as { width?: number; height?: number }) : {};
  const ratio = (meta.height ?? 9) / (meta.width ?? 16);
  const widths = WIDTHS.filter((w) => w <= (meta.width ?? Infinity));
  if (widths.length === 0) widths.push(meta.width ?? WIDTHS[0]!);
  const sets: Record<'avif' | 'webp', string[]> = { avif: [], webp: [] };
  for (const width of widths) {
    for (const format of ['avif', 'webp'] as const) {
      const fileName = `${base}-${hash}-${width}.${format}`;
      const encoded = await encoder.ensure(fileName, (sharp) => {
        const pipeline = sharp(source).resize({ width });
        return format === 'avif' ? pipeline.avif(AVIF).toBuffer() : pipeline.webp(WEBP).toBuffer();
      });
      const url = `/assets/img/${fileName}`;
      // Missing only while the build asks what to encode (cacheOnly): that answer is not used.
      files.push({ url, sourcePath: encoded ?? '' });
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
