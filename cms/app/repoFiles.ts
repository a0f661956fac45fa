/**
 * Content files as the content manager's backend has them now, for what a translation needs of its
 * English original: that it is there (a new translation is its twin, cms/app/check.ts), and its
 * texts (the preview's switch to the original, cms/app/preview.tsx).
 * - under `npm run dev`: the dev server's local backend (cms/localBackend.ts, action getEntry);
 * - on the deployed site: GitHub's contents API on the branch the site is built from, with the
 *   token the editor signed in with (the file as published, which is what the build compares with).
 * Nothing here throws: what cannot be read is undefined, and the build's own check decides.
 */
import { parse } from 'yaml';

export interface RepoFiles {
  /** The file's text; null when there is no such file; undefined when it cannot be told. */
  read(file: string): Promise<string | null | undefined>;
}

export function localFiles(o: { endpoint: string; fetch?: typeof fetch }): RepoFiles {
  const get = o.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  return {
    async read(file) {
      try {
        const res = await get(o.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'getEntry', params: { path: file } }) });
        if (!res.ok) return undefined;
        const { data } = (await res.json()) as { data?: unknown };
        return typeof data === 'string' ? data : data === null ? null : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

export interface GitHubFilesOptions {
  /** https://api.github.com, or the backend's api_root. */
  api: string;
  /** owner/name */
  repo: string;
  branch: string;
  /** The editor's token, read when needed. */
  token: () => string | undefined;
  fetch?: typeof fetch;
}

export function gitHubFiles(o: GitHubFilesOptions): RepoFiles {
  const get = o.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  return {
    async read(file) {
      try {
        const token = o.token();
        const path = file.split('/').map(encodeURIComponent).join('/');
        const res = await get(`${o.api}/repos/${o.repo}/contents/${path}?ref=${encodeURIComponent(o.branch)}`, {
          headers: { accept: 'application/vnd.github.raw+json', ...(token && { authorization: `Bearer ${token}` }) },
          cache: 'no-store',
        });
        if (res.status === 404) return null;
        return res.ok ? await res.text() : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** A YAML content file's data as the content manager reads it (null: no such file; undefined: unreadable or not YAML). */
export async function readData(files: RepoFiles, file: string): Promise<Record<string, unknown> | null | undefined> {
  const text = await files.read(file);
  if (typeof text !== 'string') return text;
  try {
    const data: unknown = parse(text);
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
