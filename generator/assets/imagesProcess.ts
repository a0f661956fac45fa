/** Runs encodeImages in a process of its own (see processImages in images.ts). */
import { encodeImages } from './images.js';
import { ownProcessArg } from './ownProcess.js';

const { contentDir, cacheDir, names } = ownProcessArg<{ contentDir: string; cacheDir: string; names: string[] }>();
await encodeImages(contentDir, cacheDir, names);
