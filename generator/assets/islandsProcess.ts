/**
 * Runs bundleIslands in a process of its own (see islandsCache.ts): reads the options as JSON from
 * its argument, writes the bundle's description as JSON to stdout.
 */
import { bundleIslands, type IslandBundleOptions } from './islands.js';

const opts = JSON.parse(process.argv[2] ?? '{}') as IslandBundleOptions;
const bundle = await bundleIslands(opts);
process.stdout.write(`${JSON.stringify(bundle)}\n`);
