/**
 * Which web pages may use the local stand-in from the browser. Supabase answers every origin
 * (`Access-Control-Allow-Origin: *`), but the stand-in's anon key is the fixed `local-anon-key`, so
 * any page open in the operator's browser could drive its Auth API. It answers only pages of the
 * origins the local site is served from (its own, and those it was started with: `npm start` gives
 * every name it answers, ALLOWED_HOSTS included); requests without an Origin (supabase-js in Node,
 * curl) work as before. Plain HTTP on 127.0.0.1, with the Origin a browser would send.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../supabase-standin/backend';
import { startServer, type RunningServer } from '../../serve/server';
import { serveSite, type RunningSite } from '../../serve/site';
import { createNodeClient } from '../../staff/supabaseNode.js';

const SITE = 'http://site.example:8080';
const EVIL = 'http://evil.example';

/** The paths a page would call: Auth's sign-in, a table, the edge function. */
const PATHS = ['/auth/v1/token?grant_type=password', '/rest/v1/leads', '/functions/v1/notify-telegram'];

function preflight(base: string, path: string, origin: string) {
  return fetch(base + path, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'apikey, authorization, content-type, x-client-info' },
  });
}

describe('the stand-in answers pages of its own and of the configured origins only', () => {
  let dir: string;
  let backend: LocalBackend;
  let server: RunningServer;
  const email = 'owner@example.com';
  const password = 'correct horse battery staple';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'standin-cors-'));
    backend = await createLocalBackend({ dataDir: undefined, env: {}, log: () => {}, allowedOrigins: [SITE] });
    server = await startServer({ distDir: dir, handlers: [(req, res) => backend.handle(req, res)] });
    const { error } = await createNodeClient(server.url, backend.keys.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
    expect(error).toBeNull();
  });
  afterAll(async () => {
    await server?.close();
    await backend?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const signIn = (origin: string | undefined, init: { contentType?: string; apikeyIn?: 'header' | 'query'; password?: string } = {}) =>
    fetch(`${server.url}/auth/v1/token?grant_type=password${init.apikeyIn === 'query' ? `&apikey=${backend.keys.anonKey}` : ''}`, {
      method: 'POST',
      headers: {
        ...(origin && { Origin: origin }),
        ...(init.apikeyIn !== 'query' && { apikey: backend.keys.anonKey }),
        'Content-Type': init.contentType ?? 'application/json',
      },
      body: JSON.stringify({ email, password: init.password ?? password }),
    });

  it('a preflight from another origin is refused without a CORS header', async () => {
    for (const path of PATHS) {
      const res = await preflight(server.url, path, EVIL);
      expect(res.status, path).toBe(403);
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
      expect(res.headers.get('access-control-allow-headers'), path).toBeNull();
    }
    // "null" is the origin of sandboxed frames and files: no page of the site.
    expect((await preflight(server.url, PATHS[0]!, 'null')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a request from another origin gets no CORS header and does nothing, even a simple one that needs no preflight', async () => {
    const signedIn = await signIn(EVIL);
    expect(signedIn.status).toBe(403);
    expect(signedIn.headers.get('access-control-allow-origin')).toBeNull();
    expect(await signedIn.text()).not.toContain('access_token');
    const read = await fetch(`${server.url}/rest/v1/leads?select=id`, { headers: { Origin: EVIL, apikey: backend.keys.serviceRoleKey } });
    expect([read.status, read.headers.get('access-control-allow-origin')]).toEqual([403, null]);
    // A form could post this cross-origin without a preflight: six wrong passwords would lock the account.
    for (let i = 0; i < 6; i++) {
      const guess = await signIn(EVIL, { contentType: 'text/plain', apikeyIn: 'query', password: `guess ${i}` });
      expect(guess.status).toBe(403);
    }
    expect((await signIn(undefined)).status).toBe(200);
  });

  it('pages of a configured origin and of the stand-in\'s own origin are answered, as are requests without an Origin', async () => {
    for (const origin of [SITE, server.url, 'http://SITE.example:8080']) {
      for (const path of PATHS) {
        const res = await preflight(server.url, path, origin);
        expect(res.status, `${origin} ${path}`).toBe(204);
        expect(res.headers.get('access-control-allow-origin'), `${origin} ${path}`).not.toBeNull();
        expect(res.headers.get('access-control-allow-headers'), `${origin} ${path}`).toContain('apikey');
        expect(res.headers.get('vary'), `${origin} ${path}`).toMatch(/origin/i);
      }
      const signedIn = await signIn(origin);
      expect(signedIn.status, origin).toBe(200);
      expect(signedIn.headers.get('access-control-allow-origin'), origin).not.toBeNull();
    }
    // The same name on another port, or over https, is another origin.
    for (const origin of ['http://site.example:8081', 'https://site.example:8080']) {
      expect((await preflight(server.url, PATHS[0]!, origin)).status, origin).toBe(403);
    }
    const node = await createNodeClient(server.url, backend.keys.anonKey).auth.signInWithPassword({ email, password });
    expect(node.error).toBeNull();
  });

  it('refuses an allowed origin that is not one', async () => {
    await expect(createLocalBackend({ env: {}, log: () => {}, allowedOrigins: ['site.example:8080'] })).rejects.toThrow(/allowedOrigins/);
  });
});

describe('npm start: pages under every name the site is served by may call its stand-in', () => {
  let dir: string;
  let site: RunningSite;
  let port: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'standin-cors-site-'));
    site = await serveSite({
      distDir: dir,
      host: '127.0.0.1',
      allowedHosts: ['my-laptop.local', 'phone-proxy.local:9000'],
      openBackend: ({ allowedOrigins }) => createLocalBackend({ env: {}, log: () => {}, allowedOrigins }),
    });
    await site.backend;
    port = new URL(site.url).port;
  });
  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the site\'s other names (ALLOWED_HOSTS too), not another page', async () => {
    for (const origin of [`http://localhost:${port}`, `http://[::1]:${port}`, `http://my-laptop.local:${port}`, 'http://phone-proxy.local:9000']) {
      const res = await preflight(site.url, '/auth/v1/token?grant_type=password', origin);
      expect(res.status, origin).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), origin).not.toBeNull();
    }
    for (const origin of [EVIL, `http://my-laptop.local:${Number(port) + 1}`, `http://localhost:${Number(port) + 1}`]) {
      const res = await preflight(site.url, '/auth/v1/token?grant_type=password', origin);
      expect([res.status, res.headers.get('access-control-allow-origin')], origin).toEqual([403, null]);
    }
  });
});
