/**
 * The language a lead was sent in, end to end in Chromium against the shared build and the local
 * stand-in: the quote form on a page whose `<html lang>` is Spanish stores the lead as Spanish (the
 * forms' bundle reads the page), an English page's as English; in the lead inbox the Spanish lead
 * shows a "Spanish" badge (an English one none), the list filters by language, the lead's view says
 * to call back in Spanish, the report counts by language and the CSV has the column. axe-core
 * (WCAG AA, colour contrast included) on the list and the lead at 375 and 1280 px; screenshots in
 * /tmp/inbox-shots/language-*.png.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { staffCommand } from '../../staff/command.js';
import { axeViolations, islandHydrated } from '../../tools/browser.js';
import { sendQuoteForm } from '../helpers/forms.js';
import { keepPopupShut, resetRateLimits, useBrowser, useSite } from '../helpers/site.js';

const site = useSite();
const browser = useBrowser();

const SHOTS = '/tmp/inbox-shots';
const OWNER = { email: 'lang.owner@example.com', password: 'Sparkling-Clean-2026' };
const SPANISH = 'lucia.lang@example.com';
const ENGLISH = 'ada.lang@example.com';

let context: BrowserContext;
let page: Page;

/** A visitor's own browser: only this site answers (no reviews script, nothing of the internet), the discount popup shut. */
async function visitorContext(): Promise<BrowserContext> {
  await resetRateLimits(site.backend);
  const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await visitor.route((url) => url.origin !== site.url, (route) => route.abort());
  await keepPopupShut(visitor);
  return visitor;
}

/**
 * The quote form sent from /contact (whose `<html lang>` is the English pages' "en-US"), or with the
 * page's `<html lang>` set to `lang` first, as the Spanish pages have it.
 */
async function sendFrom(lang: string | undefined, email: string): Promise<void> {
  const visitor = await visitorContext();
  try {
    const tab = await visitor.newPage();
    await tab.goto(`${site.url}/contact`);
    if (lang === undefined) expect(await tab.evaluate(() => document.documentElement.lang)).toMatch(/^en\b/);
    else await tab.evaluate((l) => { document.documentElement.lang = l; }, lang);
    await sendQuoteForm(tab, email);
  } finally {
    await visitor.close();
  }
}

async function signIn(): Promise<void> {
  const output = new PassThrough();
  const chunks: string[] = [];
  output.on('data', (c: Buffer) => chunks.push(c.toString()));
  const code = await staffCommand(['add', OWNER.email], {
    stdin: Readable.from([`${OWNER.password}\n${OWNER.password}\n`]),
    stdout: output, stderr: output,
    env: { SUPABASE_URL: site.url, SUPABASE_SERVICE_ROLE_KEY: site.backend.keys.serviceRoleKey },
    root: process.cwd(),
  });
  expect(code, chunks.join('')).toBe(0);
  await page.goto(`${site.url}/leads`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Set up your authenticator app' }).waitFor();
  const secret = (await page.locator('.secret').textContent())!.replace(/\s/g, '');
  await page.getByLabel('6-digit code').fill(new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate());
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { level: 1, name: 'Lead inbox' }).waitFor();
}

