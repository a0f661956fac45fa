/**
 * Serves dist/ as the production hosts do: clean URLs, the rules of _headers applied, the nearest
 * 404.html up the folder tree with status 404 for unknown paths (/es/nope gets es/404.html, as on
 * Cloudflare Pages), text compressed (brotli, else gzip) like Netlify and Cloudflare Pages. An
 * optional handler (the embedded backend, the dev reloader) gets each request first. Before
 * anything else, a request must name this server in its Host header (allowedHosts.ts).
 */
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { hostCheck, listenName, type HostCheck } from './allowedHosts.js';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

export interface ServerOptions {
  distDir: string;
  port?: number;
  host?: string;
  /**
   * Host names answered besides localhost, 127.0.0.1, [::1] and `host` (`name` = this port,
   * `name:port` = that port): the ALLOWED_HOSTS setting. Any other Host header is refused.
   */
  allowedHosts?: readonly string[];
  handlers?: RequestHandler[];
  /**
   * Files still being added to distDir (npm start serves the pages before the content manager's and
   * the inbox's pages are written): a request for a file that is not there yet waits until this
   * settles, then is answered as usual.
   */
  filesPending?: Promise<unknown>;
  /** A script every HTML page gets as it is served, before </body> (npm run dev's reload script): the files stay as built. */
  htmlScript?: string;
}

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json', '.xml': 'application/xml; charset=utf-8', '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml', '.avif': 'image/avif', '.webp': 'image/webp', '.png': 'image/png', '.jpg': 'image/jpeg',
  '.woff2': 'font/woff2', '.ico': 'image/x-icon', '.webmanifest': 'application/manifest+json',
};

/** Types the hosts compress: text, JSON, XML and SVG (images and fonts are compressed already). */
const COMPRESSIBLE = /^(text\/|application\/(json|xml|manifest\+json)|image\/svg)/;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The encoding to answer with: brotli where the client takes it, else gzip, else none. */
function pickEncoding(accept: string | undefined): 'br' | 'gzip' | undefined {
  const offered = new Set((accept ?? '').split(',').map((part) => {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    return params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)) ? '' : name.trim();
  }));
  if (offered.has('br')) return 'br';
  if (offered.has('gzip')) return 'gzip';
  return undefined;
}

/**
 * Compressed bodies by file, size, modification time and encoding, at the highest levels (as the
 * hosts precompress static files); bounded, oldest dropped first, so a large site cannot fill memory.
 */
const COMPRESSED_CACHE_BYTES = 64 * 1024 * 1024;
const compressedCache = new Map<string, Buffer>();
let compressedCacheBytes = 0;
/** Compressions under way: a second request for the same file waits for the first one's work. */
const compressing = new Map<string, Promise<Buffer>>();
/**
 * Above this size (only the CMS's scripts; the site's own are far smaller) brotli runs at quality
 * 5: quality 11 took so long on the CMS's script that the editor's first /admin load timed out;
 * quality 5 takes a small part of that time for few more bytes.
 */
const BROTLI_BEST_MAX_BYTES = 256 * 1024;

async function compressedBody(file: string, handle: FileHandle, encoding: 'br' | 'gzip'): Promise<Buffer> {
  const { size, mtimeMs } = await handle.stat();
  const key = `${encoding}\0${size}\0${mtimeMs}\0${file}`;
  const cached = compressedCache.get(key);
  if (cached) return cached;
  const under = compressing.get(key);
  if (under) return under;
  const work = handle.readFile().then((raw) => encoding === 'br'
    ? brotli(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: raw.length > BROTLI_BEST_MAX_BYTES ? 5 : 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } })
    : gzipAsync(raw, { level: 9 }));
  compressing.set(key, work);
  let body: Buffer;
  try {
    body = await work;
  } finally {
    compressing.delete(key);
  }
  compressedCache.set(key, body);
  compressedCacheBytes += body.length;
  for (const [oldKey, old] of compressedCache) {
    if (compressedCacheBytes <= COMPRESSED_CACHE_BYTES) break;
    compressedCache.delete(oldKey);
    compressedCacheBytes -= old.length;
  }
  return body;
}

