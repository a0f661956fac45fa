/** Runs encodeImages in a process of its own (see processImages in images.ts); options as JSON in its argument. */
import { encodeImages } from './images.js';

const { contentDir, cacheDir, names } = JSON.parse(process.argv[2] ?? '{}') as { contentDir: string; cacheDir: string; names: string[] };
await encodeImages(contentDir, cacheDir, names);