/** axe at 375 and at 1280 px wide: nothing, colour contrast included; the page fits. A screenshot of each in SHOTS, for a person to look at. */
async function accessible(name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: `${SHOTS}/language-${name.replace(/\W+/g, '-')}-${width}.png` });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} fits ${width} px`).toBeLessThanOrEqual(width);
    expect(await axeViolations(page), `axe at ${width} px on ${name}`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const row = (email: string) => page.locator('.lead-row', { hasText: email });

beforeAll(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route((url) => url.origin !== site.url, (route) => route.abort());
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
});

describe('the language of a lead, from the form to the inbox', () => {
  it('the quote form stores the language of its page: Spanish from <html lang="es-US">, English from the English page', async () => {
    await sendFrom('es-US', SPANISH);
    await sendFrom(undefined, ENGLISH);
    const { rows } = await site.backend.db.query<{ email: string; lang: string }>('select email, lang from public.leads order by email');
    expect(rows).toEqual([{ email: ENGLISH, lang: 'en' }, { email: SPANISH, lang: 'es' }]);
  });

  // The Spanish pages come with the site's Spanish content (content/es/): where the build has the
  // Spanish contact page, its own form is sent as a visitor sends it.
  it.skipIf(!existsSync(join(inject('siteDist'), 'es', 'contacto.html')))('the quote form of the Spanish contact page (/es/contacto) stores its lead as Spanish', async () => {
    const visitor = await visitorContext();
    try {
      const tab = await visitor.newPage();
      await tab.goto(`${site.url}/es/contacto`);
      expect(await tab.evaluate(() => document.documentElement.lang)).toMatch(/^es\b/);
      await islandHydrated(tab, 'ContactForm');
      const form = tab.locator('[data-island="ContactForm"] form');
      const values = { firstName: 'Lucía', lastName: 'Hernández', email: 'lucia.es-page@example.com', phone: '(408) 555-0177', message: 'Limpieza profunda, por favor.' };
      for (const [name, value] of Object.entries(values)) await form.locator(`[name="${name}"]`).fill(value);
      await form.locator('button[type="submit"]').click();
      await tab.locator('[role="status"] [data-toast="default"]').waitFor({ timeout: 15_000 });
    } finally {
      await visitor.close();
    }
    const { rows } = await site.backend.db.query<{ lang: string }>('select lang from public.leads where email = $1', ['lucia.es-page@example.com']);
    expect(rows).toEqual([{ lang: 'es' }]);
    await site.backend.db.query('delete from public.leads where email = $1', ['lucia.es-page@example.com']);
  });

  it('the list shows a "Spanish" badge on the Spanish lead only, readable and with enough contrast', async () => {
    await signIn();
    await row(SPANISH).waitFor();
    const badge = row(SPANISH).locator('.badge.lang');
    expect(await badge.isVisible()).toBe(true);
    // seen: "Spanish"; heard: "Spanish: call back in Spanish"
    expect(await badge.evaluate((el) => el.firstChild?.textContent)).toBe('Spanish');
    expect(await badge.textContent()).toBe('Spanish: call back in Spanish');
    expect(await row(ENGLISH).locator('.badge.lang').count()).toBe(0);
    expect(await row(ENGLISH).textContent()).not.toContain('Spanish');
    await accessible('the list with a Spanish lead');
  });

  it('filters the list by language, and Clear filters shows every lead again', async () => {
    const language = page.getByLabel('Language', { exact: true });
    expect(await language.locator('option').allTextContents()).toEqual(['All', 'English', 'Spanish']);
    await language.selectOption('es');
    await expect.poll(() => page.locator('.lead-row').count()).toBe(1);
    expect(await page.locator('.lead-row').textContent()).toContain(SPANISH);
    expect(await page.locator('#list-title').textContent()).toBe('Leads (1)');
    await language.selectOption('en');
    await expect.poll(() => page.locator('.lead-name').allTextContents()).toEqual(['Ada Lovelace']);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.locator('.lead-row').count()).toBe(2);
    expect(await language.inputValue()).toBe('');
  });

  it('the Spanish lead\'s own view says to call back in Spanish', async () => {
    const { rows } = await site.backend.db.query<{ id: string }>('select id from public.leads where email = $1', [SPANISH]);
    await page.goto(`${site.url}/leads#lead/quote/${rows[0]!.id}`);
    const dialog = page.getByRole('dialog');
    await dialog.locator('.badge.lang').waitFor();
    const details = await dialog.locator('.details').innerText();
    expect(details).toMatch(/Language\s+Spanish: call back in Spanish/);
    await accessible('the Spanish lead');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('the report counts the leads by language', async () => {
    const table = page.locator('.report table', { has: page.locator('caption', { hasText: 'By language' }) });
    await table.waitFor();
    const cells = async (name: string) => (await table.locator('tbody tr', { has: page.locator('th', { hasText: name }) }).locator('td').allTextContents()).slice(0, 3);
    expect(await table.locator('thead th').first().textContent()).toBe('Language');
    expect(await cells('English')).toEqual(['1', '0', '0']);
    expect(await cells('Spanish')).toEqual(['1', '0', '0']);
  });

  it('the CSV export of the Spanish leads has the Language column, and the history keeps the filter', async () => {
    await page.getByLabel('Language', { exact: true }).selectOption('es');
    await expect.poll(() => page.locator('.lead-row').count()).toBe(1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const lines = (await readFile((await download.path())!, 'utf8')).split('\r\n');
    expect(lines[0]!.split(',').at(-1)).toBe('Language');
    expect(lines.slice(1, -1).map((l) => [l.includes(SPANISH), l.split(',').at(-1)])).toEqual([[true, 'Spanish']]);
    await expect.poll(async () => (await site.backend.db.query(`select detail from public.lead_events where action = 'exported'`)).rows)
      .toEqual([{ detail: { count: 1, filters: { lang: 'es', search: false } } }]);
  });
});
