/**
 * Islands in a real browser, in isolation from the site generator: the islands are bundled with
 * buildIslands(), server-rendered with templates/components/Island.tsx into small test pages, styled
 * with the real Tailwind CSS, and talk to the embedded local backend through the real supabase-js.
 * (tests/browser/forms.test.ts covers the same against the built site.)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { compile } from '@tailwindcss/node';
import { Scanner } from '@tailwindcss/oxide';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildIslands } from '../../generator/assets/islands.js';
import { createLocalBackend, type LocalBackend } from '../../generator/serve/backend.js';
import ChecklistTabs from '../../src/islands/ChecklistTabs.js';
import ContactForm from '../../src/islands/ContactForm.js';
import DiscountPopup from '../../src/islands/DiscountPopup.js';
import ReviewsWidget from '../../src/islands/ReviewsWidget.js';
import Toaster from '../../src/islands/Toaster.js';
import type { Hydrate } from '../../src/islands/hydrate.js';
import type { IslandName } from '../../src/islands/registry.js';
import { Island } from '../../templates/components/Island.js';
import { chromiumAvailable, collectConsole, launchBrowser, type ConsoleLog } from '../helpers/browser.js';
import { PHONE, checklistProps, checklistRooms, contactProps, discountProps, reviewsProps } from './fixtures.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const VENDOR_SCRIPT = reviewsProps.scriptUrl;

interface Hook { method: string; contentType: string | undefined; body: string }

let tmp: string;
let server: Server;
let hookServer: Server;
let backend: LocalBackend;
let browser: Browser;
let origin: string;
const hooks: Hook[] = [];

function island<P extends object>(name: IslandName, component: ComponentType<P>, props: P, hydrate: Hydrate): string {
  return renderToString(createElement(Island<P>, { name, component, props, hydrate }));
}

function pageHtml(body: string, entry: string, css: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Islands test</title><style>${css}</style></head><body><main class="mx-auto max-w-5xl p-6">${body}</main>
<script type="module" src="${entry}"></script></body></html>`;
}

async function tailwindCss(): Promise<string> {
  const cssPath = join(ROOT, 'templates/styles/site.css');
  const compiler = await compile(readFileSync(cssPath, 'utf8'), { base: dirname(cssPath), onDependency: () => {} });
  const scanner = new Scanner({ sources: compiler.sources.map((s) => ({ ...s, negated: s.negated ?? false })) });
  return compiler.build(scanner.scan());
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res(Buffer.concat(chunks).toString('utf8')));
  });
}

const listen = (s: Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));

beforeAll(async () => {
  if (!chromiumAvailable()) return;
  tmp = mkdtempSync(join(tmpdir(), 'islands-browser-'));
  hookServer = createServer(async (req, res) => {
    hooks.push({ method: req.method ?? '', contentType: req.headers['content-type'], body: await readBody(req) });
    res.writeHead(200);
    res.end('ok');
  });
  const hookPort = await listen(hookServer);
  const [built, css] = await Promise.all([
    buildIslands({ root: ROOT, outDir: join(tmp, 'assets'), webhookUrl: `http://127.0.0.1:${hookPort}/hook` }),
    tailwindCss(),
  ]);
  backend = await createLocalBackend({ env: {}, log: () => {} });
  const toaster = island('Toaster', Toaster, { closeLabel: 'Close' }, 'idle');
  const spacer = '<div style="height:3000px">spacer</div>';
  const pages: Record<string, string> = {
    '/contact': `<h1>Contact</h1>${island('ContactForm', ContactForm, contactProps, 'idle')}${toaster}`,
    '/popup': `<h1>Home</h1><button id="outside" type="button">Outside</button>${island('DiscountPopup', DiscountPopup, discountProps, 'idle')}${toaster}${spacer}`,
    '/checklist': `<h1>Cleaning Checklist</h1>${island('ChecklistTabs', ChecklistTabs, checklistProps, 'idle')}`,
    '/reviews': `<h1>Reviews</h1>${spacer}<section id="reviews">${island('ReviewsWidget', ReviewsWidget, reviewsProps, 'visible')}</section>`,
    '/reviews-twice': `${island('ReviewsWidget', ReviewsWidget, reviewsProps, 'visible')}${island('ReviewsWidget', ReviewsWidget, reviewsProps, 'visible')}`,
  };
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (await backend.handle(req, res)) return;
    if (url.pathname.startsWith('/assets/')) {
      try {
        const data = readFileSync(join(tmp, 'assets', url.pathname.slice('/assets/'.length).replace(/\.\./g, '')));
        res.writeHead(200, { 'Content-Type': extname(url.pathname) === '.js' ? 'text/javascript' : 'application/octet-stream' });
        res.end(data);
      } catch {
        res.writeHead(404);
        res.end();
      }
      return;
    }
    const body = pages[url.pathname];
    res.writeHead(body ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(body ? pageHtml(body, built.entry, css) : 'not found');
  });
  origin = `http://127.0.0.1:${await listen(server)}`;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
  await new Promise((r) => hookServer?.close(r));
  await backend?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

let context: BrowserContext;
let page: Page;
let log: ConsoleLog;
/** Console errors a test expects (substrings); any other console error fails the test. */
let expectedErrors: string[];

