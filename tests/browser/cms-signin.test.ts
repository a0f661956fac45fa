/**
 * The CMS's GitHub sign-in popup in Chromium (functions/ served by Node, a fake GitHub on
 * 127.0.0.1 that approves at once): the site's own page gets the token through Decap's
 * postMessage handshake; a page of another origin that opens the same popup gets nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthEnv } from '../../functions/_shared/githubOAuth.js';
import { onRequestGet as auth } from '../../functions/api/auth.js';
import { onRequestGet as callback } from '../../functions/api/callback.js';
import { fakeGitHub, servePages, type FakeGitHub, type Served } from '../helpers/pagesFunctions.js';
import { useBrowser } from '../helpers/site.js';

declare global {
  interface Window { received: { origin: string; data: string }[]; signIn(): void }
}

/** A page that opens the sign-in popup at `authUrl` and answers its handshake, as Decap does. */
const opener = (authUrl: string) => `<!DOCTYPE html><html><body><script>
window.received = [];
window.addEventListener('message', function (e) {
  window.received.push({ origin: e.origin, data: String(e.data) });
  if (e.data === 'authorizing:github') e.source.postMessage('authorizing:github', '*');
});
window.signIn = function () { window.open(${JSON.stringify(authUrl)}, 'auth', 'width=500,height=600'); };
</script></body></html>`;

describe('the sign-in popup', () => {
  const browser = useBrowser();
  let github: FakeGitHub;
  let site: Served;
  let evil: Served;

  beforeAll(async () => {
    github = await fakeGitHub('Iv1.fakeclient', 'fake-secret');
    const env: OAuthEnv = { GITHUB_CLIENT_ID: 'Iv1.fakeclient', GITHUB_CLIENT_SECRET: 'fake-secret', GITHUB_OAUTH_ORIGIN: github.url };
    site = await servePages(env, { '/api/auth': auth, '/api/callback': callback }, { '/admin': opener('/api/auth?provider=github&scope=repo') });
    // Another origin (localhost is not 127.0.0.1 to the browser) trying the same popup.
    evil = await servePages(env, {}, { '/evil': opener(`${site.url}/api/auth?provider=github&scope=repo`) }, 'localhost');
  });
  afterAll(async () => {
    await Promise.all([github?.close(), site?.close(), evil?.close()]);
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
    const { page, win } = await signInFrom(`${evil.url}/evil`);
    // The popup went through GitHub and reached the callback page, signed in...
    await win.waitForURL(/\/api\/callback\?code=/);
    await win.waitForLoadState('load');
    expect(await win.textContent('body')).toContain('Signed in.');
    await page.waitForTimeout(500);
    // ...but its messages go to the site's origin only, which the opener is not.
    expect(await page.evaluate(() => window.received)).toEqual([]);
    expect(win.isClosed()).toBe(false);
    await page.close();
  });
});
