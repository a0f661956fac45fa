// @ts-check
/**
 * What the npm scripts run (`node generator/main.mjs build`): the command line, generator/cli.ts,
 * from its compiled JavaScript (compiled.mjs), compiled first when a source changed.
 */
import { compiledCode } from './compiled.mjs';

// Errors name the TypeScript sources' lines, not the compiled ones (no measurable cost here).
process.setSourceMapsEnabled(true);

let entry;
try {
  entry = (await compiledCode()).entry('cli');
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
await import(entry);
