/**
 * The CMS's local backend for `npm run dev`: Decap's local-backend protocol (the one decap-server
 * speaks: POST {action, params} to /admin/api/v1), answered by the dev server itself. Why not
 * decap-server: it listens on a port of its own with CORS open to every origin, so any web page the
 * editor visits could write into the repository while it runs, and it writes uploads as they come.
 * Here:
 * - the server answers only requests that name it in their Host (serve/allowedHosts.ts: a page
 *   reaching it through a rebound DNS name is refused before this handler runs), and of those
 *   only same-origin JSON requests (another site's page cannot send one);
 * - only content files the generator reads (contracts/kinds.ts; a translation's twins under
 *   content/es/ among them) and pictures under content/images/ can be read, written or deleted; a
 *   path that leaves content/ is refused;
 * - an upload must be a picture of the kind its name says, at most MAX_UPLOAD_BYTES, an SVG a plain
 *   drawing without scripts (cms/app/upload.ts, which the admin page applies when a file is
 *   picked), and a photo sharp can decode; else the CMS shows why;
 * - every file is written whole or not at all (temporary file, then rename), and an entry's files
 *   are all checked before the first is written.
 * After a Publish it answers publishStatus: building until the dev server serves the rebuild of
 * the entry's file (`whenServed`, DevSession.updateFor), then live, or failed with the content
 * problems in the words of `npm run check`, and which entry files it wrote, from which the admin
 * page's panel names the page that changed (cms/app/publishState.ts).
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import type { ContentError } from '../contracts/errors.js';
import { formatError } from '../contracts/validate/errors.js';
import { MAX_UPLOAD_BYTES, pictureProblem } from './app/upload.js';
import type { LocalPublishStatus } from './app/publishState.js';
import { contentPathOf } from './app/translations.js';

export const LOCAL_BACKEND_PATH = '/admin/api/v1';

/** What the CMS shows when it refuses something: status and a message for the editor. */
export class Refused extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const IMAGE_EXT = /\.(svg|png|jpe?g|webp)$/;
const RASTER_FORMAT: Record<string, string> = { png: 'png', jpg: 'jpeg', jpeg: 'jpeg', webp: 'webp' };

