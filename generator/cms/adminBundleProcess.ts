/** Runs bundleAdmin in a process of its own (see adminBundleCache.ts): options in, result as JSON out. */
import { bundleAdmin, type AdminBundleOptions } from './adminBundle.js';

const opts = JSON.parse(process.argv[2] ?? '{}') as AdminBundleOptions;
const bundle = await bundleAdmin(opts);
process.stdout.write(`${JSON.stringify(bundle)}\n`);
