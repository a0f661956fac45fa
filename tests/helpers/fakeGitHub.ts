/** Fakes of GitHub on 127.0.0.1: its OAuth server (approves at once, records what it was asked) and the part of its REST API the publish panel reads. */
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

export interface FakeRun { id: number; head_sha: string; event: 'push'; status: 'queued' | 'in_progress' | 'completed'; conclusion: null | 'success' | 'failure' | 'cancelled' }
export interface FakeJob { id: number; name: string; conclusion: null | 'success' | 'failure' | 'skipped' }
export interface FakeAnnotation { path: string; start_line: number; start_column: number | null; title: string | null; message: string; annotation_level: 'failure' | 'warning' | 'notice' }

export interface FakeGitHubApi {
  /** http://127.0.0.1:<port>, GitHub's API root. */
  url: string;
  repo: string;
  /** The branch's head commit. */
  head: string;
  /** Each commit's parent: GitHub's compare says whether one holds another. */
  parents: Map<string, string>;
  /** The deploy workflow's runs by head commit, newest first. */
  runs: Map<string, FakeRun[]>;
  jobs: Map<number, FakeJob[]>;
  annotations: Map<number, FakeAnnotation[]>;
  /** true: every connection is dropped, as when GitHub cannot be reached. */
  down: boolean;
  /** Each request's path and its Authorization header. */
  requests: { path: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

/**
 * The few endpoints of GitHub's REST API the content manager's publish panel reads, for one
 * repository: a branch's head commit, compare, a workflow's runs for a commit, a run's jobs and a
 * job's annotations. It answers 401 without a token, and CORS as api.github.com does.
 */
export async function fakeGitHubApi(repo = 'owner/site', branch = 'main'): Promise<FakeGitHubApi> {
  const fake = { repo, head: '', parents: new Map<string, string>(), runs: new Map<string, FakeRun[]>(), jobs: new Map<number, FakeJob[]>(), annotations: new Map<number, FakeAnnotation[]>(), down: false, requests: [] as FakeGitHubApi['requests'] };
  const holds = (later: string, earlier: string) => {
    for (let c: string | undefined = later; c; c = fake.parents.get(c)) if (c === earlier) return true;
    return false;
  };
  const server = createServer((req, res) => {
    if (fake.down) {
      req.socket.destroy();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, accept', 'access-control-expose-headers': 'etag' };
    if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
    fake.requests.push({ path: url.pathname + url.search, authorization: req.headers.authorization });
    const json = (status: number, body: unknown) => res.writeHead(status, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (!/^(Bearer|token) \S+$/.test(req.headers.authorization ?? '')) return json(401, { message: 'Requires authentication' });
    const base = `/repos/${repo}`;
    const p = url.pathname;
    let m: RegExpExecArray | null;
    if (p === `${base}/commits/${branch}`) return json(200, { sha: fake.head });
    if ((m = /^\/compare\/(\w+)\.\.\.(\w+)$/.exec(p.slice(base.length)))) {
      const [, from, to] = m as unknown as [string, string, string];
      return json(200, { status: from === to ? 'identical' : holds(to, from) ? 'ahead' : holds(from, to) ? 'behind' : 'diverged' });
    }
    if (p === `${base}/actions/workflows/deploy.yml/runs`) {
      const runs = (fake.runs.get(url.searchParams.get('head_sha') ?? '') ?? []).filter((r) => !url.searchParams.has('event') || r.event === url.searchParams.get('event'));
      return json(200, { total_count: runs.length, workflow_runs: runs });
    }
    if ((m = /^\/actions\/runs\/(\d+)\/jobs$/.exec(p.slice(base.length)))) return json(200, { jobs: fake.jobs.get(Number(m[1])) ?? [] });
    if ((m = /^\/check-runs\/(\d+)\/annotations$/.exec(p.slice(base.length)))) return json(200, fake.annotations.get(Number(m[1])) ?? []);
    json(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  });
}

/** The live site as far as the publish panel looks at it: /build.json naming `commit` (undefined: 404). */
export async function fakeLiveSite(): Promise<{ url: string; commit: string | undefined; close(): Promise<void> }> {
  const site = { commit: undefined as string | undefined };
  const server = createServer((req, res) => {
    if (req.url === '/build.json' && site.commit) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ commit: site.commit, time: '2026-11-26T12:00:00.000Z' }));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(site, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  });
}
