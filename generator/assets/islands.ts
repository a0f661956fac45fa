/**
 * Bundles the browser islands (src/entry.ts + one dynamic chunk per island, React and supabase-js
 * in shared chunks) with Vite's JS API into outDir, served at /assets/. Minified, content-hashed,
 * production React, target ES2020. Deterministic: the same sources and options give the same bytes.
 */
import { readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';

export interface IslandBundleOptions {
  /** Repository root (contains src/entry.ts). */
  root: string;
  /** Absolute folder the files are written to; it is published as /assets/. */
  outDir: string;
  /** Supabase project URL; empty/undefined = same origin as the page (embedded backend of `npm start`). */
  supabaseUrl?: string | undefined;
  supabaseAnonKey?: string | undefined;
  /** Automation webhook the discount popup posts to; empty/undefined = none. */
  webhookUrl?: string | undefined;
}

interface BuiltIslandFile {
  /** Public URL path, e.g. /assets/ContactForm-3f2a1b9c.js */
  path: string;
  bytes: number;
  gzipBytes: number;
}

export interface IslandBundle {
  /** Public URL path of the page script, e.g. /assets/entry-3f2a1b9c.js */
  entry: string;
  files: BuiltIslandFile[];
}

/** URL prefix the chunks are served under. */
const ISLANDS_BASE = '/assets/';

export async function bundleIslands(opts: IslandBundleOptions): Promise<IslandBundle> {
  const root = resolve(opts.root);
  const outDir = resolve(opts.outDir);
  const supabaseUrl = (opts.supabaseUrl ?? '').trim().replace(/\/+$/, '');
  const supabaseAnonKey = (opts.supabaseAnonKey ?? '').trim();
  const webhookUrl = (opts.webhookUrl ?? '').trim();
  if (supabaseUrl && !supabaseAnonKey) {
    throw new Error('bundleIslands: supabaseUrl is set but supabaseAnonKey is empty (the forms could not insert).');
  }
  for (const [name, value] of [['supabaseUrl', supabaseUrl], ['webhookUrl', webhookUrl]] as const) {
    if (value && !/^https?:\/\/[^\s]+$/.test(value)) throw new Error(`bundleIslands: ${name} is not an http(s) URL: ${value}`);
  }

  const result = await build({
    configFile: false,
    root,
    base: ISLANDS_BASE,
    mode: 'production',
    logLevel: 'warn',
    envDir: false, // no .env files: the only build-time settings are the options above
    publicDir: false,
    clearScreen: false,
    define: {
      'process.env.NODE_ENV': JSON.stringify('production'),
      __BAYSHINE_SUPABASE_URL__: JSON.stringify(supabaseUrl),
      __BAYSHINE_SUPABASE_ANON_KEY__: JSON.stringify(supabaseAnonKey),
      __BAYSHINE_LEAD_WEBHOOK_URL__: JSON.stringify(webhookUrl),
    },
    oxc: { jsx: { runtime: 'automatic', development: false } },
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
        input: { entry: join(root, 'src/entry.ts') },
        preserveEntrySignatures: false,
        onwarn(warning, warn) {
          // lucide-react marks its modules "use client"; meaningless in this client-only bundle.
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
          warn(warning);
        },
        output: {
          entryFileNames: '[name]-[hash].js',
          chunkFileNames: '[name]-[hash].js',
          assetFileNames: '[name]-[hash][extname]',
          codeSplitting: {
            // A group takes only the modules it names: Vite's preload helper, which every chunk
            // with a dynamic import uses, stays in the page script instead of dragging 'forms' in.
            includeDependenciesRecursively: false,
            groups: [
              // Every island needs React: one request instead of react + jsx-runtime + react-dom.
              { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
              // Loaded only when a form is used (src/lib/supabase.ts imports it dynamically).
              { name: 'supabase-js', test: /[\\/]node_modules[\\/]@supabase[\\/]/ },
              // Loaded when a visitor starts on a form (src/lib/leadKit.ts): validation (zod/mini, the
              // lead rules) and submission. Nothing an island needs to render may be in it.
              { name: 'forms', test: /[\\/](src[\\/]lib[\\/](leadKit|leadSchemas|leads|supabase)\.ts|_shared[\\/]leadRules\.ts|node_modules[\\/]zod[\\/])/ },
            ],
          },
        },
      },
    },
  });

  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const written = outputs.flatMap((o) => o.output.map((chunk) => chunk.fileName)).sort();
  const entryChunk = outputs.flatMap((o) => o.output).find((c) => c.type === 'chunk' && c.isEntry);
  if (!entryChunk) throw new Error('bundleIslands: Vite produced no entry chunk');

  const files: BuiltIslandFile[] = written.map((fileName) => {
    const data = readFileSync(join(outDir, fileName));
    return {
      path: ISLANDS_BASE + fileName.split(sep).join('/'),
      bytes: data.length,
      gzipBytes: gzipSync(data, { level: 9 }).length,
    };
  });
  return { entry: ISLANDS_BASE + entryChunk.fileName, files };
}
