/**
 * A served copy of the built site, with the embedded backend (in-memory database) in front, and the
 * one way a test file gets it and a browser: `const site = useSite()` and `const browser = useBrowser()`
 * at the top of the file register the beforeAll/afterAll that start and stop them.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../supabase-standin/backend.js';
import { startServer, type RequestHandler, type RunningServer } from '../../serve/server.js';
import type { ReceivedHook } from '../globalSetup.js';
import { launchBrowser } from '../../tools/browser.js';

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

export interface TabOptions {
  viewport?: { width: number; height: number };
  /** false: a tab of the file's second shared context, which runs no script at all. */
  javaScriptEnabled?: boolean;
  /** Requests for scripts (.js, .mjs) fail, as when they cannot load: the page as the server sent it. */
  blockScripts?: boolean;
}

export interface TestBrowser extends Pick<Browser, 'newContext' | 'newPage'> {
  /**
   * The file's tab for these options, which the tests take turns in, as a visitor goes from page to
   * page in one tab: it is made on first use and kept (do not close it). Navigating a tab the
   * browser has warmed up costs a third of the CPU of a fresh tab or context (measured with axe-core
   * on every page: 33 against 81-89 CPU seconds for 50 pages), and the suite is CPU-bound. Each
   * navigation starts a new document; sessionStorage and the tab's scripts routes stay, and
   * cookies, localStorage and the HTTP cache are shared with the file's other tabs of the same
   * context. A test that needs a clean profile (storage, permissions, its own routes) takes
   * newContext().
   */
  tab(options?: TabOptions): Promise<Page>;
}

/** For useBrowser(): the discount popup never opens in the shared contexts' tabs (it is a modal with tests of its own). */
export const keepPopupShut = (context: BrowserContext) => context.addInitScript(() => sessionStorage.setItem('discount-popup-shown', 'true'));

/**
 * One headless Chromium for this test file (launched in beforeAll, closed in afterAll).
 * `init` runs once on each shared context tab() uses (say, an init script for every tab).
 */
export function useBrowser(init?: (context: BrowserContext) => Promise<unknown>): TestBrowser {
  let browser: Browser | undefined;
  const contexts = new Map<boolean, Promise<BrowserContext>>();
  const tabs = new Map<string, Promise<Page>>();
  beforeAll(async () => { browser = await launchBrowser(); });
  afterAll(async () => {
    contexts.clear();
    tabs.clear();
    await browser?.close();
  });
  const get = () => {
    if (!browser) throw new Error('useBrowser(): the browser is only there inside tests and hooks');
    return browser;
  };
  const sharedContext = (javaScriptEnabled: boolean) => {
    let context = contexts.get(javaScriptEnabled);
    if (!context) {
      context = get().newContext({ javaScriptEnabled }).then(async (c) => {
        await init?.(c);
        return c;
      });
      contexts.set(javaScriptEnabled, context);
    }
    return context;
  };
  const openTab = async (javaScriptEnabled: boolean, blockScripts: boolean) => {
    const page = await (await sharedContext(javaScriptEnabled)).newPage();
    if (blockScripts) await page.route(/\.m?js(\?|$)/, (r) => r.abort());
    return page;
  };
  return {
    newContext: (options) => get().newContext(options),
    newPage: (options) => get().newPage(options),
    tab: async ({ viewport, javaScriptEnabled = true, blockScripts = false } = {}) => {
      const key = `${javaScriptEnabled} ${blockScripts}`;
      let page = await tabs.get(key);
      if (!page || page.isClosed()) {
        const opened = openTab(javaScriptEnabled, blockScripts);
        tabs.set(key, opened);
        page = await opened;
      }
      if (viewport) await page.setViewportSize(viewport);
      return page;
    },
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
