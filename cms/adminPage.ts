/**
 * What the build needs of the content manager to write it into dist/ (generator/backOffice/backOffice.ts is
 * the build's one door to it): how its script is bundled (ADMIN_APP), Decap CMS's prebuilt files,
 * and its page. /admin is not a page of the site: not in the sitemap, not linked, `noindex`.
 */
import { readdir, readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { backOfficePage } from '../contracts/backOfficePage.js';
import type { AdminSettings } from './app/settings.js';

/** The content manager's page in dist/, served at /admin. */
export const ADMIN_PAGE = 'admin.html';

/**
 * The admin script (cms/app/main.tsx), bundled apart from the islands. Decap CMS itself is not
 * bundled: its prebuilt script is copied from node_modules (decapFiles), which costs nothing at
 * build time. That script brings its own react-dom and takes React from window.React, and React
 * refuses a react-dom of another version, so this bundle's React is the exact version Decap's
 * react-dom was built with (the react-for-decap alias in package.json; checkDecapReact).
 */
export const ADMIN_APP = {
  name: 'admin',
  entry: 'cms/app/main.tsx',
  // Everything the admin script imports: its own code, the templates it previews with (and the
  // islands and lead rules they import), the model and the content rules (contracts/, the article
  // Markdown renderer the preview runs while typing among them).
  sources: ['cms/app', 'src', 'templates', 'contracts', 'supabase/functions/_shared'],
  packageAliases: [['react-dom', 'react-dom-for-decap'], ['react', 'react-for-decap']],
} as const;

/** The React version Decap's prebuilt react-dom insists on, read from the script itself. */
export function decapReactVersion(root: string): string {
  const require = createRequire(path.join(root, 'package.json'));
  const script = readFileSync(require.resolve('decap-cms-app/dist/decap-cms-app.js'), 'utf8');
  const version = /"(19\.\d+\.\d+)"!==\w+\)throw Error\(\w+\(527/.exec(script)?.[1];
  if (!version) throw new Error('admin bundle: cannot tell which React version decap-cms-app was built with');
  return version;
}

/** Refuses to bundle with a React that Decap's react-dom would reject. */
export function checkDecapReact(root: string): void {
  const require = createRequire(path.join(root, 'package.json'));
  const wanted = decapReactVersion(root);
  for (const name of ['react-for-decap', 'react-dom-for-decap']) {
    const { version } = require(`${name}/package.json`) as { version: string };
    if (version !== wanted) throw new Error(`admin bundle: decap-cms-app needs React ${wanted}, but ${name} is ${version}; set it to npm:${name.replace('-for-decap', '')}@${wanted} in package.json`);
  }
}

/** Decap CMS's prebuilt files: the folder they are in, their names, and the URL they are served under. */
export async function decapFiles(root: string): Promise<{ dir: string; names: string[]; url: string }> {
  const require = createRequire(path.join(root, 'package.json'));
  const dir = path.dirname(require.resolve('decap-cms-app/dist/decap-cms-app.js'));
  const { version } = JSON.parse(await readFile(require.resolve('decap-cms-app/package.json'), 'utf8')) as { version: string };
  // A published version never changes: the version in the path is its content hash.
  return { dir, names: (await readdir(dir)).filter((f) => /\.(js|wasm|txt)$/.test(f)), url: `/assets/decap-cms-${version}/` };
}

/** The GitHub repository the production CMS edits: CMS_GITHUB_REPO, else the one GitHub Actions builds. */
export function cmsRepository(env = process.env): string | undefined {
  const repo = env.CMS_GITHUB_REPO ?? env.GITHUB_REPOSITORY;
  if (repo && !/^[\w.-]+\/[\w.-]+$/.test(repo)) throw new Error(`CMS_GITHUB_REPO must be owner/name, got "${repo}"`);
  return repo;
}

const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** admin.html: the settings the admin script reads, and the script. */
export function adminHtml(settings: AdminSettings, entry: string, brandName: string): string {
  return backOfficePage({
    title: 'Content manager',
    brandName,
    head: [`<script type="application/json" id="cms-settings">${scriptJson(settings)}</script>`, `<script type="module" src="${entry}"></script>`],
    body: '',
  });
}