beforeEach(async ({ skip }) => {
  if (!chromiumAvailable()) skip();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // Never reach the real vendor CDN.
  await context.route(VENDOR_SCRIPT, (route) => route.abort());
  page = await context.newPage();
  log = collectConsole(page);
  expectedErrors = [];
  hooks.length = 0;
});

afterEach(async () => {
  if (!context) return;
  const unexpected = log.errors.filter((e) => !expectedErrors.some((x) => e.includes(x)));
  await context.close();
  expect(unexpected, 'console errors').toEqual([]);
});

/** Resolves when React has hydrated the island's root element. */
async function hydrated(name: IslandName): Promise<void> {
  await page.waitForFunction((n) => {
    const el = document.querySelector(`[data-island="${n}"]`)?.firstElementChild;
    return !!el && Object.keys(el).some((k) => k.startsWith('__reactFiber'));
  }, name);
}

async function rows(table: 'leads' | 'discount_leads'): Promise<Record<string, string>[]> {
  const cols = table === 'leads' ? 'first_name, last_name, email, phone, message, page' : 'email, phone, page';
  return (await backend.db.query<Record<string, string>>(`SELECT ${cols} FROM public.${table} ORDER BY created_at`)).rows;
}

function bodiesOf(path: string, sink: { url: string; body: unknown }[]) {
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === path) sink.push({ url: req.url(), body: JSON.parse(req.postData() ?? 'null') });
  });
}

/** axe-core WCAG 2.x A/AA violations inside the islands (page-level rules are the page's business). */
async function axeViolations(): Promise<string[]> {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }).axe;
    const islands = [...document.querySelectorAll('[data-island]')].flatMap((el) => [...el.children]);
    const result = await axe.run({ include: islands }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
    return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  });
}

