/**
 * The screenshots of docs/editing.md ("Editing in the browser"), taken from the real content manager:
 * `npx tsx docs/cms/screenshots.ts` runs the dev session on a copy of content/ (the real one is
 * never touched), opens /admin in headless Chromium at 1280 px and writes WebP files next to this
 * script. Run it again after changing the CMS.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { CmsLocalBackend } from '../../cms/localBackend.js';
import { DevSession } from '../../serve/dev.js';
import { startServer } from '../../serve/server.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tools/browser.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

async function shot(page: Page, name: string) {
  const png = await page.screenshot();
  await sharp(png).webp({ quality: 72 }).toFile(path.join(here, `${name}.webp`));
  console.log(`wrote docs/cms/${name}.webp`);
}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'cms-shots-'));
try {
  const contentDir = path.join(tmp, 'content');
  await cp(path.join(root, 'content'), contentDir, { recursive: true });
  const session = new DevSession({ root, contentDir, outDir: path.join(tmp, 'dist'), siteUrl: 'https://www.bayshinecleaning.com' });
  await session.start();
  const server = await startServer({ distDir: path.join(tmp, 'dist'), handlers: [session.handle, new CmsLocalBackend(contentDir).handle] });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });

  await page.goto(`${server.url}/admin#/collections/cities`);
  await shot(page, 'sign-in');
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByText('Atherton', { exact: true }).waitFor();
  await shot(page, 'list');

  await page.goto(`${server.url}/admin#/collections/cities/new`);
  await page.getByLabel('Name', { exact: true }).fill('Mountain View');
  await page.getByLabel('Population', { exact: true }).fill('~82,000');
  await page.getByLabel('Description', { exact: true }).fill('Home of tech campuses, tree-lined family neighborhoods and the cafés of Castro Street.');
  await page.getByLabel('SEO description', { exact: true }).fill('Deep cleaning in Mountain View, CA by a bonded, insured local team using eco-friendly products. Book online in minutes.');
  await page.getByLabel('Tagline', { exact: true }).fill('Spotless homes from Castro Street to Shoreline Park');
  await page.frameLocator('iframe').first().getByText('Spotless homes from Castro Street to Shoreline Park').waitFor();
  await shot(page, 'city-form');

  for (let i = 0; i < 6; i++) await page.getByRole('button', { name: 'Add benefits' }).click();
  const benefits = ['Crews who know Mountain View neighborhoods', 'Eco-friendly products safe for kids and pets', 'Room-by-room deep cleaning checklist', 'Evening and weekend appointments', '100% satisfaction guarantee', 'Easy online booking'];
  for (const [i, b] of benefits.entries()) await page.getByLabel('Benefit', { exact: true }).nth(i).fill(b);
  const preview = page.frameLocator('iframe').first();
  await preview.getByText('Easy online booking').scrollIntoViewIfNeeded();
  await shot(page, 'preview');

  // Intro paragraphs and FAQs left out: the save is refused with what is missing.
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByText('Publish now', { exact: true }).click();
  const message = page.getByText(/not saved/);
  await message.waitFor();
  // The message slides in: shoot once the animations of it and its boxes are over, however slow
  // the machine (not its countdown bar beside it, which ends by closing it).
  await message.evaluate((el) => {
    const animations: Animation[] = [];
    for (let box: Element | null = el; box; box = box.parentElement) animations.push(...box.getAnimations());
    return Promise.all(animations.map((a) => a.finished.catch(() => undefined)));
  });
  await shot(page, 'refused');

  await browser.close();
  await server.close();
  await session.close();
} finally {
  await rm(tmp, { recursive: true, force: true });
}
