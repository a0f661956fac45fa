/**
 * The lead inbox's script (staff/inbox/main.tsx) bundled with Vite, apart from the islands and the
 * content manager: its own entry and files (/assets/inbox-<hash>.js, its chunks and its stylesheet),
 * never referenced by a visitor page. The Supabase project is the same build-time setting the
 * visitor forms get (contracts/supabaseConnection.ts reads it).
 */
import { join, resolve } from 'node:path';
import { bundleForBrowser, type BrowserBundle } from '../assets/viteBundle.js';

export interface InboxBundleOptions {
  root: string;
  /** Folder published as /assets/. */
  outDir: string;
  /** Supabase project URL; empty/undefined = the page's own origin (the stand-in of `npm start`). */
  supabaseUrl?: string | undefined;
  supabaseAnonKey?: string | undefined;
}

export async function bundleInbox(opts: InboxBundleOptions): Promise<BrowserBundle> {
  const root = resolve(opts.root);
  const supabaseUrl = (opts.supabaseUrl ?? '').trim().replace(/\/+$/, '');
  const supabaseAnonKey = (opts.supabaseAnonKey ?? '').trim();
  if (supabaseUrl && !supabaseAnonKey) throw new Error('inbox bundle: supabaseUrl is set but supabaseAnonKey is empty.');
  if (supabaseUrl && !/^https?:\/\/[^\s]+$/.test(supabaseUrl)) throw new Error(`inbox bundle: supabaseUrl is not an http(s) URL: ${supabaseUrl}`);
  return bundleForBrowser({
    name: 'inbox bundle',
    root,
    outDir: resolve(opts.outDir),
    base: '/assets/',
    input: { inbox: join(root, 'staff/inbox/main.tsx') },
    define: {
      __BAYSHINE_SUPABASE_URL__: JSON.stringify(supabaseUrl),
      __BAYSHINE_SUPABASE_ANON_KEY__: JSON.stringify(supabaseAnonKey),
    },
    output: { chunkFileNames: 'inbox-[name]-[hash].js', assetFileNames: 'inbox-[name]-[hash][extname]' },
  });
}
