/** One build in its own process, so peak memory (worker threads included) is this build's alone. */
import '../generator/env.js';
import { build } from '../generator/build.js';

const [contentDir, outDir] = process.argv.slice(2);
const result = await build({ root: process.cwd(), contentDir: contentDir!, outDir: outDir!, skipIslands: process.env.BENCH_SKIP_ISLANDS === '1' });
// maxRSS is the whole process's: the render worker threads are included.
process.stdout.write(JSON.stringify({ ms: result.ms, pages: result.pages, stages: result.stages, maxRssMiB: process.resourceUsage().maxRSS / 1024 }) + '\n');
