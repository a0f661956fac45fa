/**
 * A back-office app's script bundled with Vite, apart from the islands: the content manager's
 * (/admin) and the lead inbox's (/leads). Each app says what is its own (cms/adminPage.ts,
 * staff/inboxPage.ts: entry, package aliases, build-time constants); its files are
 * /assets/<name>-<hash>.js, its chunks and stylesheet, never referenced by a visitor page. Runs in
 * the asset helper process (generator/backOffice/backOffice.ts starts it, cached like the islands).
 */
import { join, resolve } from 'node:path';
import { bundleForBrowser, type BrowserBundle } from './viteBundle.js';

export interface AppBundleOptions {
  /** The app's name: its entry is /assets/<name>-<hash>.js and errors say "<name> bundle". */
  name: string;
  /** Its entry module, relative to root. */
  entry: string;
  root: string;
  /** Folder published as /assets/. */
  outDir: string;
  /** Packages the app takes from others, as [package, replacement] (subpaths follow). */
  packageAliases?: readonly (readonly [string, string])[];
  /** Build-time constants: identifier → JavaScript expression. */
  define?: Record<string, string>;
}

export async function bundleApp(opts: AppBundleOptions): Promise<BrowserBundle> {
  const root = resolve(opts.root);
  return bundleForBrowser({
    name: `${opts.name} bundle`,
    root,
    outDir: resolve(opts.outDir),
    base: '/assets/',
    input: { [opts.name]: join(root, opts.entry) },
    ...(opts.define && { define: opts.define }),
    ...(opts.packageAliases && {
      alias: opts.packageAliases.map(([from, to]) => ({ find: new RegExp(`^${from}(\\/.*)?$`), replacement: `${to}$1` })),
    }),
    output: { chunkFileNames: `${opts.name}-[name]-[hash].js`, assetFileNames: `${opts.name}-[name]-[hash][extname]` },
  });
}
