/**
 * The admin script (src/admin/main.tsx) bundled with Vite, apart from the islands: its own entry,
 * its own files (/assets/admin-<hash>.js and chunks), never referenced by a public page. Decap CMS
 * itself is not bundled: its prebuilt script is copied from node_modules (see adminFiles.ts), which
 * costs nothing at build time. That script brings its own react-dom and takes React from
 * window.React, and React refuses a react-dom of another version, so this bundle's React is the
 * exact version Decap's react-dom was built with (the react-for-decap alias in package.json).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { bundleForBrowser, type BrowserBundle } from '../assets/viteBundle.js';

export interface AdminBundleOptions {
  root: string;
  /** Folder published as /assets/. */
  outDir: string;
}

/** The admin script (e.g. /assets/admin-3f2a1b9c.js) and every file written. */
export type AdminBundle = BrowserBundle;

/** The React version Decap's prebuilt react-dom insists on, read from the script itself. */
export function decapReactVersion(root: string): string {
  const require = createRequire(join(root, 'package.json'));
  const script = readFileSync(require.resolve('decap-cms-app/dist/decap-cms-app.js'), 'utf8');
  const version = /"(19\.\d+\.\d+)"!==\w+\)throw Error\(\w+\(527/.exec(script)?.[1];
  if (!version) throw new Error('admin bundle: cannot tell which React version decap-cms-app was built with');
  return version;
}

export async function bundleAdmin(opts: AdminBundleOptions): Promise<AdminBundle> {
  const root = resolve(opts.root);
  const require = createRequire(join(root, 'package.json'));
  const wanted = decapReactVersion(root);
  for (const name of ['react-for-decap', 'react-dom-for-decap']) {
    const { version } = require(`${name}/package.json`) as { version: string };
    if (version !== wanted) throw new Error(`admin bundle: decap-cms-app needs React ${wanted}, but ${name} is ${version}; set it to npm:${name.replace('-for-decap', '')}@${wanted} in package.json`);
  }
  return bundleForBrowser({
    name: 'admin bundle',
    root,
    outDir: resolve(opts.outDir),
    base: '/assets/',
    input: { admin: join(root, 'src/admin/main.tsx') },
    alias: [
      { find: /^react-dom(\/.*)?$/, replacement: 'react-dom-for-decap$1' },
      { find: /^react(\/.*)?$/, replacement: 'react-for-decap$1' },
    ],
    output: { chunkFileNames: 'admin-[name]-[hash].js', assetFileNames: 'admin-[name]-[hash][extname]' },
  });
}
