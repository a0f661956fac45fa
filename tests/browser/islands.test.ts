/**
 * The islands of the built site in Chromium: the lead forms (spec sections 2, 4, 5, 7, 8, 9) through
 * the real supabase-js against the real server with the embedded backend, the toasts, the checklist
 * tabs, the reviews widget, which code each page downloads, and axe-core inside the open widgets.
 * The shared build (tests/globalSetup.ts) posts the discount popup's webhook to a receiver on
 * 127.0.0.1, whose log receivedHooks(site.url) reads.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkContent } from '../../generator/build.js';
import type { SiteModel } from '../../contracts/content.js';
import type { IslandName } from '../../src/islands/registry.js';
import { touchColumns } from '../../src/lib/attribution.js';
import { collectConsole, injectAxe, type ConsoleLog } from '../../tools/browser.js';
import { clearReceivedHooks, receivedHooks, resetRateLimits, useBrowser, useSite } from '../helpers/site.js';

const PHONE = '(408) 555-0186';

interface Sent { url: string; body: unknown }

const site = useSite();
const browser = useBrowser();
let model: SiteModel;
beforeAll(async () => { model = (await checkContent({ root: process.cwd() })).model; });

let context: BrowserContext;
let page: Page;
let log: ConsoleLog;
/** Console errors a test expects (substrings); any other console error fails the test. */
let expectedErrors: string[];

beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route(model.site.reviews.scriptUrl, (route) => route.abort()); // no internet; the widget falls back
  page = await context.newPage();
  log = collectConsole(page);
  expectedErrors = [];
  await clearReceivedHooks(site.url);
  await resetRateLimits(site.backend); // every test is a new visitor, all from 127.0.0.1
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

function capture(path: string): Sent[] {
  const sink: Sent[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === path) sink.push({ url: req.url(), body: JSON.parse(req.postData() ?? 'null') });
  });
  return sink;
}

/** The touches a visit straight to `path` sends with its lead (issue 31): a direct visit, the first and the last. */
function directVisit(path: string) {
  const touch = { landing_path: path, touch_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown as string };
  return touchColumns({ first: touch, last: touch });
}