describe('accessibility (axe)', () => {
  it('contact form with errors and a toast', async () => {
    await page.goto(`${origin}/contact`);
    await hydrated('ContactForm');
    await page.getByRole('button', { name: 'Get My Free Quote' }).click();
    await page.getByText('First name is required').waitFor();
    expect(await axeViolations()).toEqual([]);
  });

  it('open discount popup with errors', async () => {
    await page.clock.install();
    await page.goto(`${origin}/popup`);
    await hydrated('DiscountPopup');
    await page.clock.runFor(5000);
    await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Please enter a valid phone number').waitFor();
    await page.clock.resume();
    expect(await axeViolations()).toEqual([]);
  });

  it('checklist tabs, on a phone and on a desktop', async () => {
    await page.goto(`${origin}/checklist`);
    await page.getByRole('tablist').waitFor();
    expect(await axeViolations()).toEqual([]);
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await axeViolations()).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------

describe('ContactForm', () => {
  const form = () => page.locator('form');
  const fill = async (v: Partial<Record<'First Name' | 'Last Name' | 'Email' | 'Phone' | 'Message', string>>) => {
    for (const [label, value] of Object.entries(v)) await page.getByLabel(label, { exact: true }).fill(value);
  };
  const valid = { 'First Name': 'Ada', 'Last Name': 'Lovelace', Email: 'ada@example.com', Phone: '(408) 555-0100', Message: '3 bedrooms, deep clean' };

  it('shows every validation message under its field, then re-validates on change', async () => {
    await page.goto(`${origin}/contact`);
    await hydrated('ContactForm');
    await page.getByRole('button', { name: 'Get My Free Quote' }).click();
    const messages = {
      'First Name': 'First name is required',
      'Last Name': 'Last name is required',
      Email: 'Please enter a valid email address',
      Phone: 'Phone number is required',
      Message: 'Please tell us about your cleaning needs',
    };
    for (const [label, message] of Object.entries(messages)) {
      const input = page.getByLabel(label, { exact: true });
      await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
      const describedBy = await input.getAttribute('aria-describedby');
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(message);
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('firstName');
    await fill({ 'First Name': 'Ada', Email: 'ada@' });
    await expect.poll(() => page.getByText('First name is required').count()).toBe(0);
    expect(await page.getByLabel('First Name').getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByText('Please enter a valid email address').count()).toBe(1);
    await fill({ Email: 'ada@example.com' });
    await expect.poll(() => page.getByText('Please enter a valid email address').count()).toBe(0);
  });

  it('silently ignores a filled honeypot: no call, no message', async () => {
    const calls: string[] = [];
    page.on('request', (r) => { if (/\/(rest|functions)\/v1\//.test(r.url())) calls.push(r.url()); });
    await page.goto(`${origin}/contact`);
    await hydrated('ContactForm');
    await fill(valid);
    await page.locator('input[name="website"]').fill('http://spam.example', { force: true });
    await page.getByRole('button', { name: 'Get My Free Quote' }).click();
    await page.waitForTimeout(500);
    expect(calls).toEqual([]);
    expect(await page.locator('[data-toast]').count()).toBe(0);
    expect(await page.locator('[aria-invalid]').count()).toBe(0);
    expect(await page.getByLabel('First Name').inputValue()).toBe('Ada');
  });

  it('shows Sending... while pending, sends the spec bodies, toasts success and resets', async () => {
    const inserts: { url: string; body: unknown }[] = [];
    const notifies: { url: string; body: unknown }[] = [];
    bodiesOf('/rest/v1/leads', inserts);
    bodiesOf('/functions/v1/notify-telegram', notifies);
    await page.route('**/rest/v1/leads*', async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    const before = (await rows('leads')).length;
    await page.goto(`${origin}/contact`);
    await hydrated('ContactForm');
    await fill(valid);
    await page.getByRole('button', { name: 'Get My Free Quote' }).click();
    const sending = page.getByRole('button', { name: 'Sending...' });
    await sending.waitFor();
    expect(await sending.isDisabled()).toBe(true);
    const toast = page.locator('[role="status"] [data-toast="default"]');
    await toast.waitFor();
    expect(await toast.innerText()).toContain('Quote request sent!');
    expect(await toast.innerText()).toContain("We'll get back to you within 24 hours with your personalized quote.");
    expect(await page.getByRole('button', { name: 'Get My Free Quote' }).isEnabled()).toBe(true);
    for (const label of Object.keys(valid)) expect(await page.getByLabel(label, { exact: true }).inputValue()).toBe('');
    expect(await page.evaluate(() => sessionStorage.getItem('quote-form-draft'))).toBeNull();

    expect(inserts.map((i) => i.body)).toEqual([{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '(408) 555-0100', message: '3 bedrooms, deep clean', page: 'contact' }]);
    expect(new URL(inserts[0]!.url).searchParams.has('select')).toBe(false);
    expect(notifies.map((n) => n.body)).toEqual([{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '(408) 555-0100', message: '3 bedrooms, deep clean', page: 'contact' }]);
    const stored = await rows('leads');
    expect(stored.length).toBe(before + 1);
    expect(stored.at(-1)).toEqual(inserts[0]!.body);
  });

  it('keeps the form and shows a destructive toast with the phone when the insert fails; the draft survives a reload', async () => {
    expectedErrors = ['Quote request failed'];
    let notified = false;
    page.on('request', (r) => { if (r.url().includes('/functions/v1/')) notified = true; });
    await page.route('**/rest/v1/leads*', (route) => route.fulfill({
      status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'XX000', message: 'boom', details: null, hint: null }),
    }));
    await page.goto(`${origin}/contact`);
    await hydrated('ContactForm');
    await fill(valid);
    await page.getByRole('button', { name: 'Get My Free Quote' }).click();
    const toast = page.locator('[role="alert"] [data-toast="destructive"]');
    await toast.waitFor();
    expect(await toast.innerText()).toContain('Something went wrong');
    expect(await toast.innerText()).toContain(`Please try again or call us directly at ${PHONE}`);
    expect(log.errors.some((e) => e.includes('Quote request failed'))).toBe(true);
    expect(notified).toBe(false);
    for (const [label, value] of Object.entries(valid)) expect(await page.getByLabel(label, { exact: true }).inputValue()).toBe(value);
    await toast.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.locator('[data-toast]').count()).toBe(0);

    await page.reload();
    await hydrated('ContactForm');
    for (const [label, value] of Object.entries(valid)) {
      await expect.poll(() => page.getByLabel(label, { exact: true }).inputValue()).toBe(value);
    }
  });

  it('submits what was typed before hydration (the native post is held)', async () => {
    // Load entry only after typing and submitting: delay the island chunk.
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    await page.route('**/assets/ContactForm-*.js', async (route) => { await gate; await route.continue(); });
    const inserts: { url: string; body: unknown }[] = [];
    bodiesOf('/rest/v1/leads', inserts);
    await page.goto(`${origin}/contact`);
    await fill(valid);
    await page.getByRole('button', { name: 'Get My Free Quote' }).click();
    expect(page.url()).toBe(`${origin}/contact`);
    release();
    await page.locator('[data-toast="default"]').waitFor();
    expect(inserts.map((i) => (i.body as { email: string }).email)).toEqual(['ada@example.com']);
    expect(page.url()).toBe(`${origin}/contact`);
  });

  it('toasts disappear after about 6 seconds', async () => {
    await page.clock.install();
    await page.goto(`${origin}/contact`);
    await hydrated('Toaster');
    await hydrated('ContactForm');
    await fill(valid);
    await page.getByRole('button', { name: 'Get My Free Quote' }).click();
    await page.locator('[data-toast]').waitFor();
    await page.clock.runFor(5000);
    expect(await page.locator('[data-toast]').count()).toBe(1);
    await page.clock.runFor(1500);
    await expect.poll(() => page.locator('[data-toast]').count()).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------

describe('DiscountPopup', () => {
  const dialog = () => page.getByRole('dialog', { name: 'Save $25 on your first cleaning' });
  const isOpen = () => page.evaluate(() => !!document.querySelector('dialog')?.open);

  async function openPopup() {
    await page.clock.install();
    await page.goto(`${origin}/popup`);
    await hydrated('DiscountPopup');
    await page.clock.runFor(5000);
    await dialog().waitFor();
  }

  it('opens 5 s after page load, not before', async () => {
    await page.clock.install();
    await page.goto(`${origin}/popup`);
    await hydrated('DiscountPopup');
    const elapsed = await page.evaluate(() => performance.now());
    await page.clock.runFor(Math.max(0, 4900 - elapsed));
    expect(await isOpen()).toBe(false);
    await page.clock.runFor(200);
    await expect.poll(isOpen).toBe(true);
  });

  it('moves focus in, traps Tab, closes on Escape, returns focus and sets the session flag', async () => {
    await page.clock.install();
    await page.goto(`${origin}/popup`);
    await hydrated('DiscountPopup');
    await page.locator('#outside').focus();
    await page.clock.runFor(5000);
    await dialog().waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    const focusedInDialog = () => page.evaluate(() => !!document.activeElement?.closest('dialog'));
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await focusedInDialog()).toBe(true);
    }
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusedInDialog()).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect.poll(isOpen).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('outside');
    expect(await page.evaluate(() => sessionStorage.getItem('discount-popup-shown'))).not.toBeNull();

    await page.reload();
    await hydrated('DiscountPopup');
    await page.clock.runFor(20_000);
    expect(await isOpen()).toBe(false);
  });

  it('closes with the close button and on a backdrop click', async () => {
    await openPopup();
    await dialog().getByRole('button', { name: 'Close' }).click();
    await expect.poll(isOpen).toBe(false);
    await page.evaluate(() => sessionStorage.clear());
    await page.reload();
    await hydrated('DiscountPopup');
    await page.clock.runFor(5000);
    await dialog().waitFor();
    await dialog().getByLabel('Email').click(); // a click inside does not close
    expect(await isOpen()).toBe(true);
    await page.mouse.click(5, 5);
    await expect.poll(isOpen).toBe(false);
    expect(await page.evaluate(() => sessionStorage.getItem('discount-popup-shown'))).not.toBeNull();
  });

  it('opens on a scroll pause once 5 s passed since the first scroll', async () => {
    await page.clock.install();
    await page.goto(`${origin}/popup`);
    await hydrated('DiscountPopup');
    await page.mouse.wheel(0, 300);
    await page.clock.runFor(300);
    expect(await isOpen()).toBe(false);
    await page.clock.runFor(6000);
    await expect.poll(isOpen).toBe(true);
  });

  it('validates, shows Submitting..., sends insert, notification and webhook, then closes', async () => {
    const inserts: { url: string; body: unknown }[] = [];
    const notifies: { url: string; body: unknown }[] = [];
    bodiesOf('/rest/v1/discount_leads', inserts);
    bodiesOf('/functions/v1/notify-telegram', notifies);
    await openPopup();
    const d = dialog();
    await d.getByRole('button', { name: 'Submit' }).click();
    expect(await d.getByText('Please enter a valid email address').count()).toBe(1);
    expect(await d.getByText('Please enter a valid phone number').count()).toBe(1);
    await d.getByLabel('Email').fill('b@example.com');
    await d.getByLabel('Phone').fill('408555018');
    await expect.poll(() => d.getByText('Please enter a valid email address').count()).toBe(0);
    expect(await d.getByText('Please enter a valid phone number').count()).toBe(1);
    await d.getByLabel('Phone').fill('4085550186');
    await expect.poll(() => d.getByText('Please enter a valid phone number').count()).toBe(0);

    await page.clock.resume();
    await page.route('**/rest/v1/discount_leads*', async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await d.getByRole('button', { name: 'Submit' }).click();
    const busy = d.getByRole('button', { name: 'Submitting...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    const toast = page.locator('[role="status"] [data-toast="default"]');
    await toast.waitFor({ timeout: 10_000 });
    expect(await toast.innerText()).toContain('Success!');
    expect(await toast.innerText()).toContain("Thank you! We'll send you the $25 discount code shortly.");
    await expect.poll(isOpen).toBe(false);
    expect(await page.evaluate(() => sessionStorage.getItem('discount-popup-shown'))).not.toBeNull();

    expect(inserts.map((i) => i.body)).toEqual([{ email: 'b@example.com', phone: '4085550186', page: '/' }]);
    expect(new URL(inserts[0]!.url).searchParams.has('select')).toBe(false);
    expect(notifies.map((n) => n.body)).toEqual([{ firstName: 'Discount', lastName: 'Popup', email: 'b@example.com', phone: '4085550186', message: 'Signed up for $25 discount offer', page: '/' }]);
    await expect.poll(() => hooks.length).toBe(1);
    expect(hooks[0]!.method).toBe('POST');
    expect(hooks[0]!.contentType).toBe('text/plain;charset=UTF-8');
    const hook = JSON.parse(hooks[0]!.body) as Record<string, string>;
    expect(Object.keys(hook)).toEqual(['email', 'phone', 'page', 'timestamp', 'message']);
    expect(hook).toMatchObject({ email: 'b@example.com', phone: '4085550186', page: '/', message: 'Signed up for $25 discount offer' });
    expect(new Date(hook.timestamp!).toISOString()).toBe(hook.timestamp);
    expect((await rows('discount_leads')).at(-1)).toEqual({ email: 'b@example.com', phone: '4085550186', page: '/' });
  });

  it('shows the error toast and stays open when the insert fails; notification failures are only logged', async () => {
    expectedErrors = ['Discount sign-up failed'];
    await page.route('**/rest/v1/discount_leads*', (route) => route.fulfill({ status: 401, contentType: 'application/json', body: '{"code":"42501","message":"denied","details":null,"hint":null}' }));
    await openPopup();
    await page.clock.resume();
    await dialog().getByLabel('Email').fill('b@example.com');
    await dialog().getByLabel('Phone').fill('4085550186');
    await dialog().getByRole('button', { name: 'Submit' }).click();
    const toast = page.locator('[role="alert"] [data-toast="destructive"]');
    await toast.waitFor();
    expect(await toast.innerText()).toContain('Error');
    expect(await toast.innerText()).toContain('There was a problem submitting your information. Please try again.');
    expect(await isOpen()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('discount-popup-shown'))).toBeNull();
    expect(hooks).toEqual([]);

    await page.unroute('**/rest/v1/discount_leads*');
    await page.route('**/functions/v1/notify-telegram', (route) => route.fulfill({ status: 500, body: '{"ok":false}' }));
    expectedErrors.push('Lead notification failed');
    await dialog().getByRole('button', { name: 'Submit' }).click();
    await page.locator('[data-toast="default"]').waitFor();
    await expect.poll(isOpen).toBe(false);
    await expect.poll(() => hooks.length).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------

describe('ChecklistTabs', () => {
  it('without JavaScript shows every room and no tab list', async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const p = await ctx.newPage();
    await p.goto(`${origin}/checklist`);
    for (const room of checklistRooms) expect(await p.getByRole('heading', { level: 2, name: room.name }).isVisible()).toBe(true);
    expect(await p.getByRole('tablist').count()).toBe(0);
    expect(await p.locator('table').evaluateAll((ts) => ts.filter((t) => (t as HTMLElement).offsetParent !== null).length)).toBe(4);
    await p.getByRole('link', { name: 'Common' }).click();
    expect(new URL(p.url()).hash).toMatch(/panel-3$/);
    await ctx.close();
  });

  it('hydrating does not move the first room', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    await page.route('**/assets/ChecklistTabs-*.js', async (route) => { await gate; await route.continue(); });
    await page.goto(`${origin}/checklist`);
    const top = () => page.locator('[data-room="kitchen"] table').evaluate((t) => t.getBoundingClientRect().top);
    const before = await top();
    release();
    await page.getByRole('tablist').waitFor();
    expect(await top()).toBe(before);
  });

  it('after hydration is an ARIA tab set with arrow, Home and End keys', async () => {
    await page.goto(`${origin}/checklist`);
    const tabs = page.getByRole('tab');
    await page.getByRole('tablist').waitFor();
    expect(await tabs.allInnerTexts()).toEqual(['Kitchen', 'Bath', 'Bedroom', 'Common']);
    const state = () => page.evaluate(() => ({
      selected: [...document.querySelectorAll('[role=tab]')].map((t) => t.getAttribute('aria-selected')),
      tabindex: [...document.querySelectorAll('[role=tab]')].map((t) => t.getAttribute('tabindex')),
      visible: [...document.querySelectorAll('[role=tabpanel]')].filter((p) => !(p as HTMLElement).hidden).map((p) => p.getAttribute('data-room')),
      focused: document.activeElement?.textContent,
    }));
    expect(await state()).toMatchObject({ selected: ['true', 'false', 'false', 'false'], tabindex: ['0', '-1', '-1', '-1'], visible: ['kitchen'] });
    const panel = page.getByRole('tabpanel');
    expect(await panel.getAttribute('aria-labelledby')).toBe(await tabs.first().getAttribute('id'));
    expect(await tabs.first().getAttribute('aria-controls')).toBe(await panel.getAttribute('id'));

    await tabs.first().focus();
    await page.keyboard.press('ArrowRight');
    expect(await state()).toMatchObject({ selected: ['false', 'true', 'false', 'false'], tabindex: ['-1', '0', '-1', '-1'], visible: ['bathrooms'], focused: 'Bath' });
    await page.keyboard.press('End');
    expect(await state()).toMatchObject({ visible: ['common-areas'], focused: 'Common' });
    await page.keyboard.press('ArrowRight');
    expect(await state()).toMatchObject({ visible: ['kitchen'], focused: 'Kitchen' });
    await page.keyboard.press('ArrowLeft');
    expect(await state()).toMatchObject({ visible: ['common-areas'], focused: 'Common' });
    await page.keyboard.press('Home');
    expect(await state()).toMatchObject({ visible: ['kitchen'], focused: 'Kitchen' });
    await page.getByRole('tab', { name: 'Bedroom' }).click();
    expect(await state()).toMatchObject({ visible: ['bedrooms'] });
    // Tab leaves the tab list for the panel
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tabpanel');
  });

  it('shows cards on phones and the table from md up', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${origin}/checklist`);
    await page.getByRole('tablist').waitFor();
    const panel = page.getByRole('tabpanel');
    expect(await panel.locator('table').isVisible()).toBe(false);
    expect(await panel.locator('li').first().isVisible()).toBe(true);
    await page.setViewportSize({ width: 1024, height: 800 });
    expect(await panel.locator('table').isVisible()).toBe(true);
    expect(await panel.locator('li').first().isVisible()).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------

describe('ReviewsWidget', () => {
  const vendor = `document.querySelectorAll('.${reviewsProps.widgetId}').forEach(function (el) { var p = document.createElement('p'); p.textContent = 'Five stars from Ada'; el.appendChild(p); }); window.__vendorRuns = (window.__vendorRuns || 0) + 1;`;

  it('loads the vendor script only near the viewport and shows the widget', async () => {
    let requested = 0;
    await context.unroute(VENDOR_SCRIPT);
    await page.route(VENDOR_SCRIPT, (route) => { requested++; return route.fulfill({ contentType: 'text/javascript', body: vendor }); });
    await page.goto(`${origin}/reviews`);
    await page.waitForTimeout(600);
    expect(requested).toBe(0);
    expect(await page.getByText('Loading reviews...').isVisible()).toBe(true); // server HTML, below the fold
    const box = await page.locator('#reviews > div > div').first().boundingBox();
    await page.locator('#reviews').scrollIntoViewIfNeeded();
    await page.getByText('Five stars from Ada').waitFor();
    expect(requested).toBe(1);
    expect(await page.getByText('Loading reviews...').count()).toBe(0);
    expect((await page.locator('#reviews > div > div').first().boundingBox())!.height).toBe(box!.height);
  });

  it('adds the script once for two widgets', async () => {
    await context.unroute(VENDOR_SCRIPT);
    await page.route(VENDOR_SCRIPT, (route) => route.fulfill({ contentType: 'text/javascript', body: vendor }));
    await page.goto(`${origin}/reviews-twice`);
    await expect.poll(() => page.getByText('Five stars from Ada').count()).toBe(2);
    expect(await page.locator(`script[src="${VENDOR_SCRIPT}"]`).count()).toBe(1);
  });

  it('falls back to the link when the script fails', async () => {
    await page.goto(`${origin}/reviews`);
    await page.locator('#reviews').scrollIntoViewIfNeeded();
    const link = page.getByRole('link', { name: 'Read our Google reviews' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(reviewsProps.linkUrl);
    expect(await page.getByText('Our reviews could not be loaded here.').isVisible()).toBe(true);
  });

  it('falls back when the script renders nothing within 8 s', async () => {
    await context.unroute(VENDOR_SCRIPT);
    await page.route(VENDOR_SCRIPT, (route) => route.fulfill({ contentType: 'text/javascript', body: '/* renders nothing */' }));
    await page.clock.install();
    await page.goto(`${origin}/reviews`);
    await page.locator('#reviews').scrollIntoViewIfNeeded();
    await hydrated('ReviewsWidget');
    await page.clock.runFor(7000);
    expect(await page.getByText('Loading reviews...').isVisible()).toBe(true);
    await page.clock.runFor(1500);
    await page.getByRole('link', { name: 'Read our Google reviews' }).waitFor();
  });

  it('shows the link, not the loading text, without JavaScript', async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const p = await ctx.newPage();
    await p.goto(`${origin}/reviews-twice`);
    expect(await p.getByRole('link', { name: 'Read our Google reviews' }).first().isVisible()).toBe(true);
    expect(await p.getByText('Loading reviews...').first().isVisible()).toBe(false);
    await ctx.close();
  });
});