/** A file written whole or not at all: the dev server's watcher never reads half an entry. */
async function writeWhole(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}-${createHash('sha1').update(String(Math.random())).digest('hex').slice(0, 8)}.tmp`;
  try {
    await writeFile(tmp, data);
    await rename(tmp, file);
  } finally {
    await rm(tmp, { force: true });
  }
}

const megabytes = (n: number) => `${Math.round(n / 100_000) / 10} MB`;

/** The request body may hold one picture, base64-encoded (4/3 of its size), and the entry around it. */
const MAX_BODY_BYTES = Math.ceil(MAX_UPLOAD_BYTES * 4 / 3) + 1_000_000;

interface Upload { path?: unknown; content?: unknown; encoding?: unknown }

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export interface CmsLocalBackendOptions {
  /** Settles once the rebuild that re-read `change` (a path in content/) is served; asked before the file is written. */
  whenServed?: (change: string) => Promise<{ errors: readonly ContentError[] }>;
}

export class CmsLocalBackend {
  /** The last Publish's state: each Publish gets its own object, so an older one settling later changes nothing. */
  private published: LocalPublishStatus = { state: 'none' };

  constructor(private readonly contentDir: string, private readonly opts: CmsLocalBackendOptions = {}) {}

  /** The entry's files are about to be written: follow their rebuild. */
  private followRebuild(rels: string[], files: string[]) {
    const { whenServed } = this.opts;
    if (!whenServed) return;
    // The files as written: the admin page names the page that changed from them (a new entry's
    // slug is known only once Decap saved it).
    const status: LocalPublishStatus = { state: 'building', files };
    this.published = status;
    Promise.all(rels.map(whenServed)).then(
      (updates) => {
        const problems = updates.flatMap((u) => u.errors).map(formatError);
        Object.assign(status, problems.length ? { state: 'failed', problems: [...new Set(problems)] } : { state: 'live' });
      },
      () => Object.assign(status, { state: 'failed', problems: [] }),
    );
  }

  /** content/… as the CMS names it → the path relative to the content folder, or a refusal. */
  private rel(repoPath: unknown): string {
    if (typeof repoPath !== 'string' || !repoPath.startsWith('content/')) throw new Refused(403, `Only files in content/ can be edited (${String(repoPath).slice(0, 80)})`);
    const rel = repoPath.slice('content/'.length);
    const segments = rel.split('/');
    if (/[\x00-\x1f\\]/.test(rel) || (rel !== '' && segments.some((s) => s === '..' || s === '.' || s === ''))) throw new Refused(400, 'Malformed path');
    return rel;
  }

  private abs(rel: string): string {
    const full = path.join(this.contentDir, rel);
    if (full !== this.contentDir && !full.startsWith(this.contentDir + path.sep)) throw new Refused(400, 'Malformed path');
    return full;
  }

  /** A content file the generator reads, or a picture: the only files the CMS may write. */
  private writable(repoPath: unknown): string {
    const rel = this.rel(repoPath);
    if (contentPathOf(rel) || (rel.startsWith('images/') && IMAGE_EXT.test(rel))) return rel;
    throw new Refused(403, `The editor may not write ${rel}`);
  }

  private readable(repoPath: unknown): string {
    const rel = this.rel(repoPath);
    if (rel.startsWith('schemas/')) throw new Refused(403, 'content/schemas/ is generated');
    return rel;
  }

  private async listFiles(folder: unknown, extension: string, depth: number): Promise<string[]> {
    const rel = this.readable(String(folder).replace(/\/+$/, ''));
    const dir = this.abs(rel);
    const entries = await readdir(dir, { recursive: depth > 1, withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile() && e.name.endsWith(extension) && !e.name.endsWith('.tmp'))
      .map((e) => path.relative(this.contentDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
      .filter((f) => f.split('/').length - rel.split('/').length <= Math.max(depth, 1))
      .sort()
      .map((f) => `content/${f}`);
  }

  private async entry(repoPath: string, label?: string) {
    const file = this.abs(this.readable(repoPath));
    try {
      const data = await readFile(file);
      return { data: data.toString('utf8'), file: { path: repoPath, ...(label && { label }), id: sha256(data) } };
    } catch {
      return { data: null, file: { path: repoPath, ...(label && { label }), id: null } };
    }
  }

  private async mediaFile(repoPath: string) {
    const data = await readFile(this.abs(this.readable(repoPath))).catch(() => {
      throw new Refused(404, `No file ${repoPath}`);
    });
    return { id: sha256(data), content: data.toString('base64'), encoding: 'base64', path: repoPath, name: path.posix.basename(repoPath) };
  }

  /** An upload under content/images/: its path and bytes, once they are known to be a picture. */
  private async picture(upload: Upload): Promise<[string, Buffer]> {
    const rel = this.rel(upload.path);
    if (!rel.startsWith('images/')) throw new Refused(403, 'Pictures go to content/images/');
    const bytes = await this.checkImage(rel, upload.content, upload.encoding);
    return [this.writable(upload.path), bytes];
  }

  /** An upload's bytes, once they are known to be a picture of the kind its name says (sharp decodes photos). */
  async checkImage(rel: string, content: unknown, encoding: unknown): Promise<Buffer> {
    const name = path.posix.basename(rel);
    if (encoding !== 'base64' || typeof content !== 'string') throw new Refused(400, 'Malformed upload');
    const bytes = Buffer.from(content, 'base64');
    const problem = pictureProblem(name, bytes);
    if (problem) throw new Refused(bytes.length > MAX_UPLOAD_BYTES ? 413 : 415, problem);
    const ext = IMAGE_EXT.exec(name)![1]!;
    if (ext === 'svg') return bytes;
    const meta = await sharp(bytes).metadata().catch(() => undefined);
    if (!meta || meta.format !== RASTER_FORMAT[ext]) throw new Refused(415, `${name} is not a ${ext.toUpperCase()} picture (the file is damaged or of another kind).`);
    return bytes;
  }

  async handleAction(action: unknown, params: Record<string, unknown>): Promise<unknown> {
    switch (action) {
      case 'info':
        return { repo: path.basename(path.dirname(this.contentDir)), publish_modes: ['simple'], type: 'local_fs' };
      case 'entriesByFolder': {
        const files = await this.listFiles(params.folder, String(params.extension ?? ''), Number(params.depth ?? 1));
        return Promise.all(files.map((f) => this.entry(f)));
      }
      case 'entriesByFiles':
        return Promise.all(((params.files ?? []) as { path: string; label?: string }[]).map((f) => this.entry(f.path, f.label)));
      case 'getEntry':
        return this.entry(String(params.path));
      case 'persistEntry': {
        const dataFiles = (params.dataFiles ?? [params.entry]) as { path: string; raw: string; newPath?: string }[];
        const assets = (params.assets ?? []) as Upload[];
        // Check everything, then write: a refused picture leaves the entry unwritten too.
        // Pictures first: the dev server's watcher then never sees an entry naming a missing picture.
        const writes: [string, string | Buffer][] = [];
        for (const a of assets) writes.push(await this.picture(a));
        const entryFiles: string[] = [];
        for (const f of dataFiles) {
          if (typeof f?.raw !== 'string') throw new Refused(400, 'Malformed entry');
          entryFiles.push(this.writable(f.newPath ?? f.path));
          writes.push([entryFiles.at(-1)!, f.raw]);
        }
        this.followRebuild(entryFiles, dataFiles.map((f) => f.newPath ?? f.path));
        for (const [rel, data] of writes) await writeWhole(this.abs(rel), data);
        for (const f of dataFiles) if (f.newPath && f.newPath !== f.path) await rm(this.abs(this.writable(f.path)), { force: true });
        return { message: 'entry persisted' };
      }
      case 'getMedia': {
        const files = (await this.listFiles(params.mediaFolder, '', 1)).filter((f) => IMAGE_EXT.test(f));
        return Promise.all(files.map((f) => this.mediaFile(f)));
      }
      case 'getMediaFile':
        return this.mediaFile(String(params.path));
      case 'persistMedia': {
        const asset = (params.asset ?? {}) as Upload;
        const [rel, bytes] = await this.picture(asset);
        await writeWhole(this.abs(rel), bytes);
        return this.mediaFile(String(asset.path));
      }
      case 'deleteFile':
        await rm(this.abs(this.writable(params.path)), { force: true });
        return { message: 'deleted' };
      case 'deleteFiles':
        for (const p of (params.paths ?? []) as string[]) await rm(this.abs(this.writable(p)), { force: true });
        return { message: 'deleted' };
      case 'getDeployPreview':
        return null;
      case 'publishStatus':
        return this.published;
      default:
        throw new Refused(422, `Unknown action ${String(action).slice(0, 40)}`);
    }
  }

  /** The dev server's handler for LOCAL_BACKEND_PATH. */
  readonly handle = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (req.url !== LOCAL_BACKEND_PATH) return false;
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    };
    try {
      if (req.method !== 'POST') throw new Refused(405, 'POST only');
      // Same origin only: the Origin header a browser sends cannot be forged by a page.
      const origin = req.headers.origin;
      if (!origin || origin !== `http://${req.headers.host}`) throw new Refused(403, 'Requests from other sites are refused');
      if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) throw new Refused(415, 'JSON only');
      const body = await readBody(req);
      let parsed: { action?: unknown; params?: Record<string, unknown> };
      try {
        parsed = JSON.parse(body) as typeof parsed;
      } catch {
        throw new Refused(400, 'Malformed JSON');
      }
      reply(200, await this.handleAction(parsed.action, parsed.params ?? {}));
    } catch (err) {
      if (err instanceof Refused) reply(err.status, { error: err.message });
      else {
        console.error(err);
        reply(500, { error: 'The local backend failed; see the terminal of npm run dev.' });
      }
    }
    return true;
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Refused(413, `The upload is larger than ${megabytes(MAX_UPLOAD_BYTES)}; pictures may be at most that.`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