async function rows(table: 'leads' | 'discount_leads'): Promise<Record<string, string | null>[]> {
  const cols = `${table === 'leads' ? 'first_name, last_name, email, phone, message, page' : 'email, phone, page'}, landing_path, referrer_path`;
  return (await site.backend.db.query<Record<string, string>>(`SELECT ${cols} FROM public.${table} ORDER BY created_at`)).rows;
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------

describe('contact form (/contact)', () => {
  const LABELS = ['First Name', 'Last Name', 'Email', 'Phone', 'Message'] as const;
  type Label = (typeof LABELS)[number];
  const valid: Record<Label, string> = { 'First Name': 'Ada', 'Last Name': 'Lovelace', Email: 'ada@example.com', Phone: '(408) 555-0100', Message: 'Deep clean, 3 bedrooms, 2 baths' };
  const form = () => page.locator('[data-island="ContactForm"] form');
  const input = (label: Label) => form().getByLabel(label, { exact: true });
  const submit = () => form().locator('button[type="submit"]');
  async function fill(values: Partial<Record<Label, string>>) {
    for (const [label, value] of Object.entries(values)) await input(label as Label).fill(value);
  }
  async function open() {
    await page.goto(`${site.url}/contact`);
    await hydrated('ContactForm');
  }

  it('shows every validation message (spec 5) under its field and re-validates on change', async () => {
    await open();
    await submit().click();
    const messages: Record<Label, string> = {
      'First Name': 'First name is required',
      'Last Name': 'Last name is required',
      Email: 'Please enter a valid email address',
      Phone: 'Phone number is required',
      Message: 'Please tell us about your cleaning needs',
    };
    for (const label of LABELS) {
      await expect.poll(() => input(label).getAttribute('aria-invalid')).toBe('true');
      const describedBy = await input(label).getAttribute('aria-describedby');
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(messages[label]);
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('firstName');
    await fill({ Email: 'ada@example' });
    expect(await form().getByText('Please enter a valid email address').count()).toBe(1);
    await fill({ 'First Name': 'Ada', Email: 'ada@example.com' });
    await expect.poll(() => form().getByText('First name is required').count()).toBe(0);
    expect(await input('First Name').getAttribute('aria-invalid')).toBeNull();
    expect(await form().getByText('Please enter a valid email address').count()).toBe(0);
    expect(await form().getByText('Last name is required').count()).toBe(1);
  });

  it('ignores a filled honeypot silently: no request, no message', async () => {
    const calls: string[] = [];
    page.on('request', (r) => { if (/\/(rest|functions)\/v1\//.test(r.url())) calls.push(r.url()); });
    await open();
    await fill(valid);
    const honeypot = form().locator('input[name="website"]');
    expect(await honeypot.getAttribute('tabindex')).toBe('-1');
    expect(await honeypot.getAttribute('autocomplete')).toBe('off');
    expect(await honeypot.evaluate((el) => !!el.closest('[aria-hidden="true"]'))).toBe(true);
    await honeypot.fill('https://spam.example', { force: true });
    await submit().click();
    await delay(700);
    expect(calls).toEqual([]);
    expect(await page.locator('[data-toast]').count()).toBe(0);
    expect(await form().locator('[aria-invalid]').count()).toBe(0);
    expect(await submit().textContent()).not.toBe('Sending...');
    expect(await input('First Name').inputValue()).toBe('Ada');
  });

  it('shows Sending... while the insert is pending, sends the spec bodies, toasts success and resets', async () => {
    const inserts = capture('/rest/v1/leads');
    const notifies = capture('/functions/v1/notify-telegram');
    await page.route('**/rest/v1/leads*', async (route) => { await delay(1000); await route.continue(); });
    await open();
    await fill(valid);
    await submit().click();
    await expect.poll(() => submit().textContent()).toBe('Sending...');
    expect(await submit().isDisabled()).toBe(true);
    const toast = page.locator('[role="status"] [data-toast="default"]');
    await toast.waitFor();
    const text = await toast.innerText();
    expect(text).toContain('Quote request sent!');
    expect(text).toContain("We'll get back to you within 24 hours with your personalized quote.");
    expect(await submit().isEnabled()).toBe(true);
    expect(await submit().textContent()).not.toBe('Sending...');
    for (const label of LABELS) expect(await input(label).inputValue()).toBe('');
    expect(await page.evaluate(() => sessionStorage.getItem('quote-form-draft'))).toBeNull();

    // A first visit straight to /contact: landing there, no page before it (tests/browser/lead-source.test.ts has more).
    const row = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '(408) 555-0100', message: 'Deep clean, 3 bedrooms, 2 baths', page: 'contact', landing_path: '/contact', referrer_path: null };
    // lang: the language of the page (its <html lang="en-US">), which the office calls back in
    expect(inserts.map((s) => s.body)).toEqual([{ ...row, lang: 'en', ...directVisit('/contact') }]);
    expect(new URL(inserts[0]!.url).searchParams.has('select')).toBe(false);
    expect(notifies.map((s) => s.body)).toEqual([{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '(408) 555-0100', message: 'Deep clean, 3 bedrooms, 2 baths', page: 'contact' }]);
    expect((await rows('leads')).at(-1)).toEqual(row);

    // Reloading after success shows an empty form.
    await page.reload();
    await hydrated('ContactForm');
    await delay(200);
    for (const label of LABELS) expect(await input(label).inputValue()).toBe('');
  });

  it('keeps the form, logs, and shows the destructive toast with the phone when the insert fails', async () => {
    expectedErrors = ['Quote request failed'];
    const notifies = capture('/functions/v1/notify-telegram');
    await page.route('**/rest/v1/leads*', (route) => route.fulfill({
      status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'XX000', message: 'boom', details: null, hint: null }),
    }));
    await open();
    await fill(valid);
    await submit().click();
    const toast = page.locator('[role="alert"] [data-toast="destructive"]');
    await toast.waitFor();
    const text = await toast.innerText();
    expect(text).toContain('Something went wrong');
    expect(text).toContain(`Please try again or call us directly at ${PHONE}`);
    expect(log.errors.some((e) => e.includes('Quote request failed'))).toBe(true);
    expect(notifies).toEqual([]);
    for (const label of LABELS) expect(await input(label).inputValue()).toBe(valid[label]);
    expect(await submit().isEnabled()).toBe(true);
    await toast.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.locator('[data-toast]').count()).toBe(0);

    // The draft survives a reload.
    await page.reload();
    await hydrated('ContactForm');
    for (const label of LABELS) await expect.poll(() => input(label).inputValue()).toBe(valid[label]);
  });

  it('takes two quotes in a row from one visitor: both stored, both toasted, each notified once', async () => {
    const notified: number[] = [];
    page.on('response', (r) => { if (new URL(r.url()).pathname === '/functions/v1/notify-telegram') notified.push(r.status()); });
    const before = (await rows('leads')).length;
    await open();
    for (const message of ['Deep clean, 3 bedrooms', 'Deep clean, 3 bedrooms and the garage']) {
      await fill({ ...valid, Message: message });
      await submit().click();
      const toast = page.locator('[role="status"] [data-toast="default"]');
      await toast.waitFor();
      await toast.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => page.locator('[data-toast]').count()).toBe(0);
    }
    expect((await rows('leads')).length).toBe(before + 2);
    await expect.poll(() => notified).toEqual([200, 200]);
    const { rows: fresh } = await site.backend.db.query<{ notified_at: Date | null }>('SELECT notified_at FROM public.leads ORDER BY created_at DESC LIMIT 2');
    expect(fresh.every((r) => r.notified_at instanceof Date)).toBe(true);
  });

  it('a visitor over the limit gets the failure toast and keeps what they typed', async () => {
    expectedErrors = ['Quote request failed', '429'];
    const limit = (await site.backend.db.query<{ n: number }>(`SELECT per_client AS n FROM private.rate_limits WHERE bucket = 'leads'`)).rows[0]!.n;
    await site.backend.db.exec(`UPDATE private.rate_limits SET per_client = 1 WHERE bucket = 'leads'`);
    try {
      await open();
      await fill(valid);
      await submit().click();
      await page.locator('[data-toast="default"]').waitFor();
      await fill({ ...valid, Message: 'One more thing: the windows too' });
      await submit().click();
      const toast = page.locator('[role="alert"] [data-toast="destructive"]');
      await toast.waitFor();
      expect(await toast.innerText()).toContain(`Please try again or call us directly at ${PHONE}`);
      expect(await input('Message').inputValue()).toBe('One more thing: the windows too');
      for (const label of ['First Name', 'Last Name', 'Email', 'Phone'] as const) expect(await input(label).inputValue()).toBe(valid[label]);
    } finally {
      await site.backend.db.query(`UPDATE private.rate_limits SET per_client = $1 WHERE bucket = 'leads'`, [limit]);
    }
  });

  it('keeps a half-typed draft across a reload', async () => {
    await open();
    await fill({ 'First Name': 'Grace', Message: 'Move-out clean' });
    await page.reload();
    await hydrated('ContactForm');
    await expect.poll(() => input('First Name').inputValue()).toBe('Grace');
    expect(await input('Message').inputValue()).toBe('Move-out clean');
    expect(await input('Email').inputValue()).toBe('');
  });

  it('a notification failure is only logged: the visitor still gets the success toast', async () => {
    expectedErrors = ['Lead notification failed'];
    await page.route('**/functions/v1/notify-telegram', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"ok":false,"error":"down"}' }));
    await open();
    await fill(valid);
    await submit().click();
    await page.locator('[data-toast="default"]').waitFor();
    expect(await page.locator('[data-toast="destructive"]').count()).toBe(0);
    expect(log.errors.some((e) => e.includes('Lead notification failed'))).toBe(true);
  });

  /** A form submitted while `script` has not arrived yet: nothing is posted natively, and the lead is sent once it has. */
  async function submitBefore(script: string) {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    await page.route(script, async (route) => { await gate; await route.continue(); });
    const inserts = capture('/rest/v1/leads');
    await page.goto(`${site.url}/contact`);
    await fill(valid);
    await submit().click();
    expect(page.url()).toBe(`${site.url}/contact`);
    release();
    await page.locator('[data-toast="default"]').waitFor();
    expect(inserts.map((i) => (i.body as { email: string }).email)).toEqual(['ada@example.com']);
    expect(page.url()).toBe(`${site.url}/contact`);
  }

  it('submits what was typed before hydration (the native post is held)', () => submitBefore('**/assets/ContactForm-*.js'));

  // The page script starts after the first paint (src/scripts/font-loader.js): until it runs, nothing else holds the form.
  it('submits what was sent before the page script itself ran (the inline loader holds it)', () => submitBefore('**/assets/entry-*.js'));
});