interface HeaderRule { pattern: RegExp; headers: [string, string][] }

/** Parse the Netlify / Cloudflare Pages _headers format. */
export function parseHeaders(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const source = line.trim().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
      rules.push({ pattern: new RegExp(`^${source}$`), headers: [] });
    } else {
      const i = line.indexOf(':');
      rules.at(-1)?.headers.push([line.slice(0, i).trim(), line.slice(i + 1).trim()]);
    }
  }
  return rules;
}

/**
 * The clean URL for a trailing-slash or .html address (`/contact/`, `/about.html`, `/index.html`),
 * or undefined when the path is already clean. `pathname` is the still percent-encoded
 * `URL#pathname`, so the answer needs no encoding; it always starts with exactly one '/', which
 * keeps the redirect on this site ('//evil.com' and '/\evil.com' would leave it). Index loops,
 * not regexes: a regex like /\/+$/ is quadratic on a long run of slashes.
 */
export function cleanRedirectTarget(pathname: string, search: string): string | undefined {
  if (pathname === '/' || !(pathname.endsWith('/') || pathname.endsWith('.html'))) return undefined;
  let end = pathname.length;
  while (end > 0 && pathname[end - 1] === '/') end--;
  let clean = pathname.slice(0, end);
  if (clean.endsWith('/index.html')) clean = clean.slice(0, -'/index.html'.length);
  else if (clean.endsWith('.html')) clean = clean.slice(0, -'.html'.length);
  let start = 0;
  while (start < clean.length && (clean[start] === '/' || clean[start] === '\\')) start++;
  return `/${clean.slice(start)}${search}`;
}

/**
 * The decoded path, or undefined when it is malformed: invalid percent-encoding, control
 * characters (CR/LF, NUL), or a '..' segment, which after URL parsing can only come from an
 * encoded slash ('..%2f') and means a traversal attempt.
 */
