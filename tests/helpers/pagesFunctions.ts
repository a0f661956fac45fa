/**
 * Cloudflare Pages Functions (functions/) served by Node for tests, and a fake GitHub OAuth server
 * on 127.0.0.1 that records what it was asked.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PagesContext } from '../../functions/_shared/githubOAuth.js';

export type PagesHandler<Env> = (context: PagesContext<Env>) => Response | Promise<Response>;

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const body = chunks.length ? Buffer.concat(chunks) : undefined;
  return new Request(origin + (req.url ?? '/'), { method: req.method ?? 'GET', headers, ...(body && { body }) });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => { headers[key] = key === 'set-cookie' ? response.headers.getSetCookie() : value; });
  res.writeHead(response.status, headers);
  res.end(Buffer.from(await response.arrayBuffer()));
}

export interface Served { url: string; server: Server; close(): Promise<void> }

function listen(server: Server, host: string): Promise<Served> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    resolve({ url: `http://${host}:${port}`, server, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) });
  }));
}

/** Serves routes (path → Pages Function) and static pages (path → HTML) at http://<host>:<port>. */
export async function servePages<Env>(env: Env, routes: Record<string, PagesHandler<Env>>, pages: Record<string, string> = {}, host = '127.0.0.1'): Promise<Served> {
  let origin = '';
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const handler = routes[path];
    if (handler) {
      await send(res, await handler({ request: await toRequest(req, origin), env, next: async () => new Response('not found', { status: 404 }) }));
    } else if (pages[path] !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[path]);
    } else {
      res.writeHead(404).end();
    }
  });
  const served = await listen(server, host);
  origin = served.url;
  return served;
}

export interface FakeGitHub extends Served {
  /** Bodies of the token requests received. */
  tokenRequests: Record<string, string>[];
  /** The code it hands out on authorize, and the token it gives for that code. */
  code: string;
  token: string;
}

/** GitHub's OAuth pages: /login/oauth/authorize approves at once (sends the browser back with a code). */
export async function fakeGitHub(clientId: string, clientSecret: string): Promise<FakeGitHub> {
  const fake = { tokenRequests: [] as Record<string, string>[], code: 'fake-code-123', token: 'gho_faketoken456' };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/login/oauth/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', fake.code);
      back.searchParams.set('state', url.searchParams.get('state')!);
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
        fake.tokenRequests.push(body);
        const ok = body.client_id === clientId && body.client_secret === clientSecret && body.code === fake.code;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ok
          ? { access_token: fake.token, token_type: 'bearer', scope: 'repo' }
          : { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' }));
      });
      return;
    }
    res.writeHead(404).end();
  });
  return Object.assign(fake, await listen(server, '127.0.0.1'));
}
