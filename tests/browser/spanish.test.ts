/**
 * The Spanish site in Chromium, on the shared build (tests/globalSetup.ts) served with the embedded
 * backend: the quote form of /es/contacto in Spanish (its validation messages and toasts are those
 * of content/es/forms.yaml, read here, never written out), the header's language switch from the
 * keyboard, and a mistyped /es/ address answered with the Spanish 404 page.
 *
 * axe-core on /es, the Spanish city pages and /es/contacto, and the W3C checker on them, are not
 * repeated here: tests/browser/a11y.test.ts and html-validity.test.ts go through every page of the
 * built site, the Spanish ones included. Axe runs here inside the Spanish form showing its errors.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { axeViolations, collectConsole, islandHydrated, type ConsoleLog } from '../../tools/browser.js';
import { resetRateLimits, useBrowser, useSite } from '../helpers/site.js';

const ROOT = process.cwd();
const readYaml = async (file: string) => yaml.load(await readFile(path.join(ROOT, 'content', file), 'utf8')) as Record<string, any>;

const FIELDS = ['firstName', 'lastName', 'email', 'phone', 'message'] as const;
type Field = (typeof FIELDS)[number];

interface ContactTexts {
  fields: Record<Field, string>;
  submit: string;
  submitting: string;
  errors: Record<Field, string>;
  success: { title: string; description: string };
  failure: { title: string; description: string };
}

const site = useSite();
const browser = useBrowser();

let es: ContactTexts;
let en: ContactTexts;
let esPhone: string;
let reviewsScript: string;
beforeAll(async () => {
  es = (await readYaml('es/forms.yaml')).contact;
  en = (await readYaml('forms.yaml')).contact;
  const esSite = await readYaml('es/site.yaml');
  esPhone = esSite.phone.display;
  reviewsScript = esSite.reviews.scriptUrl;
});

let context: BrowserContext;
let page: Page;
let log: ConsoleLog;
/** Console errors a test expects (substrings); any other console error fails the test. */
let expectedErrors: string[];

beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => sessionStorage.setItem('discount-popup-shown', 'true'));
  await context.route(reviewsScript, (route) => route.abort()); // no internet; the widget falls back
  page = await context.newPage();
  log = collectConsole(page);
  expectedErrors = [];
  await resetRateLimits(site.backend);
});

afterEach(async () => {
  if (!context) return;
  const unexpected = log.errors.filter((e) => !expectedErrors.some((x) => e.includes(x)));
  await context.close();
  expect(unexpected, 'console errors').toEqual([]);
});

describe('the quote form in Spanish (/es/contacto)', () => {
  const form = () => page.locator('[data-island="ContactForm"] form');
  const input = (field: Field) => form().getByLabel(es.fields[field], { exact: true });
  const submit = () => form().locator('button[type="submit"]');
  /** The message shown for a field (its aria-describedby), or null when it has none. */
  const messageOf = async (field: Field) => {
    const describedBy = await input(field).getAttribute('aria-describedby');
    return describedBy ? page.locator(`[id="${describedBy}"]`).textContent() : null;
  };
  async function open() {
    await page.goto(`${site.url}/es/contacto`);
    await islandHydrated(page, 'ContactForm');
  }
  const valid: Record<Field, string> = { firstName: 'Lucía', lastName: 'Hernández', email: 'lucia@example.com', phone: '(408) 555-0142', message: 'Limpieza profunda, 3 recámaras y 2 baños' };

  it('labels its fields and its button in Spanish', async () => {
    await open();
    for (const field of FIELDS) expect(await input(field).count(), es.fields[field]).toBe(1);
    expect((await submit().textContent())?.trim()).toBe(es.submit);
  });

  it('sent empty, shows every Spanish validation message under its field and no English one; axe finds nothing in the form with its errors', async () => {
    await open();
    await submit().click();
    for (const field of FIELDS) {
      await expect.poll(() => input(field).getAttribute('aria-invalid'), { message: field }).toBe('true');
      expect(await messageOf(field), field).toBe(es.errors[field]);
    }
    const text = await form().innerText();
    for (const field of FIELDS) expect(text, `the English message for ${field}`).not.toContain(en.errors[field]);
    // Focus goes to the first field in error.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('firstName');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('keeps what the visitor typed when the form is refused, and says in Spanish what is missing or wrong', async () => {
    await open();
    const typed = { firstName: 'Lucía', email: 'lucia@ejemplo', message: 'Limpieza de mudanza' };
    for (const [field, value] of Object.entries(typed)) await input(field as Field).fill(value);
    await submit().click();
    await expect.poll(() => input('lastName').getAttribute('aria-invalid')).toBe('true');
    expect(await messageOf('lastName')).toBe(es.errors.lastName);
    expect(await messageOf('phone')).toBe(es.errors.phone);
    expect(await messageOf('email')).toBe(es.errors.email);
    expect(await input('firstName').getAttribute('aria-invalid')).toBeNull();
    expect(await input('message').getAttribute('aria-invalid')).toBeNull();
    for (const [field, value] of Object.entries(typed)) expect(await input(field as Field).inputValue(), field).toBe(value);
    expect(await page.locator('[data-toast]').count()).toBe(0);
  });

  it('keeps what the visitor typed when sending fails, with the Spanish failure toast naming the phone number', async () => {
    expectedErrors = ['Quote request failed'];
    await page.route('**/rest/v1/leads*', (route) => route.fulfill({
      status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'XX000', message: 'boom', details: null, hint: null }),
    }));
    await open();
    for (const field of FIELDS) await input(field).fill(valid[field]);
    await submit().click();
    const toast = page.locator('[role="alert"] [data-toast="destructive"]');
    await toast.waitFor();
    const text = await toast.innerText();
    expect(text).toContain(es.failure.title);
    expect(es.failure.description).toContain('{phone}');
    expect(text).toContain(es.failure.description.replace('{phone}', esPhone));
    for (const field of FIELDS) expect(await input(field).inputValue(), field).toBe(valid[field]);
    expect(await submit().isEnabled()).toBe(true);
  });

  it('sent valid, stores the lead from /es/contacto and shows the Spanish success toast', async () => {
    await open();
    for (const field of FIELDS) await input(field).fill(valid[field]);
    await submit().click();
    const toast = page.locator('[role="status"] [data-toast="default"]');
    await toast.waitFor({ timeout: 15_000 });
    const text = await toast.innerText();
    expect(text).toContain(es.success.title);
    expect(text).toContain(es.success.description);
    expect(text).not.toContain(en.success.title);
    for (const field of FIELDS) expect(await input(field).inputValue(), field).toBe('');
    const { rows } = await site.backend.db.query<{ first_name: string; email: string; landing_path: string }>(
      'SELECT first_name, email, landing_path FROM public.leads WHERE email = $1', [valid.email],
    );
    expect(rows.at(-1)).toEqual({ first_name: valid.firstName, email: valid.email, landing_path: '/es/contacto' });
  });
});

