/**
 * One Vite build of browser code, as every bundle of the site is built: production React, ES2020,
 * minified, content-hashed names, no .env files, no public folder, written into a folder that holds
 * other assets too. The island bundle (islands.ts) and the back-office apps (appBundle.ts) each say
 * only what is their own: entry, build-time constants, aliases, chunks.
 */
import { sep } from 'node:path';
import { build, type Alias, type Rolldown } from 'vite';

export interface BundledFile {
  /** Public URL path, e.g. /assets/ContactForm-3f2a1b9c.js */
  path: string;
}

export interface BrowserBundle {
  /** Public URL path of the entry script. */
  entry: string;
  files: BundledFile[];
}

export interface BrowserBundleOptions {
  root: string;
  /** Absolute folder the files are written to, published at `base`. */
  outDir: string;
  base: string;
  /** The one entry: chunk name → file. */
  input: Record<string, string>;
  define?: Record<string, string>;
  alias?: Alias[];
  output?: Rolldown.OutputOptions;
  /** Named in errors. */
  name: string;
}

export async function bundleForBrowser(opts: BrowserBundleOptions): Promise<BrowserBundle> {
  const { outDir, base } = opts;
  const result = await build({
    configFile: false,
    root: opts.root,
    base,
    mode: 'production',
    logLevel: 'warn',
    envDir: false, // no .env files: the only build-time settings are the caller's constants
    publicDir: false,
    clearScreen: false,
    define: { 'process.env.NODE_ENV': JSON.stringify('production'), ...opts.define },
    oxc: { jsx: { runtime: 'automatic', development: false } },
    ...(opts.alias && { resolve: { alias: opts.alias } }),
    build: {
      outDir,
      emptyOutDir: false, // outDir may hold other assets of the site
      assetsDir: '',
      target: 'es2020',
      minify: true,
      sourcemap: false,
      manifest: false,
      copyPublicDir: false,
      reportCompressedSize: false,
      write: true,
      modulePreload: { polyfill: false },
      rolldownOptions: {
        input: opts.input,
        preserveEntrySignatures: false,
        onwarn(warning, warn) {
          // lucide-react marks its modules "use client"; meaningless in a client-only bundle.
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
          warn(warning);
        },
        output: { entryFileNames: '[name]-[hash].js', chunkFileNames: '[name]-[hash].js', assetFileNames: '[name]-[hash][extname]', ...opts.output },
      },
    },
  });

  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const written = outputs.flatMap((o) => o.output.map((chunk) => chunk.fileName)).sort();
  const entryChunk = outputs.flatMap((o) => o.output).find((c) => c.type === 'chunk' && c.isEntry);
  if (!entryChunk) throw new Error(`${opts.name}: Vite produced no entry chunk`);

  const files = written.map((fileName) => ({ path: base + fileName.split(sep).join('/') }));
  return { entry: base + entryChunk.fileName, files };
}