function decodePath(encoded: string): string | undefined {
  let pathname: string;
  try {
    pathname = decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
  if (/[\x00-\x1f\x7f]/.test(pathname)) return undefined;
  if (pathname.split(/[/\\]/).includes('..')) return undefined;
  return pathname;
}

async function isFile(p: string): Promise<boolean> {
  return stat(p).then((s) => s.isFile(), () => false);
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const distDir = path.resolve(opts.distDir);
  const headerRules = () => readFile(path.join(distDir, '_headers'), 'utf8').then(parseHeaders, () => []);
  // Settled either way: a back office that failed to build is reported by whoever started it.
  // Forgotten once settled, so a missing file is then looked for once, not twice.
  let filesPending = opts.filesPending?.then(() => { filesPending = undefined; }, () => { filesPending = undefined; });

  // Known once the port is: until then nothing is answered (no request can arrive before it).
  let hosts: HostCheck | undefined;
  const server = createServer(async (req, res) => {
    try {
      // First, so that a page reaching this server through a rebound DNS name gets no work done.
      const refusal = hosts ? hosts.refusal(req.headers.host) : { status: 503, reason: 'Starting' };
      if (refusal) {
        res.writeHead(refusal.status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', connection: 'close' }).end(refusal.reason);
        return;
      }
      // Only plain paths: URL parsers read '//host' and '/\host' as another host (and throw on '//[').
      const target = req.url ?? '/';
      if (target[0] !== '/' || target[1] === '/' || target[1] === '\\') {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request');
        return;
      }
      for (const handler of opts.handlers ?? []) if (await handler(req, res)) return;
      await serveStatic(req, res, distDir, await headerRules(), filesPending, opts.htmlScript);
    } catch (err) {
      console.error(err);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  try {
    hosts = hostCheck({ port, host: opts.host, allowed: opts.allowedHosts });
  } catch (err) {
    server.close();
    throw err;
  }
  return {
    url: `http://${listenName(opts.host) ?? '127.0.0.1'}:${port}`,
    server,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The file of dist/ a clean path names (`/contact` is contact.html), if there is one. */
async function findFile(distDir: string, pathname: string): Promise<string | undefined> {
  const candidates = pathname === '/' ? ['index.html'] : [pathname.slice(1), `${pathname.slice(1)}.html`];
  for (const candidate of candidates) {
    const full = path.join(distDir, candidate);
    if (!full.startsWith(distDir + path.sep)) return undefined;
    if (!path.basename(full).startsWith('_') && (await isFile(full))) return full;
  }
  return undefined;
}

/**
 * The not-found page for a path that names no file: the 404.html nearest to it up the folder tree,
 * as Cloudflare Pages looks for it (/es/ubicaciones/nope: es/ubicaciones/404.html, es/404.html,
 * then 404.html), or undefined when there is none at all. Only folders that exist are looked in,
 * so a path of a thousand made-up folders costs one look more than a real one.
 */
async function notFoundPage(distDir: string, pathname: string): Promise<string | undefined> {
  const names = pathname.split('/').filter(Boolean).slice(0, -1);
  const folders = [distDir];
  for (const name of names) {
    const folder = path.join(folders.at(-1)!, name);
    if (!folder.startsWith(distDir + path.sep) || !(await stat(folder).then((s) => s.isDirectory(), () => false))) break;
    folders.push(folder);
  }
  for (const folder of folders.reverse()) {
    const page = path.join(folder, '404.html');
    if (await isFile(page)) return page;
  }
  return undefined;
}

async function serveStatic(req: IncomingMessage, res: ServerResponse, distDir: string, rules: HeaderRule[], filesPending?: Promise<void>, htmlScript?: string) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  // url.pathname is percent-encoded, with '.' and '..' segments resolved and '\' turned into '/'.
  const url = new URL(req.url ?? '/', 'http://localhost');
  const pathname = decodePath(url.pathname);
  if (pathname === undefined) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request');
    return;
  }
  const location = cleanRedirectTarget(url.pathname, url.search);
  if (location !== undefined) {
    res.writeHead(301, { location }).end();
    return;
  }
  let file = await findFile(distDir, pathname);
  if (!file && filesPending) {
    await filesPending;
    file = await findFile(distDir, pathname);
  }
  const status = file ? 200 : 404;
  file ??= await notFoundPage(distDir, pathname);
  // Opened before the head is sent: a missing 404.html or a file deleted by a rebuild meanwhile is a
  // plain 404, where an error on the read stream would crash the server.
  const handle = file === undefined ? undefined : await open(file).catch(() => undefined);
  if (!file || !handle) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return;
  }
  const headers: Record<string, string> = { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' };
  for (const rule of rules) if (rule.pattern.test(pathname)) for (const [k, v] of rule.headers) headers[k.toLowerCase()] = v;
  // Plain http on localhost: HSTS and upgrade-insecure-requests would break the local site.
  delete headers['strict-transport-security'];
  if (headers['content-security-policy']) headers['content-security-policy'] = headers['content-security-policy'].replace(/;\s*upgrade-insecure-requests/, '');
  headers['cache-control'] ??= 'no-cache';
  if (htmlScript && path.extname(file) === '.html') {
    let html: string;
    try {
      html = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
    const tag = `<script type="module" src="${htmlScript}"></script>`;
    const at = html.lastIndexOf('</body>');
    const body = Buffer.from(at < 0 ? html + tag : html.slice(0, at) + tag + html.slice(at));
    res.writeHead(status, { ...headers, 'content-length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  const encoding = COMPRESSIBLE.test(headers['content-type']!) ? pickEncoding(req.headers['accept-encoding']) : undefined;
  if (encoding) {
    let body: Buffer;
    try {
      body = await compressedBody(file, handle, encoding);
    } finally {
      await handle.close();
    }
    headers['content-encoding'] = encoding;
    headers.vary = 'Accept-Encoding';
    headers['content-length'] = String(body.length);
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  if (COMPRESSIBLE.test(headers['content-type']!)) headers.vary = 'Accept-Encoding';
  res.writeHead(status, headers);
  if (req.method === 'HEAD') {
    await handle.close();
    res.end();
    return;
  }
  // pipeline, unlike pipe, closes the file when the visitor goes away, and a read error ends the
  // response instead of crashing the server.
  pipeline(handle.createReadStream(), res, () => {});
}
