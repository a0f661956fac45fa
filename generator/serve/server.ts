/**
 * Serves dist/ as the production hosts do: clean URLs, the rules of _headers applied, 404.html
 * with status 404 for unknown paths. An optional handler (the embedded backend, the dev reloader)
 * gets each request first.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

export interface ServerOptions {
  distDir: string;
  port?: number;
  host?: string;
  handlers?: RequestHandler[];
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

async function isFile(p: string): Promise<boolean> {
  return stat(p).then((s) => s.isFile(), () => false);
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const distDir = path.resolve(opts.distDir);
  const headerRules = () => readFile(path.join(distDir, '_headers'), 'utf8').then(parseHeaders, () => []);

  const server = createServer(async (req, res) => {
    try {
      for (const handler of opts.handlers ?? []) if (await handler(req, res)) return;
      await serveStatic(req, res, distDir, await headerRules());
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
  return {
    url: `http://${opts.host && opts.host !== '0.0.0.0' ? opts.host : '127.0.0.1'}:${port}`,
    server,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function serveStatic(req: IncomingMessage, res: ServerResponse, distDir: string, rules: HeaderRule[]) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const url = new URL(req.url ?? '/', 'http://localhost');
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    pathname = '/__invalid__';
  }
  if (pathname !== '/' && (pathname.endsWith('/') || pathname.endsWith('.html'))) {
    const clean = pathname.replace(/\/+$/, '').replace(/(\/index)?\.html$/, '') || '/';
    res.writeHead(301, { location: clean + url.search }).end();
    return;
  }
  const candidates = pathname === '/' ? ['index.html'] : [pathname.slice(1), `${pathname.slice(1)}.html`];
  let file: string | undefined;
  for (const candidate of candidates) {
    const full = path.join(distDir, candidate);
    if (!full.startsWith(distDir + path.sep)) break;
    if (!path.basename(full).startsWith('_') && (await isFile(full))) {
      file = full;
      break;
    }
  }
  const status = file ? 200 : 404;
  file ??= path.join(distDir, '404.html');
  const headers: Record<string, string> = { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' };
  for (const rule of rules) if (rule.pattern.test(pathname)) for (const [k, v] of rule.headers) headers[k.toLowerCase()] = v;
  // Plain http on localhost: HSTS and upgrade-insecure-requests would break the local site.
  delete headers['strict-transport-security'];
  if (headers['content-security-policy']) headers['content-security-policy'] = headers['content-security-policy'].replace(/;\s*upgrade-insecure-requests/, '');
  headers['cache-control'] ??= 'no-cache';
  res.writeHead(status, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}
