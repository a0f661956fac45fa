/** A fake GitHub OAuth server on 127.0.0.1 that approves at once and records what it was asked. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeGitHub {
  /** http://127.0.0.1:<port>: what GITHUB_OAUTH_ORIGIN points the functions at. */
  url: string;
  /** Bodies of the token requests received. */
  tokenRequests: Record<string, string>[];
  /** The code it hands out on authorize, and the token it gives for that code. */
  code: string;
  token: string;
  close(): Promise<void>;
}

/**
 * GitHub's OAuth pages: /login/oauth/authorize sends the browser straight back to redirect_uri
 * with a code; /login/oauth/access_token swaps that code for a token when the app's id and
 * secret are right, and answers GitHub's error otherwise.
 */
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  });
}
