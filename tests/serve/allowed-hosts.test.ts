/**
 * DNS rebinding against the local servers: a page on attacker.example whose name is re-pointed to
 * 127.0.0.1 reaches `npm run dev` / `npm start` as its own origin (`Host: attacker.example:4321`,
 * `Origin: http://attacker.example:4321`). Both servers answer only the names they were started
 * for (localhost, 127.0.0.1, [::1], HOST, ALLOWED_HOSTS); anything else gets a 4xx and no work is
 * done: the content manager's local backend neither lists, deletes nor overwrites a file, and the
 * Supabase stand-in stores no lead. Requests go through node:http, which sends the Host given.
 */
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CmsLocalBackend, LOCAL_BACKEND_PATH } from '../../cms/localBackend.js';
import { DevSession } from '../../serve/dev.js';
import { canonicalHost, hostCheck, parseAllowedHosts } from '../../serve/allowedHosts.js';
import { createLocalBackend, type LocalBackend } from '../../supabase-standin/backend.js';
import { startServer, type RunningServer } from '../../serve/server.js';
import { LOCAL_ANON_KEY } from '../../src/lib/supabase.js';
import { contentCopy, ROOT, tempDir, treeDigest } from '../helpers/content.js';


interface Answer { status: number; type: string; body: string }

