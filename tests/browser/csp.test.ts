/**
 * The security headers of `_headers` (generator/write/hostFiles.ts), served the way the hosts serve
 * them (serve/server.ts): the Content-Security-Policy allows exactly what the site uses and
 * nothing it uses is blocked. Chromium visits every page at 1280px, scrolls to the end, waits for the
 * islands and the reviews widget, and both forms are submitted; `securitypolicyviolation` events and
 * the console's CSP messages must stay empty.
 *
 * There is no internet here: the third-party hosts (reviews widget script, booking and login iframes)
 * are answered by small stand-ins through request interception, which runs after the browser's CSP
 * check, so a host the policy left out is still reported as a violation.
 *
 * Part 1 uses the shared build (forms post to the site's own origin, as behind `npm start`; the
 * webhook goes to tests/globalSetup.ts's receiver on another 127.0.0.1 port). Part 2
 * builds the site as for production, with the Supabase API and the lead webhook on origins of their
 * own, and submits both forms across origins.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load as parseYaml } from 'js-yaml';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { build } from '../../generator/build.js';
import { createLocalBackend, type LocalBackend } from '../../supabase-standin/backend.js';
import { parseHeaders, startServer, type RunningServer } from '../../serve/server.js';
import { LOCAL_ANON_KEY } from '../../src/lib/supabase.js';
import { distPages } from '../helpers/dist.js';
import { useBrowser, useSite } from '../helpers/site.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Violation { page: string; directive: string; blocked: string; source: string; sample: string }
interface SiteConfig { booking: { bookingUrl: string; loginPortalUrl: string }; reviews: { scriptUrl: string; widgetId: string } }

declare global {
  interface Window { __cspViolations?: Omit<Violation, 'page'>[] }
}

/** The reviews vendor's script, as far as the page can tell: it fills the widget element. */
const REVIEWS_STUB = `for (const el of document.querySelectorAll('[class*="elfsight-app-"]')) {
  const d = document.createElement('div'); d.textContent = 'Five stars'; el.appendChild(d);
}`;
const FRAME_STUB = '<!doctype html><title>Booking</title><p>Booking form</p>';

async function siteConfig(): Promise<SiteConfig> {
  const dir = process.env.CONTENT_DIR ? path.resolve(process.env.CONTENT_DIR) : path.join(ROOT, 'content');
  return parseYaml(await readFile(path.join(dir, 'site.yaml'), 'utf8')) as SiteConfig;
}

/** Security headers for a path, from the `_headers` file of a dist/. */
async function headersFor(dist: string, pathname: string): Promise<Map<string, string>> {
  const rules = parseHeaders(await readFile(path.join(dist, '_headers'), 'utf8'));
  const headers = new Map<string, string>();
  for (const rule of rules) if (rule.pattern.test(pathname)) for (const [k, v] of rule.headers) headers.set(k.toLowerCase(), v);
  return headers;
}

function parseCsp(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name!, values]));
}

/** Records CSP violations of every frame, CSP console messages, failed same-origin responses and unexpected outside requests. */
class Recorder {
  violations: Violation[] = [];
  console: string[] = [];
  failed: string[] = [];
  outside: string[] = [];
  current = '';

  async attach(context: BrowserContext, siteOrigin: string, allowedOrigins: readonly string[]) {
    await context.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        window.__cspViolations!.push({ directive: e.effectiveDirective, blocked: e.blockedURI, source: `${e.sourceFile}:${e.lineNumber}`, sample: e.sample });
      }, true);
    });
    // Requests to other hosts only get here once the CSP allowed them: answer the known third parties.
    await context.route((url) => !allowedOrigins.includes(url.origin), async (route) => {
      const req = route.request();
      const url = req.url();
      if (req.resourceType() === 'script') return route.fulfill({ contentType: 'text/javascript', body: REVIEWS_STUB });
      if (req.resourceType() === 'document') return route.fulfill({ contentType: 'text/html', body: FRAME_STUB });
      this.outside.push(`${this.current}: ${req.resourceType()} ${url}`);
      return route.abort();
    });
    context.on('console', (msg) => {
      if (/Content[ -]Security[ -]Policy|Refused to|Permissions[ -]Policy|Error with .* header/i.test(msg.text())) this.console.push(`${this.current}: [${msg.type()}] ${msg.text()}`);
    });
    context.on('response', (res) => {
      if (res.url().startsWith(siteOrigin) && res.status() >= 400 && !res.url().includes('/no-such-page')) this.failed.push(`${this.current}: ${res.status()} ${res.url()}`);
    });
  }

  async collect(page: Page) {
    for (const frame of page.frames()) {
      const list = await frame.evaluate(() => window.__cspViolations ?? []).catch(() => []);
      this.violations.push(...list.map((v) => ({ page: this.current, ...v })));
    }
  }
}