describe('the language switch from the keyboard', () => {
  /** The focused element as the visitor sees it once its transitions have run. */
  const focused = () => page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    el.getAnimations().forEach((a) => { if (a instanceof CSSTransition) a.finish(); });
    const s = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return {
      tag: el.tagName.toLowerCase(), href: el.getAttribute('href'), hreflang: el.getAttribute('hreflang'), lang: el.getAttribute('lang'),
      inHeader: !!el.closest('header'), skip: el.getAttribute('href') === '#main',
      outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2,
      inner: s.boxShadow.includes('rgb(21, 27, 38)'),
      inView: box.width > 0 && box.height > 0 && box.top >= 0 && box.bottom <= innerHeight,
    };
  });

  /** The page's own <link rel="alternate" hreflang> for `hreflang`, as a path. */
  const alternatePath = async (hreflang: string) => {
    const href = await page.locator(`link[rel="alternate"][hreflang="${hreflang}"]`).getAttribute('href');
    return href && new URL(href).pathname;
  };

  const cases: { from: string; to: string; hreflang: string; htmlLang: string; width: number }[] = [
    { from: '/es/ubicaciones/limpieza-profunda-san-jose-ca', to: '/locations/deep-cleaning-san-jose-ca', hreflang: 'en', htmlLang: 'en-US', width: 1280 },
    { from: '/es', to: '/', hreflang: 'en', htmlLang: 'en-US', width: 375 },
    { from: '/contact', to: '/es/contacto', hreflang: 'es', htmlLang: 'es-US', width: 1280 },
    { from: '/services', to: '/es/servicios', hreflang: 'es', htmlLang: 'es-US', width: 375 },
  ];

  it.each(cases)('on $from at $width px: Tab after the skip link reaches it, its focus ring shows, Enter opens $to', async ({ from, to, hreflang, htmlLang, width }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(site.url + from);
    // The twin the page names for search engines is where the switch leads.
    expect(await alternatePath(hreflang)).toBe(to);
    await page.keyboard.press('Tab');
    expect((await focused())?.skip, 'the first Tab: the skip link').toBe(true);
    await page.keyboard.press('Tab');
    const sw = await focused();
    expect(sw).toMatchObject({ tag: 'a', href: to, hreflang, lang: htmlLang, inHeader: true, inView: true });
    expect(sw?.outline, 'a visible outline').toBe(true);
    expect(sw?.inner, 'the ring\'s dark inner colour').toBe(true);
    await Promise.all([page.waitForURL(site.url + to), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).pathname).toBe(to);
    expect(await page.locator('html').getAttribute('lang')).toBe(htmlLang);
  });
});

describe('a mistyped Spanish address', () => {
  it('gets the Spanish 404 page with status 404, an English one the English page', async () => {
    // The spec: the attempted path is logged to the console.
    expectedErrors = ['404 Error: User attempted to access non-existent route'];
    const spanish404 = await readFile(path.join(site.dist, 'es/404.html'), 'utf8');
    const english404 = await readFile(path.join(site.dist, '404.html'), 'utf8');
    expect(spanish404).not.toBe(english404);
    for (const pathname of ['/es/no-existe', '/es/ubicaciones/limpieza-profunda-nowhere-ca']) {
      const res = await fetch(site.url + pathname);
      expect(res.status, pathname).toBe(404);
      expect(await res.text(), pathname).toBe(spanish404);
    }
    for (const pathname of ['/no-such-page', '/esnope', '/locations/nowhere']) {
      const res = await fetch(site.url + pathname);
      expect(res.status, pathname).toBe(404);
      expect(await res.text(), pathname).toBe(english404);
    }
    await page.goto(`${site.url}/es/no-existe`);
    expect(await page.locator('html').getAttribute('lang')).toBe('es-US');
    // Its language switch leads to the English home, not to a twin of the missing page.
    expect(await page.locator('header a[hreflang="en"][lang="en-US"]').getAttribute('href')).toBe('/');
  });
});