// ---------------------------------------------------------------------------------------------

describe('discount popup (/)', () => {
  const dialog = () => page.getByRole('dialog', { name: 'Save $25 on your first cleaning' });
  const isOpen = () => page.evaluate(() => !!document.querySelector('[data-island="DiscountPopup"] dialog')?.hasAttribute('open'));
  const flag = () => page.evaluate(() => sessionStorage.getItem('discount-popup-shown'));

  /** The page loaded; the popup's code is not: the page script hydrates it when it is due. */
  async function load() {
    await page.clock.install();
    await page.goto(`${site.url}/`);
  }
  async function openPopup() {
    await load();
    await page.clock.runFor(5000);
    await dialog().waitFor();
  }

  it('is not visible in the server HTML and opens 5000 ms after page load', async () => {
    await load();
    expect(await isOpen()).toBe(false);
    const elapsed = await page.evaluate(() => performance.now());
    await page.clock.runFor(Math.max(0, 4900 - elapsed));
    expect(await isOpen()).toBe(false);
    await page.clock.runFor(200);
    await expect.poll(isOpen).toBe(true);
    expect(await dialog().getByRole('heading', { name: 'Save $25 on your first cleaning' }).isVisible()).toBe(true);
    const text = await dialog().innerText();
    expect(text).toMatch(/STOP/);
    expect(text).toMatch(/HELP/);
    expect(text).toMatch(/Standard message and data rates/);
    expect(await flag()).toBeNull(); // only closing or a successful submit sets it
  });

  it('loads its code only as it is about to open, and the Supabase client only once the visitor types; then submits', async () => {
    const scripts: string[] = [];
    page.on('request', (r) => { if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname); });
    const loaded = (name: string) => scripts.some((u) => new RegExp(`^/assets/${name}-[\\w-]+\\.js$`).test(u));
    await load();
    const elapsed = await page.evaluate(() => performance.now());
    await page.clock.runFor(Math.max(0, 2500 - elapsed));
    expect(loaded('DiscountPopup')).toBe(false);
    expect(loaded('react')).toBe(false);
    await page.clock.runFor(2600);
    await dialog().waitFor();
    // Open, focused, and left alone past the opening: no validation code, no Supabase client.
    await page.clock.runFor(2500);
    await delay(1000);
    expect(loaded('DiscountPopup')).toBe(true);
    expect(loaded('supabase-js')).toBe(false);
    expect(loaded('forms')).toBe(false);
    await page.clock.resume();
    await dialog().getByLabel('Email').pressSequentially('d@example.com');
    await expect.poll(() => loaded('supabase-js')).toBe(true);
    await dialog().getByLabel('Phone').fill('4085550186');
    await dialog().getByRole('button', { name: 'Submit' }).click();
    await page.locator('[role="status"] [data-toast="default"]').waitFor({ timeout: 15_000 });
    await expect.poll(isOpen).toBe(false);
    expect((await rows('discount_leads')).at(-1)).toEqual({ email: 'd@example.com', phone: '4085550186', page: '/', landing_path: '/', referrer_path: null });
  });

  it('opens on a 100 ms scroll pause once 5 s have passed since the first scroll', async () => {
    await load();
    await page.mouse.wheel(0, 400);
    await page.clock.runFor(300);
    expect(await isOpen()).toBe(false);
    await page.clock.runFor(6000);
    await expect.poll(isOpen).toBe(true);
  });

  it('traps focus, closes on Escape, returns focus, and never opens again in the session', async () => {
    await load();
    const before = page.locator('a[href="/contact"]').first();
    await before.focus();
    await page.clock.runFor(5000);
    await dialog().waitFor();
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('email');
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect(await page.evaluate(() => !!document.activeElement?.closest('dialog')), key).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect.poll(isOpen).toBe(false);
    expect(await before.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await flag()).not.toBeNull();

    await page.reload();
    await page.mouse.wheel(0, 400);
    await page.clock.runFor(30_000);
    expect(await isOpen()).toBe(false);

    // Another page of the same session: still not.
    await page.goto(`${site.url}/deep-cleaning-san-francisco`);
    await page.clock.runFor(30_000);
    expect(await isOpen()).toBe(false);
  });

  it('closes with the close button and with a click on the backdrop', async () => {
    await openPopup();
    await dialog().getByRole('button', { name: 'Close' }).click();
    await expect.poll(isOpen).toBe(false);
    expect(await flag()).not.toBeNull();

    await page.evaluate(() => sessionStorage.clear());
    await page.reload();
    await page.clock.runFor(5000);
    await dialog().waitFor();
    await dialog().getByLabel('Phone').click();
    expect(await isOpen()).toBe(true);
    await page.mouse.click(4, 4);
    await expect.poll(isOpen).toBe(false);
    expect(await flag()).not.toBeNull();
  });

  it('validates, shows Submitting..., sends insert, notification and webhook exactly, toasts and closes', async () => {
    const inserts = capture('/rest/v1/discount_leads');
    const notifies = capture('/functions/v1/notify-telegram');
    await openPopup();
    const d = dialog();
    await d.getByRole('button', { name: 'Submit' }).click();
    await d.getByText('Please enter a valid email address').waitFor(); // after the validation code loaded
    expect(await d.getByText('Please enter a valid email address').count()).toBe(1);
    expect(await d.getByText('Please enter a valid phone number').count()).toBe(1);
    expect(await d.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await d.getByLabel('Email').fill('b@example.com');
    await d.getByLabel('Phone').fill('408555018'); // 9 characters
    await expect.poll(() => d.getByText('Please enter a valid email address').count()).toBe(0);
    expect(await d.getByText('Please enter a valid phone number').count()).toBe(1);
    await d.getByLabel('Phone').fill('4085550186');
    await expect.poll(() => d.getByText('Please enter a valid phone number').count()).toBe(0);

    await page.clock.resume();
    await page.route('**/rest/v1/discount_leads*', async (route) => { await delay(1000); await route.continue(); });
    const before = Date.now();
    await d.getByRole('button', { name: 'Submit' }).click();
    const busy = d.getByRole('button', { name: 'Submitting...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    const toast = page.locator('[role="status"] [data-toast="default"]');
    await toast.waitFor({ timeout: 15_000 });
    expect(await toast.innerText()).toContain('Success!');
    expect(await toast.innerText()).toContain("Thank you! We'll send you the $25 discount code shortly.");
    await expect.poll(isOpen).toBe(false);
    expect(await flag()).not.toBeNull();

    expect(inserts.map((s) => s.body)).toEqual([{ email: 'b@example.com', phone: '4085550186', page: '/', lang: 'en', landing_path: '/', referrer_path: null, ...directVisit('/') }]);
    expect(new URL(inserts[0]!.url).searchParams.has('select')).toBe(false);
    expect(notifies.map((s) => s.body)).toEqual([{
      firstName: model.forms.discount.notification.firstName, lastName: model.forms.discount.notification.lastName, email: 'b@example.com', phone: '4085550186', message: 'Signed up for $25 discount offer', page: '/',
    }]);
    await expect.poll(async () => (await receivedHooks(site.url)).length).toBe(1);
    const hooks = await receivedHooks(site.url);
    expect(hooks[0]!.method).toBe('POST');
    expect(hooks[0]!.contentType).toBe('text/plain;charset=UTF-8');
    const hook = JSON.parse(hooks[0]!.body) as Record<string, string>;
    expect(Object.keys(hook)).toEqual(['email', 'phone', 'page', 'timestamp', 'message']);
    expect(hook).toMatchObject({ email: 'b@example.com', phone: '4085550186', page: '/', message: 'Signed up for $25 discount offer' });
    expect(new Date(hook.timestamp!).toISOString()).toBe(hook.timestamp);
    expect(Math.abs(Date.parse(hook.timestamp!) - before)).toBeLessThan(60_000);
    expect((await rows('discount_leads')).at(-1)).toEqual({ email: 'b@example.com', phone: '4085550186', page: '/', landing_path: '/', referrer_path: null });
  });

  it('records the page path it was shown on', async () => {
    const inserts = capture('/rest/v1/discount_leads');
    await page.clock.install();
    await page.goto(`${site.url}/locations/deep-cleaning-san-jose-ca`);
    await page.clock.runFor(5000);
    await dialog().waitFor();
    await page.clock.resume();
    await dialog().getByLabel('Email').fill('c@example.com');
    await dialog().getByLabel('Phone').fill('(408) 555-0111');
    await dialog().getByRole('button', { name: 'Submit' }).click();
    await page.locator('[data-toast="default"]').waitFor();
    expect(inserts.map((s) => s.body)).toEqual([{ email: 'c@example.com', phone: '(408) 555-0111', page: '/locations/deep-cleaning-san-jose-ca', lang: 'en', landing_path: '/locations/deep-cleaning-san-jose-ca', referrer_path: null, ...directVisit('/locations/deep-cleaning-san-jose-ca') }]);
  });

  it('shows the error toast and stays open when the insert fails; notification and webhook failures are only logged', async () => {
    expectedErrors = ['Discount sign-up failed'];
    await page.route('**/rest/v1/discount_leads*', (route) => route.fulfill({
      status: 401, contentType: 'application/json', body: '{"code":"42501","message":"permission denied","details":null,"hint":null}',
    }));
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
    expect(await flag()).toBeNull();
    expect(await receivedHooks(site.url)).toEqual([]);

    await page.unroute('**/rest/v1/discount_leads*');
    await page.route('**/functions/v1/notify-telegram', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"ok":false,"error":"down"}' }));
    await page.route('**/hook', (route) => route.abort());
    expectedErrors.push('Lead notification failed', 'Lead webhook failed');
    await dialog().getByRole('button', { name: 'Submit' }).click();
    await page.locator('[data-toast="default"]').waitFor();
    await expect.poll(isOpen).toBe(false);
    expect(log.errors.filter((e) => e.includes('Lead notification failed') || e.includes('Lead webhook failed'))).toHaveLength(2);
  });
});

// ---------------------------------------------------------------------------------------------

describe('toasts', () => {
  it('close themselves after about 6 seconds', async () => {
    await page.clock.install();
    await page.goto(`${site.url}/contact`);
    await hydrated('ContactForm');
    const form = page.locator('[data-island="ContactForm"] form');
    for (const [label, value] of [['First Name', 'Ada'], ['Last Name', 'L'], ['Email', 'a@example.com'], ['Phone', '1'], ['Message', 'm']] as const) {
      await form.getByLabel(label, { exact: true }).fill(value);
    }
    await form.locator('button[type="submit"]').click();
    await page.locator('[data-toast]').waitFor();
    await page.clock.runFor(5000);
    expect(await page.locator('[data-toast]').count()).toBe(1);
    await page.clock.runFor(1500);
    await expect.poll(() => page.locator('[data-toast]').count()).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------

describe('island code', () => {
  function scripts(): string[] {
    const urls: string[] = [];
    page.on('request', (r) => { if (r.resourceType() === 'script') urls.push(new URL(r.url()).pathname); });
    return urls;
  }
  const chunk = (urls: string[], name: string) => urls.some((u) => new RegExp(`^/assets/${name}-[\\w-]+\\.js$`).test(u));

  it('a page downloads only the code of the islands it contains', async () => {
    const urls = scripts();
    await page.goto(`${site.url}/contact`);
    await hydrated('ContactForm');
    expect(chunk(urls, 'entry')).toBe(true);
    expect(chunk(urls, 'ContactForm')).toBe(true);
    for (const other of ['DiscountPopup', 'ChecklistTabs', 'ReviewsWidget', 'Toaster', 'forms', 'supabase-js']) expect(chunk(urls, other), other).toBe(false);
    // Focus alone is no reason: validation and supabase-js arrive once the visitor types
    await page.locator('[data-island="ContactForm"] input').first().focus();
    await delay(500);
    expect(chunk(urls, 'supabase-js')).toBe(false);
    await page.keyboard.type('A');
    await expect.poll(() => chunk(urls, 'supabase-js')).toBe(true);
    expect(chunk(urls, 'forms')).toBe(true);
    expect(chunk(urls, 'Toaster')).toBe(false); // the toasts' code comes with the first toast
  });
});

// ---------------------------------------------------------------------------------------------

describe('checklist tabs (/checklist)', () => {
  it('without JavaScript shows all four rooms, every task count of the spec and no tab list; the room links jump', async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const p = await ctx.newPage();
    await p.goto(`${site.url}/checklist`);
    for (const name of ['Kitchen', 'Bathrooms', 'Bedrooms', 'Common Areas']) expect(await p.getByRole('heading', { level: 2, name, exact: true }).isVisible(), name).toBe(true);
    expect(await p.getByRole('tablist').count()).toBe(0);
    const counts = await p.locator('[data-room]').evaluateAll((els) => els.map((el) => el.querySelectorAll('tbody tr').length));
    expect(counts).toEqual([23, 19, 16, 15]);
    expect(await p.locator('table').evaluateAll((ts) => ts.filter((t) => (t as HTMLElement).offsetParent !== null).length)).toBe(4);
    await p.getByRole('link', { name: 'Common', exact: true }).click();
    expect(new URL(p.url()).hash).toBe('#checklist-common-areas');
    await ctx.close();
  });

  it('hydrating does not move the first room', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    await page.route('**/assets/ChecklistTabs-*.js', async (route) => { await gate; await route.continue(); });
    await page.goto(`${site.url}/checklist`);
    const top = () => page.locator('[data-room="kitchen"] table').evaluate((t) => t.getBoundingClientRect().top);
    const before = await top();
    release();
    await page.getByRole('tablist').waitFor();
    expect(await top()).toBe(before);
  });

  it('after hydration is an ARIA tab set, Kitchen first, with arrow, Home and End keys', async () => {
    await page.goto(`${site.url}/checklist`);
    const tabs = page.getByRole('tab');
    await page.getByRole('tablist').waitFor();
    expect(await tabs.allInnerTexts()).toEqual(['Kitchen', 'Bath', 'Bedroom', 'Common']);
    expect(await page.getByRole('tabpanel').count()).toBe(1);
    expect(await page.getByRole('tabpanel').getByRole('columnheader').allInnerTexts()).toEqual(['Task', 'Routine Clean', 'Deep Clean', 'Move-In/Out']);
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
    await page.goto(`${site.url}/checklist`);
    await page.getByRole('tablist').waitFor();
    const panel = page.getByRole('tabpanel');
    const layout = () => panel.evaluate((p) => ({
      header: p.querySelector('thead')!.getBoundingClientRect().height,
      row: getComputedStyle(p.querySelector('tbody tr')!).display,
    }));
    expect(await layout()).toEqual({ header: 1, row: 'grid' }); // header row visually hidden, each task a card
    await page.setViewportSize({ width: 1024, height: 800 });
    const desktop = await layout();
    expect(desktop.row).toBe('table-row');
    expect(desktop.header).toBeGreaterThan(30);
  });
});

// ---------------------------------------------------------------------------------------------

describe('reviews widget (/)', () => {
  const box = () => page.locator('[data-island="ReviewsWidget"] > div').first();
  const scrollTo = () => page.locator('[data-island="ReviewsWidget"]').first().evaluate((el) => el.firstElementChild?.scrollIntoView());
  /** A stand-in for the vendor script: it fills every widget element. */
  const vendor = () => `document.querySelectorAll('.${model.site.reviews.widgetId}').forEach(function (el) { var p = document.createElement('p'); p.textContent = 'Five stars from Ada'; el.appendChild(p); }); window.__vendorRuns = (window.__vendorRuns || 0) + 1;`;

  beforeEach(async () => {
    // The discount popup stays shut, as for a visitor who already closed it.
    await context.addInitScript((flag) => sessionStorage.setItem(flag, '1'), model.forms.discount.sessionFlag);
  });

  it('loads the vendor script only near the viewport, then shows the widget in the same space', async () => {
    let requested = 0;
    await context.unroute(model.site.reviews.scriptUrl);
    await page.route(model.site.reviews.scriptUrl, (route) => { requested++; return route.fulfill({ contentType: 'text/javascript', body: vendor() }); });
    await page.goto(`${site.url}/`);
    await page.waitForTimeout(600);
    expect(requested).toBe(0);
    expect(await page.getByText(model.site.reviews.loading).isVisible()).toBe(true); // server HTML, below the fold
    const before = await box().boundingBox();
    await scrollTo();
    await page.getByText('Five stars from Ada').waitFor();
    expect(requested).toBe(1);
    expect(await page.getByText(model.site.reviews.loading).count()).toBe(0);
    expect((await box().boundingBox())!.height).toBe(before!.height);
  });

  it('adds the vendor script once for two widgets on a page', async () => {
    await context.unroute(model.site.reviews.scriptUrl);
    // Like the vendor's own script, the stand-in also fills widgets that appear after it ran.
    const watching = `${vendor()} new MutationObserver(function () { document.querySelectorAll('.${model.site.reviews.widgetId}:empty').forEach(function (el) { var p = document.createElement('p'); p.textContent = 'Five stars from Ada'; el.appendChild(p); }); }).observe(document.body, { childList: true, subtree: true });`;
    await page.route(model.site.reviews.scriptUrl, (route) => route.fulfill({ contentType: 'text/javascript', body: watching }));
    // The home page as built, with its reviews island twice.
    await page.route(`${site.url}/`, async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      const island = elementAt(html, html.indexOf('<div data-island="ReviewsWidget"'));
      await route.fulfill({ response, body: html.replace(island, island + island) });
    });
    await page.goto(`${site.url}/`);
    expect(await page.locator('[data-island="ReviewsWidget"]').count()).toBe(2);
    // Both in view at once (each keeps 420px for the widget), as two widgets side by side would be.
    await page.setViewportSize({ width: 1280, height: 1000 });
    await scrollTo();
    await expect.poll(() => page.getByText('Five stars from Ada').count()).toBe(2);
    expect(await page.locator(`script[src="${model.site.reviews.scriptUrl}"]`).count()).toBe(1);
  });

  it('falls back to the link when the script cannot load', async () => {
    await page.goto(`${site.url}/`);
    await scrollTo();
    const link = page.locator('[data-island="ReviewsWidget"]').getByRole('link', { name: model.site.reviews.linkLabel });
    await link.waitFor();
    expect(await link.isVisible()).toBe(true);
    expect(await link.getAttribute('href')).toBe(model.site.reviews.linkUrl);
    expect(await page.getByText(model.site.reviews.fallback).isVisible()).toBe(true);
    // The box fits the text: no 420 px of empty space around one line.
    const fit = await page.locator('[data-island="ReviewsWidget"] > div').evaluate((box) => {
      const text = box.querySelector('p')!.getBoundingClientRect().height;
      return box.getBoundingClientRect().height - text;
    });
    expect(fit).toBeLessThanOrEqual(48 + 1); // its padding, p-6 top and bottom
  });

  it('falls back to the link when the script renders nothing within 8 s', async () => {
    await context.unroute(model.site.reviews.scriptUrl);
    await page.route(model.site.reviews.scriptUrl, (route) => route.fulfill({ contentType: 'text/javascript', body: '/* renders nothing */' }));
    await page.clock.install();
    await page.goto(`${site.url}/`);
    await scrollTo();
    await hydrated('ReviewsWidget');
    await page.clock.runFor(7000);
    expect(await page.getByText(model.site.reviews.loading).isVisible()).toBe(true);
    await page.clock.runFor(1500);
    await page.locator('[data-island="ReviewsWidget"]').getByRole('link', { name: model.site.reviews.linkLabel }).waitFor();
  });

  it('shows the link, not the loading text, without JavaScript', async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const p = await ctx.newPage();
    await p.goto(`${site.url}/`);
    expect(await p.locator('[data-island="ReviewsWidget"]').getByRole('link', { name: model.site.reviews.linkLabel }).isVisible()).toBe(true);
    expect(await p.getByText(model.site.reviews.loading).isVisible()).toBe(false);
    const box = await p.locator('[data-island="ReviewsWidget"] > div').evaluate((el) => el.getBoundingClientRect().height);
    expect(box).toBeLessThan(150); // the link's size, not the widget's 420 px
    await ctx.close();
  });
});

/** The whole element that starts at `start` in html: up to the `</div>` that closes it. */
function elementAt(html: string, start: number): string {
  const tag = /<div\b|<\/div>/g;
  tag.lastIndex = start;
  let depth = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    depth += m[0] === '</div>' ? -1 : 1;
    if (depth === 0) return html.slice(start, tag.lastIndex);
  }
  throw new Error('unclosed element');
}

// ---------------------------------------------------------------------------------------------

describe('accessibility inside the open widgets (axe-core, WCAG 2.x A/AA)', () => {
  /** Violations inside the islands only (page-level rules are tests/browser/a11y.test.ts's business). */
  async function axeViolations(): Promise<string[]> {
    await injectAxe(page);
    return page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }).axe;
      const islands = [...document.querySelectorAll('[data-island]')].flatMap((el) => [...el.children]);
      const result = await axe.run({ include: islands }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
      return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
    });
  }

  it('the contact form showing its errors', async () => {
    await page.goto(`${site.url}/contact`);
    await hydrated('ContactForm');
    await page.locator('[data-island="ContactForm"] button[type="submit"]').click();
    await page.getByText('First name is required').waitFor();
    expect(await axeViolations()).toEqual([]);
  });

  it('the open discount popup showing its errors', async () => {
    await page.clock.install();
    await page.goto(`${site.url}/`);
    await page.clock.runFor(5000);
    await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Please enter a valid phone number').waitFor();
    await page.clock.resume();
    expect(await axeViolations()).toEqual([]);
  });

  it('the checklist tabs, on a phone and on a desktop', async () => {
    await page.goto(`${site.url}/checklist`);
    await page.getByRole('tablist').waitFor();
    expect(await axeViolations()).toEqual([]);
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await axeViolations()).toEqual([]);
  });
});
