/**
 * Sign-in to the CMS with GitHub on Cloudflare Pages (Decap's GitHub backend needs a server to swap
 * the OAuth code for a token, with the app's secret). Two routes, functions/api/auth.ts and
 * functions/api/callback.ts, on the site's own host:
 *   /admin opens a popup at /api/auth → GitHub asks the editor → GitHub sends the popup to
 *   /api/callback → the popup hands the token to /admin (postMessage) and closes.
 * Everything from outside is hostile:
 * - the callback address is always this host's /api/callback (never taken from the request: no
 *   open redirect), and GitHub checks it against the OAuth app's;
 * - a random state goes into a __Host- cookie (HttpOnly, Secure, SameSite=Lax, 10 minutes) and to
 *   GitHub; the callback refuses a state that is missing or differs, before asking GitHub anything;
 * - the token is posted to this host's origin only, and only after the /admin page there answered
 *   the popup's "authorizing:github" (Decap's handshake); the page runs one script, allowed by a nonce.
 * Settings (Cloudflare Pages → Settings → Variables and Secrets): GITHUB_CLIENT_ID,
 * GITHUB_CLIENT_SECRET (secret). GITHUB_OAUTH_ORIGIN only for tests (a fake GitHub).
 */

export interface OAuthEnv {
  GITHUB_CLIENT_ID?: string;
  GITHUB_CLIENT_SECRET?: string;
  /** Where GitHub's OAuth pages are; tests point it at a fake on 127.0.0.1. */
  GITHUB_OAUTH_ORIGIN?: string;
}

/** What Cloudflare Pages hands a function (the part used here). */
export interface PagesContext<Env = OAuthEnv> {
  request: Request;
  env: Env;
  next(): Promise<Response>;
}

export const STATE_COOKIE = '__Host-cms_oauth_state';
const STATE_MAX_AGE = 600;
const SCOPES = new Set(['repo', 'public_repo']);

const githubOrigin = (env: OAuthEnv) => (env.GITHUB_OAUTH_ORIGIN ?? 'https://github.com').replace(/\/+$/, '');
const callbackUrl = (request: Request) => `${new URL(request.url).origin}/api/callback`;

function randomState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function cookieValue(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/** Equal strings, compared in time that does not depend on where they differ. */
function sameString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const plain = (status: number, text: string) => new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });

/** GET /api/auth?provider=github&scope=repo: off to GitHub, with a fresh state. */
export function startSignIn({ request, env }: PagesContext): Response {
  const url = new URL(request.url);
  if (!env.GITHUB_CLIENT_ID || !env.GITHUB_CLIENT_SECRET) return plain(500, 'Sign-in is not set up: GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET are missing (see docs/editing.md, Setup (once, by the owner)).');
  if ((url.searchParams.get('provider') ?? 'github') !== 'github') return plain(400, 'Only GitHub sign-in is offered.');
  const scope = url.searchParams.get('scope') ?? 'repo';
  if (!SCOPES.has(scope)) return plain(400, 'Unknown scope.');
  const state = randomState();
  const authorize = new URL(`${githubOrigin(env)}/login/oauth/authorize`);
  authorize.search = new URLSearchParams({ client_id: env.GITHUB_CLIENT_ID, redirect_uri: callbackUrl(request), scope, state }).toString();
  return new Response(null, {
    status: 302,
    headers: {
      location: authorize.toString(),
      'set-cookie': `${STATE_COOKIE}=${state}; Path=/; Max-Age=${STATE_MAX_AGE}; HttpOnly; Secure; SameSite=Lax`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    },
  });
}

/**
 * The popup's page: says "authorizing:github" to the window that opened it, and answers that
 * window (only if it is this origin) with the result, in Decap's message format.
 */
function handOver(request: Request, outcome: { token: string } | { error: string }, status = 200): Response {
  const origin = new URL(request.url).origin;
  const message = 'token' in outcome
    ? `authorization:github:success:${JSON.stringify({ token: outcome.token, provider: 'github' })}`
    : `authorization:github:error:${JSON.stringify({ message: outcome.error })}`;
  const nonce = randomState();
  // JSON in a script: '<' escaped, so no text can end the script element.
  const json = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  const script = `(function () {
  var origin = ${json(origin)}, message = ${json(message)};
  function answer(e) {
    if (e.origin !== origin || e.source !== window.opener) return;
    window.removeEventListener('message', answer);
    window.opener.postMessage(message, origin);
    window.close();
  }
  window.addEventListener('message', answer);
  if (window.opener) window.opener.postMessage('authorizing:github', origin);
})();`;
  const text = 'token' in outcome ? 'Signed in. This window closes by itself.' : `Sign-in failed: ${outcome.error}`;
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Sign-in</title></head><body><p>${text.replace(/[<&>"]/g, (c) => `&#${c.charCodeAt(0)};`)}</p><script nonce="${nonce}">${script}</script></body></html>`;
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-robots-tag': 'noindex',
      // The state is used once.
      'set-cookie': `${STATE_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`,
    },
  });
}

/** GET /api/callback?code=…&state=…: the state checked, the code swapped for a token, handed to /admin. */
export async function finishSignIn({ request, env }: PagesContext): Promise<Response> {
  const url = new URL(request.url);
  const state = url.searchParams.get('state') ?? '';
  const expected = cookieValue(request, STATE_COOKIE) ?? '';
  if (!state || !expected || !sameString(state, expected)) {
    return handOver(request, { error: 'the sign-in request expired or did not start here; close this window and press Login again' }, 403);
  }
  const code = url.searchParams.get('code');
  if (!code) return handOver(request, { error: url.searchParams.get('error_description') ?? 'GitHub did not grant access' }, 400);
  if (!env.GITHUB_CLIENT_ID || !env.GITHUB_CLIENT_SECRET) return handOver(request, { error: 'sign-in is not set up on this site' }, 500);
  let answer: { access_token?: unknown; error?: unknown; error_description?: unknown };
  try {
    const res = await fetch(`${githubOrigin(env)}/login/oauth/access_token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: env.GITHUB_CLIENT_ID, client_secret: env.GITHUB_CLIENT_SECRET, code, redirect_uri: callbackUrl(request) }),
    });
    answer = await res.json() as typeof answer;
  } catch {
    return handOver(request, { error: 'GitHub could not be reached; try again in a minute' }, 502);
  }
  if (typeof answer.access_token !== 'string' || !/^[\w.-]+$/.test(answer.access_token)) {
    return handOver(request, { error: typeof answer.error_description === 'string' ? answer.error_description : 'GitHub refused the sign-in' }, 401);
  }
  return handOver(request, { token: answer.access_token });
}
