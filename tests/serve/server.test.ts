/**
 * The local static server (npm start, npm run dev) against hostile request paths: redirects stay on
 * the site, bad paths get 400 or 404 (never 500, never a stack trace, never an injected header),
 * and long runs of slashes cost linear time. Requests go through node:http with the raw path, so
 * the exact bytes reach the server (fetch would normalise them).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request, type IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanRedirectTarget, startServer, type RunningServer } from '../../serve/server.js';

interface Answer { status: number; headers: IncomingHttpHeaders; body: string }

/** One request with the path sent byte for byte, on its own connection. */
function send(site: RunningServer, rawPath: string, method = 'GET'): Promise<Answer> {
  const { hostname, port } = new URL(site.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: rawPath, method, agent: false, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout on ${rawPath.slice(0, 40)}`)));
    req.on('error', reject);
    req.end();
  });
}

/** A Location header that keeps the visitor on this site. */
function expectSameSite(site: RunningServer, location: string | undefined) {
  expect(location).toBeDefined();
  expect(location).toMatch(/^\/(?![/\\])/);
  expect(location).not.toMatch(/[\r\n]/);
  expect(new URL(location!, site.url).origin).toBe(new URL(site.url).origin);
}

let dir: string;
let site: RunningServer;
const errors = vi.spyOn(console, 'error');

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'server-test-'));
  await Promise.all([
    writeFile(path.join(dir, 'index.html'), '<h1>home</h1>'),
    writeFile(path.join(dir, 'contact.html'), '<h1>contact</h1>'),
    writeFile(path.join(dir, '404.html'), '<h1>not found</h1>'),
    writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>'),
    writeFile(path.join(dir, '_headers'), '/*\n  X-Frame-Options: DENY\n  Strict-Transport-Security: max-age=1\n/contact\n  X-Page: contact\n'),
  ]);
  site = await startServer({ distDir: dir });
});
afterAll(async () => {
  errors.mockRestore();
  await site?.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  // No request may reach the catch-all error handler (500 and a stack trace in the log).
  expect(errors).not.toHaveBeenCalled();
  errors.mockClear();
});

describe('serving', () => {
  it('serves clean URLs with the _headers rules, 404.html with 404, and never _ files', async () => {
    const home = await send(site, '/');
    expect([home.status, home.body, home.headers['content-type']]).toEqual([200, '<h1>home</h1>', 'text/html; charset=utf-8']);
    expect(home.headers['x-frame-options']).toBe('DENY');
    expect(home.headers['strict-transport-security']).toBeUndefined();

    const contact = await send(site, '/contact');
    expect([contact.status, contact.body, contact.headers['x-page']]).toEqual([200, '<h1>contact</h1>', 'contact']);

    const icon = await send(site, '/favicon.svg');
    expect([icon.status, icon.headers['content-type']]).toEqual([200, 'image/svg+xml']);

    const missing = await send(site, '/nowhere');
    expect([missing.status, missing.body]).toEqual([404, '<h1>not found</h1>']);

    for (const p of ['/_headers', '/x/..%2f_headers', '/..%2f..%2fetc/passwd', '/%2e%2e%2f%2e%2e%2fetc%2fpasswd']) {
      const answer = await send(site, p);
      expect([400, 404], p).toContain(answer.status);
      expect(answer.body, p).not.toContain('X-Frame-Options');
      expect(answer.body, p).not.toContain('root:');
    }
  });

  it('answers HEAD without a body and other methods with 405', async () => {
    const head = await send(site, '/contact', 'HEAD');
    expect([head.status, head.body, head.headers['x-page']]).toEqual([200, '', 'contact']);
    const post = await send(site, '/contact', 'POST');
    expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD']);
  });

  it('redirects .html and trailing-slash addresses to the clean URL, keeping the query', async () => {
    const cases: [string, string][] = [
      ['/contact/', '/contact'],
      ['/about.html', '/about'],
      ['/index.html', '/'],
      ['/x/index.html', '/x'],
      ['/about.html/', '/about'],
      ['/x/?a=1', '/x?a=1'],
      ['/contact.html?utm=a%20b', '/contact?utm=a%20b'],
      ['/caf%C3%A9/', '/caf%C3%A9'],
    ];
    for (const [from, to] of cases) {
      const answer = await send(site, from);
      expect([answer.status, answer.headers.location], from).toEqual([301, to]);
    }
  });
});

describe('hostile paths', () => {
  it('never redirects to another site', async () => {
    for (const p of ['/%2fevil.com/', '/%5Cevil.com/', '/%2F%2Fevil.com/', '/%5C%5Cevil.com/', '/%2f%5cevil.com/', '/%09/evil.com/', '/%2fevil.com.html']) {
      const answer = await send(site, p);
      expect([301, 400, 404], p).toContain(answer.status);
      if (answer.status === 301) expectSameSite(site, answer.headers.location);
    }
    // A literal '//' or '/\' start is another host to URL parsers: refused outright.
    for (const p of ['//evil.com/', '/\\evil.com/', '//evil.com/x/']) {
      const answer = await send(site, p);
      expect([400, 404], p).toContain(answer.status);
      expect(answer.headers.location, p).toBeUndefined();
    }
  });

  it('answers a CR/LF path with 400 or 404, without the injected header', async () => {
    for (const p of ['/%0d%0aX-Injected:%201/', '/%0d%0aX-Injected:%201', '/x%0aX-Injected:%201.html']) {
      const answer = await send(site, p);
      expect([400, 404], p).toContain(answer.status);
      expect(answer.headers['x-injected'], p).toBeUndefined();
      expect(answer.headers.location, p).toBeUndefined();
    }
  });

  it('never answers 500 to odd paths', async () => {
    const odd = [
      '/%E0%A4%A', '/%', '/%zz/', '/%00', '/%00.html', '/a%00/', '/..%2f..%2fetc/passwd', '/%2e%2e/', '/%2e%2e%2f',
      '//', '//[/', '/\\[/', '///', '/%2f', `/${'a'.repeat(15_000)}`, `/${'%41'.repeat(5_000)}/`, `/${'%'.repeat(15_000)}`,
      `/${'%2f'.repeat(5_000)}`, `/${'.html'.repeat(3_000)}`,
    ];
    for (const p of odd) {
      const answer = await send(site, p);
      expect(answer.status, p.slice(0, 40)).toBeLessThan(500);
    }
  });

  it('handles long runs of slashes in linear time: 20 at once do not hold up other visitors', async () => {
    const slashes = `/a${'/'.repeat(16_000)}b/`;
    const start = performance.now();
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => send(site, slashes)),
      send(site, '/favicon.svg'),
    ]);
    const elapsed = performance.now() - start;
    for (const answer of answers.slice(0, 20)) {
      expect(answer.status).toBe(301);
      expectSameSite(site, answer.headers.location);
    }
    expect(answers.at(-1)?.status).toBe(200);
    // Linear code needs a few ms here; the quadratic regex took about 0.3 s a request (6 s in all).
    expect(elapsed).toBeLessThan(2_000);
  });
});

describe('cleanRedirectTarget', () => {
  it('gives the clean URL, or undefined when the path is already clean', () => {
    expect(cleanRedirectTarget('/', '')).toBeUndefined();
    expect(cleanRedirectTarget('/contact', '?a=1')).toBeUndefined();
    expect(cleanRedirectTarget('/contact/', '')).toBe('/contact');
    expect(cleanRedirectTarget('/index.html', '?a=1')).toBe('/?a=1');
    expect(cleanRedirectTarget('/x/index.html', '')).toBe('/x');
    expect(cleanRedirectTarget('/about.html', '')).toBe('/about');
    expect(cleanRedirectTarget('/about.html///', '')).toBe('/about');
    expect(cleanRedirectTarget('////', '')).toBe('/');
  });

  it('always gives a path on this site', () => {
    for (const p of ['//evil.com/', '///evil.com/', '/\\evil.com/', '/\\/evil.com/', '//evil.com.html', '//\\//evil.com/index.html']) {
      expect(cleanRedirectTarget(p, ''), p).toBe('/evil.com');
    }
  });

  it('is linear in the length of the path', () => {
    const p = `/a${'/'.repeat(1_000_000)}b${'/'.repeat(1_000_000)}`;
    const start = performance.now();
    expect(cleanRedirectTarget(p, '')).toBe(`/a${'/'.repeat(1_000_000)}b`);
    expect(performance.now() - start).toBeLessThan(1_000);
  });
});

describe('a dist folder without 404.html', () => {
  it('answers unknown paths with a plain 404 and keeps serving', async () => {
    const bare = await mkdtemp(path.join(os.tmpdir(), 'server-test-bare-'));
    await writeFile(path.join(bare, 'index.html'), '<h1>home</h1>');
    const server = await startServer({ distDir: bare });
    try {
      const missing = await send(server, '/nowhere');
      expect(missing.status).toBe(404);
      expect((await send(server, '/')).status).toBe(200);
    } finally {
      await server.close();
      await rm(bare, { recursive: true, force: true });
    }
  });
});

describe('files still being added (npm start writes /admin and /leads after the pages)', () => {
  it('answers the pages at once, and a request for a file not written yet once it is', async () => {
    const dist = await mkdtemp(path.join(os.tmpdir(), 'server-test-pending-'));
    await writeFile(path.join(dist, 'index.html'), '<h1>home</h1>');
    await writeFile(path.join(dist, '404.html'), '<h1>not found</h1>');
    let finish!: () => void;
    const server = await startServer({ distDir: dist, filesPending: new Promise<void>((resolve) => { finish = resolve; }) });
    try {
      const received = new Promise<void>((resolve) => server.server.on('request', (req: { url?: string }) => { if (req.url === '/admin') resolve(); }));
      let adminAnswered = false;
      const admin = send(server, '/admin').then((answer) => { adminAnswered = true; return answer; });
      // The server has the request, and found no admin.html (a server that does not wait answers 404 now)...
      await received;
      // ...while the pages are answered.
      expect((await send(server, '/')).status).toBe(200);
      expect(adminAnswered).toBe(false);
      await writeFile(path.join(dist, 'admin.html'), '<h1>content manager</h1>');
      finish();
      expect(await admin).toMatchObject({ status: 200, body: '<h1>content manager</h1>' });
      // Once everything is written, a missing file is a 404 at once.
      expect((await send(server, '/nowhere')).status).toBe(404);
    } finally {
      await server.close();
      await rm(dist, { recursive: true, force: true });
    }
  });
});

describe('the nearest 404.html up the folder tree, as Cloudflare Pages serves it', () => {
  let nested: string;
  let server: RunningServer;
  beforeAll(async () => {
    nested = await mkdtemp(path.join(os.tmpdir(), 'server-test-404-'));
    await mkdir(path.join(nested, 'es/ubicaciones'), { recursive: true });
    await mkdir(path.join(nested, 'deep/a/b'), { recursive: true });
    await Promise.all([
      writeFile(path.join(nested, 'index.html'), '<h1>home</h1>'),
      writeFile(path.join(nested, '404.html'), '<h1>not found</h1>'),
      writeFile(path.join(nested, 'es.html'), '<h1>inicio</h1>'),
      writeFile(path.join(nested, 'es/404.html'), '<h1>no encontrada</h1>'),
      writeFile(path.join(nested, 'es/ubicaciones.html'), '<h1>ubicaciones</h1>'),
      writeFile(path.join(nested, 'es/ubicaciones/limpieza-profunda-san-jose-ca.html'), '<h1>San José</h1>'),
      writeFile(path.join(nested, 'deep/a/404.html'), '<h1>deep a</h1>'),
      writeFile(path.join(nested, '_headers'), '/es/*\n  X-Lang: es\n/*\n  X-Frame-Options: DENY\n'),
    ]);
    server = await startServer({ distDir: nested });
  });
  afterAll(async () => {
    await server?.close();
    await rm(nested, { recursive: true, force: true });
  });

  it('answers a missing path with the 404.html of its own folder, else of the nearest folder above, with status 404', async () => {
    const cases: [string, string][] = [
      ['/es/nope', '<h1>no encontrada</h1>'],
      // es/ubicaciones/ has no 404.html: es/404.html, the next one up.
      ['/es/ubicaciones/nope', '<h1>no encontrada</h1>'],
      // Folders that do not exist: the nearest one that does.
      ['/es/no/such/folder/page', '<h1>no encontrada</h1>'],
      ['/deep/a/b/nope', '<h1>deep a</h1>'],
      ['/deep/a/nope', '<h1>deep a</h1>'],
      ['/deep/nope', '<h1>not found</h1>'],
      // Not under es/: a name that only starts like it, and the top level.
      ['/esnope', '<h1>not found</h1>'],
      ['/es.html.nope/x', '<h1>not found</h1>'],
      ['/nope', '<h1>not found</h1>'],
      ['/no/such/folder', '<h1>not found</h1>'],
    ];
    for (const [p, body] of cases) {
      const answer = await send(server, p);
      expect([answer.status, answer.body, answer.headers['content-type']], p).toEqual([404, body, 'text/html; charset=utf-8']);
    }
    const head = await send(server, '/es/nope', 'HEAD');
    expect([head.status, head.body, head.headers['x-lang']]).toEqual([404, '', 'es']);
    // The _headers rules are the requested path's, as for any answer.
    expect((await send(server, '/es/nope')).headers['x-frame-options']).toBe('DENY');
  });

  it('still serves the pages themselves, the Spanish 404 page at its own address included', async () => {
    const cases: [string, number, string][] = [
      ['/', 200, '<h1>home</h1>'],
      ['/es', 200, '<h1>inicio</h1>'],
      ['/es/ubicaciones', 200, '<h1>ubicaciones</h1>'],
      ['/es/ubicaciones/limpieza-profunda-san-jose-ca', 200, '<h1>San José</h1>'],
      ['/es/404', 200, '<h1>no encontrada</h1>'],
    ];
    for (const [p, status, body] of cases) {
      const answer = await send(server, p);
      expect([answer.status, answer.body], p).toEqual([status, body]);
    }
  });

  it('never climbs out of dist/ for a 404 page, and a path of thousands of made-up folders costs no more than a short one', async () => {
    for (const p of ['/..%2f..%2fetc/x', '/es/..%2f..%2f..%2fetc/x', '/%2e%2e/%2e%2e/x']) {
      const answer = await send(server, p);
      expect([400, 404], p).toContain(answer.status);
      if (answer.status === 404) expect(answer.body, p).toBe('<h1>not found</h1>');
    }
    const deep = `/es/${'x/'.repeat(5_000)}nope`;
    const start = performance.now();
    const answers = await Promise.all(Array.from({ length: 20 }, () => send(server, deep)));
    for (const answer of answers) expect([answer.status, answer.body]).toEqual([404, '<h1>no encontrada</h1>']);
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});
