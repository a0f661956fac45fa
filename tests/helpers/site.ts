/**
 * A served copy of the built site, with the embedded backend (in-memory database) in front, and the
 * one way a test file gets it and a browser: `const site = useSite()` and `const browser = useBrowser()`
 * at the top of the file register the beforeAll/afterAll that start and stop them.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../generator/serve/backend.js';
import { startServer, type RequestHandler, type RunningServer } from '../../generator/serve/server.js';
import type { ReceivedHook } from '../globalSetup.js';
import { launchBrowser } from './browser.js';

export interface TestSite {
  url: string;
  dist: string;
  backend: LocalBackend;
  server: RunningServer;
  close(): Promise<void>;
}

export interface SiteOptions { handlers?: RequestHandler[]; env?: Record<string, string> }

/**
 * Forgets every submission the database's per-client limits have counted. Tests submit the forms
 * from one address (127.0.0.1), so a test that submits often calls this first (e.g. in beforeEach)
 * to start as a new visitor.
 */
export async function resetRateLimits(backend: Pick<LocalBackend, 'db'>): Promise<void> {
  await backend.db.exec('DELETE FROM private.rate_events');
}

export async function startTestSite(opts: SiteOptions = {}): Promise<TestSite> {
  const dist = inject('siteDist');
  const backend = await createLocalBackend({ dataDir: undefined, env: opts.env ?? {}, log: () => {} });
  const server = await startServer({
    distDir: dist,
    handlers: [...(opts.handlers ?? []), (req, res) => backend.handle(req, res)],
  });
  return {
    url: server.url, dist, backend, server,
    close: async () => {
      await server.close();
      await backend.close();
    },
  };
}

/** The shared built site, served for this test file (started in beforeAll, closed in afterAll). */
export function useSite(opts: SiteOptions = {}): TestSite {
  const site = {} as TestSite;
  beforeAll(async () => { Object.assign(site, await startTestSite(opts)); });
  afterAll(async () => { await site.close?.(); });
  return site;
}

/** One headless Chromium for this test file (launched in beforeAll, closed in afterAll). */
export function useBrowser(): Pick<Browser, 'newContext' | 'newPage'> {
  let browser: Browser | undefined;
  beforeAll(async () => { browser = await launchBrowser(); });
  afterAll(async () => { await browser?.close(); });
  const get = () => {
    if (!browser) throw new Error('useBrowser(): the browser is only there inside tests and hooks');
    return browser;
  };
  return {
    newContext: (options) => get().newContext(options),
    newPage: (options) => get().newPage(options),
  };
}

const hookLog = (siteOrigin: string) => `${inject('hookLogUrl')}?origin=${encodeURIComponent(siteOrigin)}`;

/** What the shared build's lead webhook received so far from pages of `siteOrigin` (tests/globalSetup.ts runs the receiver). */
export async function receivedHooks(siteOrigin: string): Promise<ReceivedHook[]> {
  return (await fetch(hookLog(siteOrigin))).json() as Promise<ReceivedHook[]>;
}

/** Forgets what the webhook received from pages of `siteOrigin`, so a test sees only its own requests. */
export async function clearReceivedHooks(siteOrigin: string): Promise<void> {
  await fetch(hookLog(siteOrigin), { method: 'DELETE' });
}
