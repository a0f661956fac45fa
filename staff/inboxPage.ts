/**
 * What the build needs of the lead inbox to write it into dist/ (generator/backOffice/backOffice.ts is the
 * build's one door to it): how its script is bundled (inboxApp) and its page, leads.html, served
 * at /leads. Not a page of the site: not in the sitemap, linked from no visitor page, `noindex`.
 */
import { backOfficePage } from '../contracts/backOfficePage.js';

/** The inbox's page in dist/, served at /leads. */
export const INBOX_PAGE = 'leads.html';

export interface InboxAssets {
  script: string;
  stylesheets: string[];
  /** Every URL path written under /assets/. */
  files: string[];
}

/**
 * The inbox's script (staff/inbox/main.tsx), bundled apart from the islands and the content
 * manager. The Supabase project is the same build-time setting the visitor forms get
 * (contracts/supabaseConnection.ts reads it); an empty URL means the page's own origin (the
 * stand-in of `npm start`).
 */
export function inboxApp(opts: { supabaseUrl?: string | undefined; supabaseAnonKey?: string | undefined }) {
  const supabaseUrl = (opts.supabaseUrl ?? '').trim().replace(/\/+$/, '');
  const supabaseAnonKey = (opts.supabaseAnonKey ?? '').trim();
  if (supabaseUrl && !supabaseAnonKey) throw new Error('inbox bundle: supabaseUrl is set but supabaseAnonKey is empty.');
  if (supabaseUrl && !/^https?:\/\/[^\s]+$/.test(supabaseUrl)) throw new Error(`inbox bundle: supabaseUrl is not an http(s) URL: ${supabaseUrl}`);
  return {
    name: 'inbox',
    entry: 'staff/inbox/main.tsx',
    // Everything the inbox imports: its own code, the connection rule in contracts/ and the lead's
    // address beside the edge function.
    sources: ['staff/inbox', 'contracts', 'supabase/functions/_shared'],
    define: {
      __BAYSHINE_SUPABASE_URL__: JSON.stringify(supabaseUrl),
      __BAYSHINE_SUPABASE_ANON_KEY__: JSON.stringify(supabaseAnonKey),
    },
  };
}

/** leads.html: nothing but the app's script and stylesheet; the app draws every screen. */
export function inboxHtml(assets: InboxAssets, brandName: string): string {
  return backOfficePage({
    title: 'Lead inbox',
    brandName,
    meta: ['<meta name="referrer" content="no-referrer">'],
    head: [assets.stylesheets.map((href) => `<link rel="stylesheet" href="${href}">`).join('\n'), `<script type="module" src="${assets.script}"></script>`],
    body: '\n<div id="inbox"></div>\n<noscript><p>The lead inbox needs JavaScript.</p></noscript>\n',
  });
}