const format = (v: Violation) => `${v.page}: ${v.directive} blocked ${v.blocked || '(inline)'} at ${v.source}${v.sample ? ` sample "${v.sample}"` : ''}`;

/**
 * Waits until the page's islands (or the named ones) are hydrated; those hydrated on interaction
 * or by their own schedule (the popup, the toasts: submitBothForms opens them) are left out, and one still waiting to be seen is scrolled into view.
 */
async function islandsHydrated(page: Page, names?: string[]) {
  const pending = () => page.evaluate((only) => [...document.querySelectorAll<HTMLElement>('[data-island]')].filter((el) => {
    const child = el.firstElementChild;
    if (!child || el.dataset.hydrate === 'interaction' || el.dataset.hydrate === 'scheduled' || (only && !only.includes(el.dataset.island ?? ''))) return false;
    return !Object.keys(child).some((k) => k.startsWith('__reactFiber'));
  }).map((el) => {
    if (el.dataset.hydrate === 'visible') el.firstElementChild!.scrollIntoView();
    return el.dataset.island ?? '';
  }), names);
  await expect.poll(pending, { timeout: 15_000, message: `islands not hydrated on ${page.url()}` }).toEqual([]);
}

async function scrollToEnd(page: Page) {
  await page.evaluate(async () => {
    // Each step waits for two frames: the intersection observers (islands hydrated on sight) run
    // with the frame after the scroll.
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (let y = 0; y <= document.documentElement.scrollHeight; y += 500) {
      window.scrollTo(0, y);
      await frames();
    }
    window.scrollTo(0, document.documentElement.scrollHeight);
    await frames();
  });
}

/** The reviews island has settled: the stand-in widget rendered (or no widget on this page). */
async function reviewsSettled(page: Page) {
  await page.waitForFunction(() => {
    const island = document.querySelector('[data-island="ReviewsWidget"]');
    return !island || !!island.querySelector('[class*="elfsight-app-"] > *') || !!island.querySelector('a[href^="http"]');
  }, undefined, { timeout: 15_000 });
}

async function submitContactForm(page: Page, origin: string) {
  await page.goto(`${origin}/contact`);
  await islandsHydrated(page, ['ContactForm']);
  const form = page.locator('[data-island="ContactForm"] form');
  for (const [label, value] of [['First Name', 'Ada'], ['Last Name', 'Lovelace'], ['Email', 'ada@example.com'], ['Phone', '(408) 555-0100'], ['Message', 'Deep clean, 3 bedrooms']] as const) {
    await form.getByLabel(label, { exact: true }).fill(value);
  }
  await form.locator('button[type="submit"]').click();
  await page.locator('[role="status"] [data-toast="default"]').waitFor({ timeout: 20_000 });
}

async function submitDiscountPopup(page: Page, origin: string) {
  await page.clock.install();
  await page.goto(`${origin}/`); // the popup's code loads when it is due
  await page.clock.runFor(5000);
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await page.clock.resume();
  await dialog.getByLabel('Email').fill('popup@example.com');
  await dialog.getByLabel('Phone').fill('(408) 555-0111');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await page.locator('[role="status"] [data-toast="default"]').waitFor({ timeout: 20_000 });
}

