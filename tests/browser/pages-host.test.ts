/**
 * The production build on Cloudflare's own runtime (`wrangler pages dev`, workerd, with the
 * repository's functions/), held to what the local server (serve/server.ts) promises:
 * clean URLs and their redirects, the nearest 404 page with status 404 (/es/… gets the Spanish
 * one), exactly one Content-Security-Policy on every page (Cloudflare joins the values of every
 * matching _headers rule with commas, which a browser enforces as two policies), HSTS, every rule
 * of _redirects, and the content manager's sign-in start answering its clear error when the
 * project has no GitHub app configured.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN_HEADERS } from '../../cms/adminHeaders.js';
import { startServer, type RunningServer } from '../../serve/server.js';
import { SECURITY_HEADERS } from '../../contracts/securityHeaders.js';
import { startPagesDev, type PagesDev } from '../helpers/pagesDev.js';
import { siteRoutes } from '../helpers/routes.js';

const dist = inject('siteDist');
const routes = await siteRoutes();
/** The staff pages (the content manager, and the lead inbox once the build has it): their own headers, set by functions/ on Cloudflare. */
const staffPages = ['/admin', ...(existsSync(path.join(dist, 'leads.html')) ? ['/leads'] : [])];
const visitorPages = routes.all.filter((route) => !staffPages.includes(route));

let host: PagesDev;
let local: RunningServer;

beforeAll(async () => {
  [host, local] = await Promise.all([startPagesDev({ dir: dist }), startServer({ distDir: dist })]);
});
afterAll(async () => {
  await Promise.all([host?.close(), local?.close()]);
});

const get = (base: string, pathname: string) => fetch(base + pathname, { redirect: 'manual' });

/** How many policies a Content-Security-Policy value holds: each one starts with default-src. */
const policyCount = (value: string | null) => (value ?? '').match(/(^|[,;]\s*)default-src\b/g)?.length ?? 0;

/** The local server leaves out what would break plain http on localhost. */
const withoutUpgrade = (policy: string | null) => (policy ?? '').replace(/;\s*upgrade-insecure-requests/, '');

/** Headers of the transport, or chosen by each server for itself (the local one says no-cache where _headers is silent). */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'vary', 'cache-control', 'etag', 'last-modified']);

/**
 * One policy, HSTS, and every other header the local server sends from _headers with the same
 * value on Cloudflare (the policy without upgrade-insecure-requests, which the local server drops).
 */
function expectHostHeaders(res: Response, mine: Response, where: string) {
  const policy = res.headers.get('content-security-policy');
  expect(policyCount(policy), `${where}: ${policy}`).toBe(1);
  expect(res.headers.get('strict-transport-security'), where).toBe(SECURITY_HEADERS['Strict-Transport-Security']);
  mine.headers.forEach((value, name) => {
    if (OWN_HEADERS.has(name)) return;
    expect(name === 'content-security-policy' ? withoutUpgrade(res.headers.get(name)) : res.headers.get(name), `${name} on ${where}`).toBe(value);
  });
}

const fileOf = (route: string) => (route === '/' ? 'index.html' : `${route.slice(1)}.html`);

