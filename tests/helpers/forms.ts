/** Sending the site's forms in Chromium, as a visitor does. */
import type { Page } from 'playwright-core';
import { islandHydrated } from '../../tools/browser.js';

/**
 * Fills and sends the quote form on `page` once it is ready, and waits for its thank-you toast.
 * What is typed before and during hydration has tests of its own (islands.test.ts); here the form
 * is ready first, so a loaded machine cannot turn a test about what is stored into one about
 * hydration timing.
 */
export async function sendQuoteForm(page: Page, email: string): Promise<void> {
  await islandHydrated(page, 'ContactForm');
  const form = page.locator('[data-island="ContactForm"] form');
  const values = { 'First Name': 'Ada', 'Last Name': 'Lovelace', Email: email, Phone: '(408) 555-0100', Message: 'Deep clean, 3 bedrooms' };
  for (const [label, value] of Object.entries(values)) await form.getByLabel(label, { exact: true }).fill(value);
  await form.locator('button[type="submit"]').click();
  await page.locator('[role="status"] [data-toast="default"]').waitFor({ timeout: 15_000 });
}

/**
 * On a page whose clock was installed (page.clock.install) before it loaded: lets the discount
 * popup's delay pass, then fills and sends it, and waits for its thank-you toast.
 */
export async function sendDiscountPopup(page: Page, texts: { title: string; submit: string }, email: string): Promise<void> {
  await page.clock.runFor(5000);
  const dialog = page.getByRole('dialog', { name: texts.title });
  await dialog.waitFor();
  await page.clock.resume();
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Phone').fill('(408) 555-0111');
  await dialog.getByRole('button', { name: texts.submit }).click();
  await page.locator('[role="status"] [data-toast="default"]').waitFor({ timeout: 15_000 });
}