const browser = useBrowser();
/** Submits the contact form, then the discount popup, recording what each page reported. */
async function submitBothForms(context: BrowserContext, origin: string, rec: Recorder) {
  const page = await context.newPage();
  rec.current = '/contact (submit)';
  await submitContactForm(page, origin);
  await rec.collect(page);
  rec.current = '/ (discount popup)';
  await submitDiscountPopup(page, origin);
  await rec.collect(page);
  await page.close();
}

let config: SiteConfig;
beforeAll(async () => { config = await siteConfig(); });

describe('security headers in _headers', () => {
  it('set a strict Content-Security-Policy and the other security headers on every page', async () => {
    const h = await headersFor(inject('siteDist'), '/contact');
    const csp = parseCsp(h.get('content-security-policy') ?? '');
    const originOf = (u: string) => new URL(u).origin;
    expect(csp.get('default-src')).toEqual(["'self'"]);
    // The one inline script (the font loader) is allowed by its hash, and only it.
    const html = await readFile(path.join(inject('siteDist'), 'contact.html'), 'utf8');
    const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(1);
    const hash = `'sha256-${createHash('sha256').update(inline[0]!).digest('base64')}'`;
    expect(csp.get('script-src')).toEqual(["'self'", hash, originOf(config.reviews.scriptUrl)]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('frame-src')).toEqual(expect.arrayContaining([originOf(config.booking.bookingUrl), originOf(config.booking.loginPortalUrl)]));
    expect(csp.get('frame-src')).not.toContain("'self'");
    expect(csp.has('upgrade-insecure-requests')).toBe(true);
    for (const [name, values] of csp) {
      expect(values, name).not.toContain("'unsafe-eval'");
      expect(values, name).not.toContain('*');
      if (name !== 'style-src') expect(values, name).not.toContain("'unsafe-inline'");
    }
    expect(h.get('strict-transport-security')).toMatch(/^max-age=(\d+); includeSubDomains/);
    expect(Number(/max-age=(\d+)/.exec(h.get('strict-transport-security')!)![1])).toBeGreaterThanOrEqual(31_536_000);
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(h.get('permissions-policy')).toMatch(/camera=\(\)/);
    expect(h.get('permissions-policy')).toMatch(/geolocation=\(\)/);
  });
});

describe('no CSP violation on any page (shared build, forms on the site\'s own origin)', () => {
  const site = useSite();
  let context: BrowserContext;
  const rec = new Recorder();
  let routes: string[] = [];

  beforeAll(async () => {
    routes = (await distPages(site.dist)).map((p) => p.route);
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await rec.attach(context, site.url, [site.url, new URL(inject('hookUrl')).origin]);
  });
  afterAll(async () => { await context?.close(); });

  it('visits every page: scrolled to the end, islands hydrated, reviews widget loaded', async () => {
    expect(routes.length).toBeGreaterThan(20);
    const page = await context.newPage();
    for (const route of [...routes, '/no-such-page']) {
      rec.current = route;
      await page.goto(site.url + route, { waitUntil: 'load' });
      await scrollToEnd(page);
      await islandsHydrated(page);
      await reviewsSettled(page);
      await page.waitForTimeout(100);
      await rec.collect(page);
    }
    await page.close();
    expect(rec.violations.map(format).join('\n') || 'none').toBe('none');
    expect(rec.console).toEqual([]);
    expect(rec.failed, 'same-origin requests that failed').toEqual([]);
    expect(rec.outside, 'requests to hosts outside the known third parties').toEqual([]);
  }, 240_000);

  it('the reviews widget script is allowed: the stand-in rendered the widget on the home page', async () => {
    const page = await context.newPage();
    rec.current = '/ (reviews)';
    await page.goto(`${site.url}/`);
    await scrollToEnd(page);
    // The widget loads its script only near the viewport: on a busy machine it may hydrate after the
    // scroll has passed it, so bring it back into view (as a visitor scrolling back up would).
    await page.locator('[data-island="ReviewsWidget"]').first().scrollIntoViewIfNeeded();
    await page.locator('[data-island="ReviewsWidget"] [class*="elfsight-app-"]').getByText('Five stars').waitFor({ timeout: 15_000 });
    await rec.collect(page);
    await page.close();
    expect(rec.violations.map(format)).toEqual([]);
  });

  it('the booking and login iframes load', async () => {
    const page = await context.newPage();
    for (const route of ['/book-online', '/customer-login']) {
      rec.current = route;
      await page.goto(site.url + route);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      expect(frame, route).toBeDefined();
      await expect.poll(() => frame!.locator('p').textContent().catch(() => null), { message: route }).toBe('Booking form');
      await rec.collect(page);
    }
    await page.close();
    expect(rec.violations.map(format)).toEqual([]);
  });

  it('the contact form and the discount popup submit without a violation', async () => {
    await submitBothForms(context, site.url, rec);
    expect(rec.violations.map(format)).toEqual([]);
    expect(rec.console).toEqual([]);
    const leads = await site.backend.db.query<{ n: number }>('SELECT count(*)::int AS n FROM public.leads');
    const discounts = await site.backend.db.query<{ n: number }>('SELECT count(*)::int AS n FROM public.discount_leads');
    expect(leads.rows[0]!.n).toBeGreaterThan(0);
    expect(discounts.rows[0]!.n).toBeGreaterThan(0);
  });
});

