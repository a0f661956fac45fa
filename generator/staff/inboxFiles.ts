/**
 * The lead inbox's files in dist/: leads.html (served at /leads) and its script and stylesheet under
 * /assets/. Not a page of the site: not in the sitemap, linked from no visitor page, `noindex`.
 * The bundle is built once per distinct input and kept in .cache/inbox/<digest>/ (cachedOutput, as
 * the islands and the content manager), in a process of its own (Vite's memory goes with it).
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserBundle } from '../assets/viteBundle.js';
import { runInOwnProcess } from '../assets/ownProcess.js';
import { CacheKey, cachedOutput } from '../cache.js';
import type { InboxBundleOptions } from './inboxBundle.js';

/** The inbox's page in dist/, served at /leads. */
export const INBOX_PAGE = 'leads.html';
/** Its address: the Telegram message links to /leads#lead/<kind>/<id>. */
export { INBOX_ROUTE } from '../../supabase/functions/_shared/leadAddress.js';

export interface InboxAssets {
  script: string;
  stylesheets: string[];
  /** Every URL path written under /assets/. */
  files: string[];
}

function inputDigest(opts: InboxBundleOptions): string {
  return new CacheKey()
    // Everything the inbox imports: its own code, the connection rule in contracts/ and the lead's
    // address beside the edge function.
    .files(opts.root, ['staff', 'contracts', 'supabase/functions/_shared'])
    .lockfile(opts.root)
    .add(readFileSync(path.join(opts.root, 'generator/staff/inboxBundle.ts')), readFileSync(path.join(opts.root, 'generator/assets/viteBundle.ts')))
    .add(JSON.stringify([opts.supabaseUrl ?? '', opts.supabaseAnonKey ?? '']))
    .digest(24);
}

/** The inbox's script and stylesheet (cached), into outDir/assets/. */
export async function inboxAssets(opts: { root: string; outDir: string; supabaseUrl?: string | undefined; supabaseAnonKey?: string | undefined }): Promise<InboxAssets> {
  const bundleOpts: InboxBundleOptions = { ...opts, outDir: path.join(opts.outDir, 'assets') };
  const cacheDir = path.join(opts.root, '.cache', 'inbox', inputDigest(bundleOpts));
  const bundle = await cachedOutput(cacheDir, bundleOpts.outDir, (filesDir) => runInOwnProcess({
    job: 'bundleInbox', args: [{ ...bundleOpts, outDir: filesDir }], what: 'inbox bundle', cwd: opts.root,
  }));
  const files = bundle.files.map((f) => f.path);
  return { script: bundle.entry, stylesheets: files.filter((f) => f.endsWith('.css')), files };
}

const text = (value: string) => value.replace(/[<>&"]/g, '');

/** leads.html: nothing but the app's script and stylesheet; the app draws every screen. */
export function inboxHtml(assets: InboxAssets, brandName: string): string {
  return `<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>Lead inbox | ${text(brandName)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${assets.stylesheets.map((href) => `<link rel="stylesheet" href="${href}">`).join('\n')}
<script type="module" src="${assets.script}"></script>
</head>
<body>
<div id="inbox"></div>
<noscript><p>The lead inbox needs JavaScript.</p></noscript>
</body>
</html>
`;
}

export async function writeInboxPage(outDir: string, assets: InboxAssets, brandName: string): Promise<void> {
  await writeFile(path.join(outDir, INBOX_PAGE), inboxHtml(assets, brandName));
}
