/**
 * Bundles the browser islands (src/entry.ts + one dynamic chunk per island, React and supabase-js
 * in shared chunks) with Vite's JS API into outDir, served at /assets/. Minified, content-hashed,
 * production React, target ES2020. Deterministic: the same sources and options give the same bytes.
 */
import { join, resolve } from 'node:path';
import { bundleForBrowser, type BrowserBundle } from './viteBundle.js';

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

/** The page script (e.g. /assets/entry-3f2a1b9c.js) and every file written. */
export type IslandBundle = BrowserBundle;

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

  return bundleForBrowser({
    name: 'bundleIslands',
    root,
    outDir,
    base: ISLANDS_BASE,
    input: { entry: join(root, 'src/entry.ts') },
    define: {
      __BAYSHINE_SUPABASE_URL__: JSON.stringify(supabaseUrl),
      __BAYSHINE_SUPABASE_ANON_KEY__: JSON.stringify(supabaseAnonKey),
      __BAYSHINE_LEAD_WEBHOOK_URL__: JSON.stringify(webhookUrl),
    },
    output: {
      codeSplitting: {
        // A group takes only the modules it names: Vite's preload helper, which every chunk with a
        // dynamic import uses, stays in the page script instead of dragging 'forms' in.
        includeDependenciesRecursively: false,
        groups: [
          // Every island needs React: one request instead of react + jsx-runtime + react-dom.
          { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
          // Loaded only when a form is used (src/lib/supabase.ts imports it dynamically).
          { name: 'supabase-js', test: /[\\/]node_modules[\\/]@supabase[\\/]/ },
          // Loaded when a visitor starts on a form (src/lib/leadKit.ts): validation (zod/mini, the
          // lead rules) and submission. Nothing an island needs to render may be in it.
          // Everything those modules import goes in too: a module left behind lands in another chunk
          // that imports 'forms' back, and in such a cycle 'forms' read the connection settings
          // before they were set (the forms then posted to the page's origin, not Supabase).
          { name: 'forms', test: /[\\/](src[\\/]lib[\\/](leadKit|leadSchemas|leads|leadSource|supabase)\.ts|contracts[\\/]supabaseConnection\.ts|_shared[\\/](leadRules|languages)\.ts|node_modules[\\/]zod[\\/])/ },
        ],
      },
    },
  });
}
