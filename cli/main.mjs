// @ts-check
/**
 * What the npm scripts run (`node cli/main.mjs build`): the command line, cli/commands.ts,
 * from its compiled JavaScript (compiled.mjs), compiled first when a source changed.
 */
import { compiledCode } from '../generator/compiled.mjs';

// Errors name the TypeScript sources' lines, not the compiled ones (no measurable cost here).
process.setSourceMapsEnabled(true);

let entry;
try {
  const started = performance.now();
  entry = (await compiledCode()).entry('cli');
  // GENERATOR_TIMINGS=1: how long finding (or compiling) the code took, as build.ts prints its stages.
  if (process.env.GENERATOR_TIMINGS) console.error(`  code: ${Math.round(performance.now() - started)} ms`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
await import(entry);
