/**
 * When the local site opens the Supabase stand-in (serve/site.ts). Opening PGlite and applying the
 * migrations holds the process for seconds, so `npm run dev` opens it only when the first request
 * for it arrives (a save right after start was in the tab 17 s later while the database opened);
 * `npm start` still opens it at once. Either way a request for it waits until it is open. The
 * stand-in here is a stub whose open ends when the test says so: every wait is on a signal.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalBackend } from '../../supabase-standin/backend.js';
import { serveSite, type RunningSite } from '../../serve/site.js';
import { tempDir } from '../helpers/content.js';

/** Every stub's opens, so that afterAll can end the ones a failed test left waiting. */
const held: { opens: { finish: () => void }[] }[] = [];

/** openBackend as the site calls it: each call recorded; each open ends with `finish()` (or `fail()`). */
function heldBackend() {
  const opens: { site: { allowedOrigins: string[]; url: string }; finish: () => void; fail: (err: Error) => void }[] = [];
  let onOpen: (() => void) | undefined;
  let closed = 0;
  const stub = {
    async handle(_req, res) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"stub":true}');
      return true;
    },
    async close() {
      closed += 1;
    },
  } as Pick<LocalBackend, 'handle' | 'close'> as LocalBackend;
  const made = {
    opens,
    closed: () => closed,
    /** Resolves at the next call of openBackend (or at once if there were `count` already). */
    opened: (count: number) => new Promise<void>((resolve) => {
      if (opens.length >= count) resolve();
      else onOpen = () => { if (opens.length >= count) resolve(); };
    }),
    openBackend: (site: { allowedOrigins: string[]; url: string }) => new Promise<LocalBackend>((resolve, reject) => {
      opens.push({ site, finish: () => resolve(stub), fail: reject });
      onOpen?.();
    }),
  };
  held.push(made);
  return made;
}

describe('the local site and its stand-in', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  const sites: RunningSite[] = [];
  beforeAll(async () => {
    tmp = await tempDir('site-backend-');
    await writeFile(path.join(tmp.dir, 'index.html'), '<h1>home</h1>');
  });
  afterAll(async () => {
    // An open a failed test left waiting would hold close() up.
    for (const backend of held) for (const open of backend.opens) open.finish();
    await Promise.all(sites.map((s) => s.close().catch(() => undefined)));
    await tmp.remove();
  });
  const serve = async (options: Partial<Parameters<typeof serveSite>[0]>) => {
    const site = await serveSite({ distDir: tmp.dir, port: 0, host: '127.0.0.1', ...options });
    sites.push(site);
    return site;
  };

  it('npm run dev: opened only by the first request for it, which waits for it, as do the others meanwhile', async () => {
    const backend = heldBackend();
    const site = await serve({ openBackend: backend.openBackend, openBackendWhen: 'requested' });
    const page = await fetch(`${site.url}/`);
    expect(await page.text()).toContain('home');
    expect(backend.opens, 'not opened when the server listens, nor for a page').toHaveLength(0);
    expect(site.backend).toBeUndefined();

    const first = fetch(`${site.url}/auth/v1/health`);
    await backend.opened(1);
    const second = fetch(`${site.url}/rest/v1/leads`);
    expect(backend.opens[0]!.site.url).toBe(site.url);
    expect(backend.opens[0]!.site.allowedOrigins).toContain(`http://127.0.0.1:${new URL(site.url).port}`);
    backend.opens[0]!.finish();
    for (const response of await Promise.all([first, second])) {
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ stub: true });
    }
    expect(backend.opens, 'opened once').toHaveLength(1);
    await expect(site.backend).resolves.toBeDefined();
    await site.close();
    expect(backend.closed()).toBe(1);
  });

  it('npm run dev: an open that failed answers 503, and the next request opens it again', async () => {
    const backend = heldBackend();
    const site = await serve({ openBackend: backend.openBackend, openBackendWhen: 'requested' });
    const refused = fetch(`${site.url}/rest/v1/leads`);
    await backend.opened(1);
    backend.opens[0]!.fail(new Error('the folder is held by another process'));
    expect((await refused).status).toBe(503);

    const answered = fetch(`${site.url}/rest/v1/leads`);
    await Promise.race([
      backend.opened(2),
      answered.then((r) => { throw new Error(`answered ${r.status} without opening the stand-in again`); }),
    ]);
    backend.opens[1]!.finish();
    expect((await answered).status).toBe(200);
  });

  it('npm run dev: a server whose stand-in was never asked for stops without opening it', async () => {
    const backend = heldBackend();
    const site = await serve({ openBackend: backend.openBackend, openBackendWhen: 'requested' });
    expect(backend.opens).toHaveLength(0);
    await site.close();
    expect(backend.opens).toHaveLength(0);
    expect(backend.closed()).toBe(0);
  });

  it('npm start: opened as soon as the server listens; a request meanwhile waits for it', async () => {
    const backend = heldBackend();
    const site = await serve({ openBackend: backend.openBackend });
    expect(backend.opens).toHaveLength(1);
    const waiting = fetch(`${site.url}/auth/v1/health`);
    backend.opens[0]!.finish();
    expect((await waiting).status).toBe(200);
    expect(backend.opens).toHaveLength(1);
    await site.close();
    expect(backend.closed()).toBe(1);
  });
});
