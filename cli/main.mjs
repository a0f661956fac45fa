// @ts-check
/**
 * What the npm scripts run (`node cli/main.mjs build`): the command line, cli/commands.ts,
 * from its compiled JavaScript (compiled.mjs), compiled first when a source changed.
 */
import { fileURLToPath } from 'node:url';
import { prestartAssetHelper } from '../generator/assets/helper/start.mjs';
import { compiledCode } from '../generator/runtime/compiled.mjs';

/** The commands that build, and so may need the asset helper (generator/assets/helper/client.ts). */
const BUILDING = new Set(['build', 'start', 'dev', 'content-gate']);

// Errors name the TypeScript sources' lines, not the compiled ones (no measurable cost here).
process.setSourceMapsEnabled(true);

let entry;
try {
  const started = performance.now();
  // Code that has to be compiled has likely changed since the assets were made too: the asset
  // helper starts now, and loads its libraries while the generator compiles.
  const onCompile = BUILDING.has(process.argv[2] ?? '') ? () => prestartAssetHelper(fileURLToPath(new URL('..', import.meta.url))) : undefined;
  entry = (await compiledCode({ onCompile })).entry('cli');
  // GENERATOR_TIMINGS=1: how long finding (or compiling) the code took, as build.ts prints its stages.
  if (process.env.GENERATOR_TIMINGS) console.error(`  code: ${Math.round(performance.now() - started)} ms`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
await import(entry);
