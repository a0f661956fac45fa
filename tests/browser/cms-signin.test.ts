/**
 * The CMS's GitHub sign-in popup in Chromium, with functions/ run by Cloudflare's runtime (wrangler
 * pages dev) and a fake GitHub on 127.0.0.1 that approves at once: the site's own /admin page (its
 * headers set by functions/admin.ts, as in production) gets the token through Decap's postMessage
 * handshake; a page of another origin that opens the same popup gets nothing.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGitHub, type FakeGitHub } from '../helpers/fakeGitHub.js';
import { startPagesDev, type PagesDev } from '../helpers/pagesDev.js';
import { useBrowser } from '../helpers/site.js';

declare global {
  interface Window { received: { origin: string; data: string }[]; signIn(): void }
}

/**
 * Opens the sign-in popup at the page's ?auth= address (else the site's own /api/auth) and answers
 * its handshake, as Decap does. A file, not an inline script: /admin's policy allows 'self' only.
 */
const OPENER_SCRIPT = `window.received = [];
window.addEventListener('message', function (e) {
  window.received.push({ origin: e.origin, data: String(e.data) });
  if (e.data === 'authorizing:github') e.source.postMessage('authorizing:github', '*');
});
window.signIn = function () {
  var auth = new URLSearchParams(location.search).get('auth') || '/api/auth?provider=github&scope=repo';
  window.open(auth, 'auth', 'width=500,height=600');
};
`;
const OPENER_PAGE = '<!DOCTYPE html><html lang="en"><head><title>Sign in</title><script src="/opener.js"></script></head><body></body></html>';

describe('the sign-in popup', () => {
  const browser = useBrowser();
  let github: FakeGitHub;
  let site: PagesDev;
  let dir: string;

  beforeAll(async () => {
    github = await fakeGitHub('Iv1.fakeclient', 'fake-secret');
    dir = await mkdtemp(path.join(tmpdir(), 'cms-signin-'));
    await Promise.all([
      writeFile(path.join(dir, 'admin.html'), OPENER_PAGE),
      writeFile(path.join(dir, 'evil.html'), OPENER_PAGE),
      writeFile(path.join(dir, 'opener.js'), OPENER_SCRIPT),
    ]);
    site = await startPagesDev({ dir, bindings: { GITHUB_CLIENT_ID: 'Iv1.fakeclient', GITHUB_CLIENT_SECRET: 'fake-secret', GITHUB_OAUTH_ORIGIN: github.url } });
  });
  afterAll(async () => {
    await Promise.all([github?.close(), site?.close()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Opens `url` and clicks sign-in there, as an editor would: the page and its popup. */
  async function signInFrom(url: string) {
    const page = await browser.newPage();
    await page.goto(url);
    const popup = page.waitForEvent('popup');
    await page.evaluate(() => window.signIn());
    return { page, win: await popup };
  }

  it('hands the token to the site\'s own /admin page, then closes', async () => {
    const { page, win } = await signInFrom(`${site.url}/admin`);
    await expect.poll(() => page.evaluate(() => window.received.map((m) => m.data)), { timeout: 10_000 })
      .toEqual(['authorizing:github', `authorization:github:success:{"token":"${github.token}","provider":"github"}`]);
    expect(await page.evaluate(() => window.received.map((m) => m.origin))).toEqual([site.url, site.url]);
    await expect.poll(() => win.isClosed()).toBe(true);
    await page.close();
  });

  it('gives a page of another origin nothing, not even the handshake', async () => {
    // The same server under another name: localhost is not 127.0.0.1 to the browser.
    const evil = new URL(site.url);
    evil.hostname = 'localhost';
    const { page, win } = await signInFrom(`${evil.origin}/evil?auth=${encodeURIComponent(`${site.url}/api/auth?provider=github&scope=repo`)}`);
    // The popup went through GitHub and reached the callback page, signed in...
    await win.waitForURL(/\/api\/callback\?code=/);
    await win.waitForLoadState('load');
    expect(await win.textContent('body')).toContain('Signed in.');
    // ...but its messages go to the site's origin only, which the opener is not. Messages from one
    // window to another arrive in order: once this later one is in, the earlier ones would be too.
    await win.evaluate(() => window.opener.postMessage('probe', '*'));
    await expect.poll(() => page.evaluate(() => window.received.map((m) => m.data))).toEqual(['probe']);
    expect(win.isClosed()).toBe(false);
    await page.close();
  });
});