/** One request to `server` (connected at 127.0.0.1) that names `host` in its Host header. */
function send(server: RunningServer, host: string | undefined, opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port, path: opts.path ?? '/', method: opts.method ?? 'GET', agent: false,
      // setHost: false sends no Host at all; the test then sets its own (or none).
      setHost: false,
      headers: { ...(host !== undefined && { host }), ...opts.headers },
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A call of the CMS's local backend as a page served from `host` makes it (its Origin is http://host). */
const cmsCall = (server: RunningServer, host: string, action: string, params: Record<string, unknown>) => send(server, host, {
  method: 'POST', path: LOCAL_BACKEND_PATH,
  headers: { origin: `http://${host}`, 'content-type': 'application/json' },
  body: JSON.stringify({ action, params }),
});

const portOf = (server: RunningServer) => new URL(server.url).port;

describe('the allowed names', () => {
  it('reads ALLOWED_HOSTS as names with or without a port, and refuses what is no host name', () => {
    expect(parseAllowedHosts('192.168.1.20:4321, my-laptop.local ,')).toEqual(['192.168.1.20:4321', 'my-laptop.local']);
    expect(parseAllowedHosts(undefined)).toEqual([]);
    for (const bad of ['http://192.168.1.20:4321', 'host/path', 'user@host', 'host:99999', 'two words', '*']) {
      expect(() => parseAllowedHosts(bad), bad).toThrow(/ALLOWED_HOSTS: .* is not a host name/);
    }
    // A bare name is the server's port; case, IPv6 spelling and port 80 are canonical.
    expect(canonicalHost('My-Laptop.local', 4321)).toBe('my-laptop.local:4321');
    expect(canonicalHost('[0:0:0:0:0:0:0:1]:4321', 80)).toBe('[::1]:4321');
    expect(canonicalHost('localhost:80', 4321)).toBe('localhost:80');
    expect(canonicalHost('localhost', 80)).toBe('localhost:80');
  });

  it('answers HOST with its port, and on every interface (HOST=0.0.0.0) still only the names listed', () => {
    const lan = hostCheck({ port: 4321, host: '192.168.1.20' });
    expect(lan.refusal('192.168.1.20:4321')).toBeUndefined();
    expect(lan.refusal('localhost:4321')).toBeUndefined();
    expect(lan.refusal('192.168.1.20:8080')?.status).toBe(421);

    const everywhere = hostCheck({ port: 4321, host: '0.0.0.0' });
    expect(everywhere.names).toEqual(['localhost:4321', '127.0.0.1:4321', '[::1]:4321']);
    for (const host of ['0.0.0.0:4321', '192.168.1.20:4321', 'attacker.example:4321']) expect(everywhere.refusal(host)?.status, host).toBe(421);
    const phone = hostCheck({ port: 4321, host: '0.0.0.0', allowed: parseAllowedHosts('192.168.1.20,my-laptop.local:8443') });
    expect(phone.refusal('192.168.1.20:4321')).toBeUndefined();
    expect(phone.refusal('my-laptop.local:8443')).toBeUndefined();
    expect(phone.refusal('my-laptop.local:4321')?.status).toBe(421);
    expect(phone.refusal(undefined)?.status).toBe(400);
  });
});

describe('npm run dev against DNS rebinding', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let contentDir: string;
  let session: DevSession;
  let server: RunningServer;
  let attacker: string;
  const colma = () => readFile(path.join(contentDir, 'cities/colma.yaml'));

  beforeAll(async () => {
    tmp = await tempDir('allowed-hosts-');
    contentDir = await contentCopy(tmp.dir);
    const outDir = path.join(tmp.dir, 'dist');
    // As cli/commands.ts wires `npm run dev`, with a phone's name in ALLOWED_HOSTS.
    session = new DevSession({ root: ROOT, contentDir, outDir, skipIslands: true });
    expect((await session.start()).errors).toEqual([]);
    const cms = new CmsLocalBackend(contentDir);
    server = await startServer({ distDir: outDir, allowedHosts: parseAllowedHosts('my-laptop.local'), handlers: [session.handle, cms.handle] });
    attacker = `attacker.example:${portOf(server)}`;
  });
  afterAll(async () => {
    await server?.close();
    await session?.close();
    await tmp?.remove();
  });

  it('lists no city files for another site', async () => {
    const res = await cmsCall(server, attacker, 'entriesByFolder', { folder: 'content/cities', extension: 'yaml', depth: 1 });
    expect(res.status).toBe(421);
    expect(res.type).toBe('text/plain; charset=utf-8');
    expect(res.body).toMatch(/^Misdirected request: this local server answers only localhost/);
    expect(res.body).not.toContain('colma');
  });

  it('deletes nothing for another site', async () => {
    const before = await colma();
    const res = await cmsCall(server, attacker, 'deleteFiles', { paths: ['content/cities/colma.yaml'] });
    expect(res.status).toBe(421);
    expect((await colma()).equals(before)).toBe(true);
  });

  it('overwrites nothing for another site', async () => {
    const before = await treeDigest(contentDir);
    const original = await colma();
    const res = await cmsCall(server, attacker, 'persistEntry', { dataFiles: [{ path: 'content/cities/colma.yaml', raw: 'name: Colma\npopulation: "0"\ndescription: Defaced by another site.\n' }], assets: [] });
    expect(res.status).toBe(421);
    expect((await colma()).equals(original)).toBe(true);
    expect(await treeDigest(contentDir)).toEqual(before);
  });

  it('serves no page, no live-reload stream to another site', async () => {
    const home = await send(server, attacker);
    expect(home.status).toBe(421);
    expect(home.body).not.toContain('<html');
    expect((await send(server, attacker, { path: '/__dev/reload.js' })).status).toBe(421);
  });

  it('refuses a request without a Host or with a malformed one', async () => {
    const port = portOf(server);
    for (const host of [undefined, '', `localhost:${port}@attacker.example`, `localhost:${port}/x`, `local host:${port}`, `localhost.:${port}`, `localhost:${Number(port) + 1}`]) {
      const res = await send(server, host);
      expect(res.status, String(host)).toBeGreaterThanOrEqual(400);
      expect(res.status, String(host)).toBeLessThan(500);
      expect(res.body, String(host)).not.toContain('<html');
    }
  });

  it('still answers the names it was started for, and the names in ALLOWED_HOSTS', async () => {
    const port = portOf(server);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LocalHost:${port}`, `my-laptop.local:${port}`]) {
      const home = await send(server, host);
      expect(home.status, host).toBe(200);
      expect(home.body, host).toContain('<html');
      const list = await cmsCall(server, host, 'entriesByFolder', { folder: 'content/cities', extension: 'yaml', depth: 1 });
      expect(list.status, host).toBe(200);
      expect(list.body, host).toContain('content/cities/colma.yaml');
    }
    // The phone's name at another port is another server.
    expect((await send(server, `my-laptop.local:${Number(port) + 1}`)).status).toBe(421);
  });
});

describe('npm start\'s Supabase stand-in against DNS rebinding', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let backend: LocalBackend;
  let server: RunningServer;

  beforeAll(async () => {
    tmp = await tempDir('allowed-hosts-start-');
    backend = await createLocalBackend({ dataDir: undefined, env: {}, log: () => {} });
    server = await startServer({ distDir: tmp.dir, handlers: [(req, res) => backend.handle(req, res)] });
  });
  afterAll(async () => {
    await server?.close();
    await backend?.close();
    await tmp?.remove();
  });

  /** fetch as a page served from `host` makes it: through node:http, which sends that Host. */
  const fetchAs = (host: string): typeof fetch => async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = Object.fromEntries(new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)));
    const res = await send(server, host, {
      method: init?.method ?? 'GET', path: url.pathname + url.search,
      headers: { ...headers, origin: `http://${host}` },
      ...(typeof init?.body === 'string' && { body: init.body }),
    });
    return new Response([204, 304].includes(res.status) ? null : res.body, { status: res.status, headers: { 'content-type': res.type } });
  };
  const clientAs = (host: string) => createNodeClient(server.url, LOCAL_ANON_KEY, { global: { fetch: fetchAs(host) } });
  const count = async () => (await backend.db.query<{ n: number }>('SELECT count(*)::int AS n FROM public.leads')).rows[0]!.n;
  const lead = { first_name: 'Maria', last_name: 'Lopez', email: 'maria@example.com', phone: '(408) 555-0199', message: 'Move-out clean, 2 bedrooms.', page: 'contact' as const };

  it('stores no lead for another site, and one for the site itself', async () => {
    const refused = await clientAs(`attacker.example:${portOf(server)}`).from('leads').insert(lead);
    expect(refused.status).toBe(421);
    expect(await count()).toBe(0);

    const stored = await clientAs(`localhost:${portOf(server)}`).from('leads').insert(lead);
    expect(stored.error).toBeNull();
    expect(await count()).toBe(1);
  });
});