describe('the production build on Cloudflare Pages (wrangler pages dev)', () => {
  it('serves /build.json as JSON that every request revalidates, so the content manager sees a deploy at once', async () => {
    const res = await get(host.url, '/build.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(Object.keys(await res.json() as object)).toEqual(['commit', 'time', 'now']);
  });

  it('serves every page at its clean URL with one policy and the headers the local server sends, HSTS too', async () => {
    expect(visitorPages.length).toBeGreaterThan(10);
    for (const route of visitorPages) {
      const [res, mine] = await Promise.all([get(host.url, route), get(local.url, route)]);
      expect(res.status, route).toBe(200);
      expect(mine.status, route).toBe(200);
      expect(await res.text(), route).toBe(await readFile(path.join(dist, fileOf(route)), 'utf8'));
      expect(res.headers.get('content-security-policy'), route).toContain('upgrade-insecure-requests');
      expectHostHeaders(res, mine, route);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(name), `${name} on ${route}`).toBe(value);
    }
  });

  it.each(staffPages)('serves %s with its own policy only and the headers the local server sends', async (route) => {
    const [res, mine] = await Promise.all([get(host.url, route), get(local.url, route)]);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(await readFile(path.join(dist, fileOf(route)), 'utf8'));
    expectHostHeaders(res, mine, route);
    expect(res.headers.get('x-robots-tag')).toMatch(/noindex/);
    if (route === '/admin') for (const [name, value] of Object.entries(ADMIN_HEADERS)) expect(res.headers.get(name), name).toBe(value);
  });

  it.each(staffPages)('sends %s.html and %s/ to the clean URL', async (route) => {
    for (const address of [`${route}.html`, `${route}/`]) {
      const [res, mine] = await Promise.all([get(host.url, address), get(local.url, address)]);
      // Cloudflare's own clean-URL rule answers 308 where _redirects has no line; the local server 301.
      expect([res.status, res.headers.get('location')], address).toEqual([expect.toSatisfy((s: number) => s === 301 || s === 308), route]);
      expect([mine.status, mine.headers.get('location')], address).toEqual([301, route]);
    }
  });

  it('answers an unknown address with the 404 page and status 404, under the site policy', async () => {
    for (const pathname of ['/no-such-page', '/locations/no-such-city', '/assets/no-such-file.js']) {
      const [res, mine] = await Promise.all([get(host.url, pathname), get(local.url, pathname)]);
      expect(res.status, pathname).toBe(404);
      expect(mine.status, pathname).toBe(404);
      expect(await res.text(), pathname).toBe(await readFile(path.join(dist, '404.html'), 'utf8'));
      expectHostHeaders(res, mine, pathname);
    }
  });

  it('answers an unknown /es/ address with the nearest 404 page, the Spanish one, as the local server does', async () => {
    const spanish = await readFile(path.join(dist, 'es/404.html'), 'utf8');
    expect(spanish).toContain('<html lang="es-US"');
    for (const pathname of ['/es/nope', '/es/ubicaciones/no-such-city', '/es/no/such/folder']) {
      const [res, mine] = await Promise.all([get(host.url, pathname), get(local.url, pathname)]);
      expect([res.status, mine.status], pathname).toEqual([404, 404]);
      expect(await res.text(), pathname).toBe(spanish);
      expect(await mine.text(), pathname).toBe(spanish);
      expectHostHeaders(res, mine, pathname);
    }
    // A name that only starts like the folder is no path inside it.
    const [res, mine] = await Promise.all([get(host.url, '/esnope'), get(local.url, '/esnope')]);
    const english = await readFile(path.join(dist, '404.html'), 'utf8');
    expect([res.status, await res.text() === english, mine.status, await mine.text() === english]).toEqual([404, true, 404, true]);
  });

  it('never gives out the host files themselves', async () => {
    for (const name of ['_headers', '_redirects']) {
      const res = await get(host.url, `/${name}`);
      // workerd's dev asset server answers 502 here (it looks for _headers/index.html), Cloudflare 404.
      expect(res.status, name).toBeGreaterThanOrEqual(400);
      expect(await res.text(), name).not.toContain((await readFile(path.join(dist, name), 'utf8')).split('\n')[0]);
    }
  });

  it('sends old .html and trailing-slash addresses to the clean URL, query kept, as the local server does', async () => {
    const addresses = ['/index.html', '/contact.html?ref=flyer', '/contact/?ref=flyer', ...visitorPages.filter((r) => r !== '/').flatMap((r) => [`${r}.html`, `${r}/`])];
    for (const address of addresses) {
      const [res, mine] = await Promise.all([get(host.url, address), get(local.url, address)]);
      const [pathname, query] = address.split('?');
      const clean = (pathname === '/index.html' ? '/' : pathname!.replace(/(\.html|\/)$/, '')) + (query ? `?${query}` : '');
      expect([res.status, res.headers.get('location')], address).toEqual([301, clean]);
      expect([mine.status, mine.headers.get('location')], address).toEqual([301, clean]);
    }
  });

  it('applies every rule of _redirects', async () => {
    const rules = (await readFile(path.join(dist, '_redirects'), 'utf8')).split('\n').filter((line) => line.trim() && !line.startsWith('#'));
    expect(rules.length).toBeGreaterThan(2);
    for (const rule of rules) {
      const [from, to, status = '302'] = rule.trim().split(/\s+/);
      const res = await get(host.url, from!);
      expect([res.status, res.headers.get('location')], rule).toEqual([Number(status), to]);
    }
  });

  it('caches the fingerprinted assets for a year, as _headers says', async () => {
    const asset = (await readdir(path.join(dist, 'assets'))).find((name) => name.endsWith('.js'));
    const res = await get(host.url, `/assets/${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('starts the content manager\'s sign-in with a clear error while the GitHub app is not configured', async () => {
    const res = await get(host.url, '/api/auth?provider=github&scope=repo');
    expect(res.status).toBe(500);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET are missing');
  });
});