describe('no CSP violation with Supabase and the webhook on their own origins (production build)', () => {
  let tmp: string;
  let backend: LocalBackend;
  let api: Server;
  let hook: Server;
  let site: RunningServer;
  let context: BrowserContext;
  let apiOrigin: string;
  let hookOrigin: string;
  const hooks: string[] = [];
  const rec = new Recorder();

  const listen = async (server: Server) => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'csp-'));
    api = createServer((req, res) => {
      void backend.handle(req, res).then((handled) => { if (!handled) res.writeHead(404).end(); });
    });
    hook = createServer((req, res) => {
      hooks.push(req.method ?? '');
      req.resume();
      res.writeHead(200, { 'access-control-allow-origin': '*' }).end('ok');
    });
    [apiOrigin, hookOrigin] = await Promise.all([listen(api), listen(hook)]);
    const built = await build({
      root: ROOT,
      ...(process.env.CONTENT_DIR && { contentDir: path.resolve(process.env.CONTENT_DIR) }),
      outDir: path.join(tmp, 'dist'),
      siteUrl: 'https://www.bayshinecleaning.com',
      supabaseUrl: apiOrigin,
      supabaseAnonKey: LOCAL_ANON_KEY,
      webhookUrl: `${hookOrigin}/hook`,
    });
    site = await startServer({ distDir: built.outDir });
    // The stand-in answers the site's pages, served from an origin of their own.
    backend = await createLocalBackend({ env: {}, log: () => {}, allowedOrigins: [site.url] });
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await rec.attach(context, site.url, [site.url, apiOrigin, hookOrigin]);
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    await site?.close();
    await new Promise((r) => api?.close(r));
    await new Promise((r) => hook?.close(r));
    await backend?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('connect-src names the Supabase project and the webhook', async () => {
    const csp = parseCsp((await headersFor(path.join(tmp, 'dist'), '/')).get('content-security-policy') ?? '');
    expect(csp.get('connect-src')).toEqual(expect.arrayContaining([apiOrigin, hookOrigin]));
  });

  it('both forms reach Supabase and the webhook across origins without a violation', async () => {
    await submitBothForms(context, site.url, rec);
    await expect.poll(() => hooks.length).toBeGreaterThan(0);
    expect(rec.violations.map(format)).toEqual([]);
    expect(rec.console).toEqual([]);
    const leads = await backend.db.query<{ email: string }>('SELECT email FROM public.leads');
    const discounts = await backend.db.query<{ email: string }>('SELECT email FROM public.discount_leads');
    expect(leads.rows.map((r) => r.email)).toEqual(['ada@example.com']);
    expect(discounts.rows.map((r) => r.email)).toEqual(['popup@example.com']);
  });
});
