/**
 * The CMS's GitHub sign-in on Cloudflare Pages (functions/api/auth.ts, functions/api/callback.ts),
 * run by Cloudflare's runtime (wrangler pages dev, tests/helpers/pagesDev.ts) against a fake GitHub
 * on 127.0.0.1: the state is random, bound to a __Host- cookie and checked
 * before GitHub is asked anything; the callback address is always the site's own; the token is
 * handed to the site's own origin only; GitHub's refusals reach the editor as a message.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATE_COOKIE } from '../../functions/_shared/githubOAuth.js';
import { fakeGitHub, type FakeGitHub } from '../helpers/fakeGitHub.js';
import { startPagesDev, type PagesDev } from '../helpers/pagesDev.js';

const CLIENT_ID = 'Iv1.fakeclient';
const CLIENT_SECRET = 'fake-secret-never-shown';

describe('GitHub sign-in for the CMS', () => {
  let github: FakeGitHub;
  let site: PagesDev;
  let dir: string;
  let SITE: string;
  beforeAll(async () => {
    github = await fakeGitHub(CLIENT_ID, CLIENT_SECRET);
    dir = await mkdtemp(path.join(tmpdir(), 'cms-oauth-')); // no static files: the functions only
    // The functions as Cloudflare Pages runs them, with the OAuth app's settings as project variables.
    site = await startPagesDev({ dir, bindings: { GITHUB_CLIENT_ID: CLIENT_ID, GITHUB_CLIENT_SECRET: CLIENT_SECRET, GITHUB_OAUTH_ORIGIN: github.url } });
    SITE = site.url;
  });
  afterAll(async () => {
    await Promise.all([github?.close(), site?.close()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const get = (pathAndQuery: string, headers: Record<string, string> = {}) => fetch(SITE + pathAndQuery, { headers, redirect: 'manual' });
  const callback = (query: string, cookie?: string) => get(`/api/callback?${query}`, cookie ? { cookie } : {});

  /** Starts a sign-in; returns GitHub's authorize URL and the state cookie. */
  async function start(query = '?provider=github&site_id=www.bayshinecleaning.com&scope=repo') {
    const res = await get(`/api/auth${query}`);
    return { res, location: new URL(res.headers.get('location') ?? 'about:blank'), cookie: res.headers.get('set-cookie') ?? '' };
  }

  it('sends the editor to GitHub with a fresh random state, bound to a secure cookie', async () => {
    const a = await start();
    const b = await start();
    expect(a.res.status).toBe(302);
    expect(`${a.location.origin}${a.location.pathname}`).toBe(`${github.url}/login/oauth/authorize`);
    expect(a.location.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(a.location.searchParams.get('redirect_uri')).toBe(`${SITE}/api/callback`);
    expect(a.location.searchParams.get('scope')).toBe('repo');
    const state = a.location.searchParams.get('state')!;
    expect(state).toMatch(/^[\w-]{43}$/);
    expect(b.location.searchParams.get('state')).not.toBe(state);
    expect(a.cookie).toBe(`${STATE_COOKIE}=${state}; Path=/; Max-Age=600; HttpOnly; Secure; SameSite=Lax`);
    expect(a.location.toString()).not.toContain(CLIENT_SECRET);
  });

  it('never lets the request choose where GitHub sends the editor back, nor another provider or scope', async () => {
    const redirect = await start('?provider=github&scope=repo&redirect_uri=https://evil.example/steal');
    expect(redirect.location.searchParams.get('redirect_uri')).toBe(`${SITE}/api/callback`);
    expect((await start('?provider=gitlab')).res.status).toBe(400);
    expect((await start('?provider=github&scope=admin:org')).res.status).toBe(400);
  });

  it('swaps the code for a token and hands it to the site\'s own origin only, once /admin answered', async () => {
    const { location } = await start();
    const state = location.searchParams.get('state')!;
    const before = github.tokenRequests.length;
    const res = await callback(`code=${github.code}&state=${state}`, `other=1; ${STATE_COOKIE}=${state}`);
    expect(res.status).toBe(200);
    expect(github.tokenRequests.slice(before)).toEqual([{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, code: github.code, redirect_uri: `${SITE}/api/callback` }]);
    const html = await res.text();
    expect(html).toContain(`var origin = "${SITE}", message = "authorization:github:success:{\\"token\\":\\"${github.token}\\",\\"provider\\":\\"github\\"}"`);
    expect(html).toContain('if (e.origin !== origin || e.source !== window.opener) return;');
    expect(html).toContain('window.opener.postMessage(message, origin)');
    expect(html).not.toContain('postMessage(message, "*")');
    const nonce = /<script nonce="([\w-]+)">/.exec(html)![1];
    expect(res.headers.get('content-security-policy')).toBe(`default-src 'none'; script-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('set-cookie')).toContain(`${STATE_COOKIE}=; Path=/; Max-Age=0`);
  });

  it('refuses a callback whose state is missing, forged or from another sign-in, without asking GitHub', async () => {
    const { location } = await start();
    const state = location.searchParams.get('state')!;
    const before = github.tokenRequests.length;
    for (const [query, cookie] of [
      [`code=${github.code}&state=${state}`, ''],
      [`code=${github.code}`, `${STATE_COOKIE}=${state}`],
      [`code=${github.code}&state=${state}`, `${STATE_COOKIE}=${state.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}`],
      [`code=${github.code}&state=`, `${STATE_COOKIE}=`],
    ] as const) {
      const res = await callback(query, cookie);
      expect(res.status, query + cookie).toBe(403);
      const html = await res.text();
      expect(html).toContain('authorization:github:error:');
      expect(html).not.toContain(github.token);
    }
    expect(github.tokenRequests.length).toBe(before);
  });

  it('tells the editor when GitHub refuses the code, and gives no token', async () => {
    const { location } = await start();
    const state = location.searchParams.get('state')!;
    const res = await callback(`code=stale-code&state=${state}`, `${STATE_COOKIE}=${state}`);
    expect(res.status).toBe(401);
    const html = await res.text();
    expect(html).toContain('The code passed is incorrect or expired.');
    expect(html).toContain('authorization:github:error:');
    expect(html).not.toContain('authorization:github:success');
  });
});
