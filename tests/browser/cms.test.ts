/**
 * The content manager at /admin as office staff use it: `npm run dev` on a copy of the content
 * (DevSession + the CMS's local backend, as cli/commands.ts wires them), Decap CMS in headless
 * Chromium at 1280px, the admin page's Content-Security-Policy applied (any violation fails).
 * - a new city typed into the form is previewed by the real city template while typing, published,
 *   written as a valid YAML file, and the rebuilt site has its card, its page and its sitemap entry;
 *   the publish panel links to that new page;
 * - an edited tagline reaches the page, and nothing else in the file changes; a city with only a
 *   card is edited without being asked for page texts; after each Publish the publish panel says
 *   "live" once the rebuild is served, with a link to the page that changed;
 * - an empty required field, a too-short text and lists never opened are refused with the model's
 *   hints and npm run check's words, and no file is written;
 * - a picture is uploaded into content/images/ and goes through the image pipeline; a file that is
 *   not a picture, or too large, is refused with a message, and nothing reaches content/;
 * - a new article typed on a computer in Paris: previewed by the real article template, its date
 *   shown and saved on the business's clock (California), written as a valid Markdown draft whose
 *   page npm run dev shows, marked; the publish panel says it is a draft. An older article's UTC
 *   date shows as the California wall time.
 * After a save, a test waits for the dev session's update of that file (session.updateFor) before
 * it reads what the update writes: pages, /locations and the sitemap are written one after another.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { load as parseYaml } from 'js-yaml';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevSession } from '../../serve/dev.js';
import type { RunningServer } from '../../serve/server.js';
import { startCmsSession, type CmsSession } from '../helpers/cmsSession.js';
import { problems } from '../helpers/content.js';
import { useBrowser } from '../helpers/site.js';
import { axeViolations } from '../../tools/browser.js';

declare global {
  interface Window { __adminCspViolations?: string[] }
}

const MODELINE = '# yaml-language-server: $schema=../schemas/city.schema.json';
/** Decap and its preview draw in their own time on a busy machine: wait as long as Playwright would. */
const UI = { timeout: 30_000 };

// Each test is a whole editing session in Decap (open, type, publish, rebuild): near a minute on a
// loaded 2-core machine, so these get more than the suite's default.
describe('the content manager at /admin', { timeout: 150_000 }, () => {
  const browser = useBrowser();
  let contentDir: string;
  let outDir: string;
  let session: DevSession;
  let server: RunningServer;
  let cms: CmsSession | undefined;

  beforeAll(async () => {
    // The English site's flows: here a fact edited in English alone (a checklist cell, a picture)
    // would be a twin error of its Spanish file, which an editor then corrects too. The Spanish
    // collections' flows are tests/browser/cms-spanish.test.ts.
    cms = await startCmsSession('cms-', (dir) => rm(path.join(dir, 'es'), { recursive: true }));
    ({ contentDir, outDir, session, server } = cms);
  });
  afterAll(() => cms?.close());

  /** Opens /admin at `hash` as a signed-in editor, recording CSP violations (`timezoneId`: the editor's computer's zone). */
  async function openAdmin(hash: string, timezoneId?: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, ...(timezoneId && { timezoneId }) });
    await page.addInitScript(() => {
      window.__adminCspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__adminCspViolations!.push(`${e.effectiveDirective} ${e.blockedURI}`));
    });
    await page.goto(`${server.url}/admin#${hash}`);
    // The local backend needs no account: Decap asks for one click.
    await page.getByRole('button', { name: 'Login' }).click();
    return page;
  }

  async function closeAdmin(page: Page) {
    expect(await page.evaluate(() => window.__adminCspViolations)).toEqual([]);
    await page.close();
  }

  const fillNth = async (page: Page, label: string, values: string[]) => {
    for (const [i, value] of values.entries()) await page.getByLabel(label, { exact: true }).nth(i).fill(value);
  };

  async function publish(page: Page) {
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Publish now', { exact: true }).click();
  }

  const built = (file: string) => readFile(path.join(outDir, file), 'utf8');

  /** Publishes, and resolves once the dev session has rebuilt the site from `files` (paths in content/). */
  async function publishAndRebuild(page: Page, ...files: string[]) {
    const updates = files.map((f) => session.updateFor(f));
    await publish(page);
    for (const u of await Promise.all(updates)) expect(u.errors).toEqual([]);
  }

  /** A new city's single-line fields, by their labels. */
  const cityFields = (name: string, population: string, description: string, seoDescription: string, tagline: string) =>
    ({ Name: name, Population: population, Description: description, 'SEO description': seoDescription, Tagline: tagline });

  /** Types the single-line fields of a new city, by their labels. */
  async function fillFields(page: Page, values: Record<string, string>) {
    for (const [label, value] of Object.entries(values)) await page.getByLabel(label, { exact: true }).fill(value);
  }

  it('creates "Mountain View" through the form, with a live preview, and the next build has it everywhere', async () => {
    const page = await openAdmin('/collections/cities/new');
    await fillFields(page, cityFields('Mountain View', '~82,000', 'Home of tech campuses, tree-lined family neighborhoods and the cafés of Castro Street.',
      'Deep cleaning in Mountain View, CA by a bonded, insured local team using eco-friendly products. Book online in minutes.',
      'Spotless homes from Castro Street to Shoreline Park'));
    for (let i = 0; i < 2; i++) await page.getByRole('button', { name: 'Add intro' }).click();
    for (let i = 0; i < 6; i++) await page.getByRole('button', { name: 'Add benefits' }).click();
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Add faqs' }).click();
    await fillNth(page, 'Intro', [
      'Mountain View homes range from Old Mountain View bungalows to new townhomes near the Caltrain station, and our crews clean them all top to bottom.',
      'We schedule Mountain View visits Monday to Saturday and bring our own eco-friendly supplies, safe for children and pets.',
    ]);
    await fillNth(page, 'Benefit', [
      'Crews who know Mountain View neighborhoods', 'Eco-friendly products safe for kids and pets', 'Room-by-room deep cleaning checklist',
      'Evening and weekend appointments for tech schedules', '100% satisfaction guarantee with a free re-clean', 'Easy online booking and reminders',
    ]);
    await fillNth(page, 'Question', ['How long does a Mountain View deep clean take?', 'Do you bring your own supplies?', 'Can you clean while I work from home?']);
    await fillNth(page, 'Answer', ['Most homes take 4 to 8 hours.', 'Yes, eco-friendly products and equipment.', 'Yes, we work quietly around your calls.']);

    // The preview is the real city template with the site's stylesheet, showing what was typed.
    const preview = page.frameLocator('iframe').first();
    await expect.poll(() => preview.locator('h1').textContent(), UI).toBe('Deep Cleaning Services in Mountain View, CA');
    await expect.poll(() => preview.getByText('Spotless homes from Castro Street to Shoreline Park').count(), UI).toBe(1);
    expect(await preview.locator('li').filter({ hasText: 'Evening and weekend appointments for tech schedules' }).count()).toBe(1);
    expect(await preview.locator('link[rel=stylesheet][href^="/assets/site-"]').count()).toBeGreaterThan(0);

    await publishAndRebuild(page, 'cities/mountain-view.yaml');
    const text = await readFile(path.join(contentDir, 'cities/mountain-view.yaml'), 'utf8');
    expect(text).toContain('name: Mountain View');
    expect(text.split('\n')[0]).toBe(MODELINE);
    expect(await problems(contentDir)).toEqual([]); // what `npm run check` says

    const route = 'locations/deep-cleaning-mountain-view-ca';
    expect(await built(`${route}.html`)).toContain('Deep Cleaning Services in Mountain View, CA');
    const locations = await built('locations.html');
    expect(locations).toMatch(/<li[\s>](?:(?!<\/li>)[\s\S])*Mountain View(?:(?!<\/li>)[\s\S])*href="\/locations\/deep-cleaning-mountain-view-ca"/);
    expect(await built('sitemap.xml')).toContain(`<loc>https://www.bayshinecleaning.com/${route}</loc>`);
    // The publish panel links to the new city's page: its slug, made by Decap while saving, comes
    // from the file the local backend wrote.
    const panel = page.getByRole('region', { name: 'Publishing' });
    await expect.poll(() => panel.getByRole('status').textContent(), UI).toContain('Your change is live.');
    expect(await panel.getByRole('link', { name: 'View the page that changed' }).getAttribute('href')).toBe(`${server.url}/${route}`);
    await closeAdmin(page);
  });

  it('edits an existing city\'s tagline: the page shows it and nothing else in the file changes', async () => {
    const file = path.join(contentDir, 'cities/colma.yaml');
    const before = parseYaml(await readFile(file, 'utf8')) as { page: { tagline: string } };
    const page = await openAdmin('/collections/cities/entries/colma');
    const tagline = page.getByLabel('Tagline', { exact: true });
    await expect.poll(() => tagline.inputValue(), UI).toBe(before.page.tagline);
    await tagline.fill('Colma homes, cleaned like our own');
    await publishAndRebuild(page, 'cities/colma.yaml');
    expect(await built('locations/deep-cleaning-colma-ca.html')).toContain('Colma homes, cleaned like our own');
    // The publish panel says so as soon as the rebuild is served, with a link to the page.
    const panel = page.getByRole('region', { name: 'Publishing' });
    await expect.poll(() => panel.getByRole('status').textContent(), UI).toContain('Your change is live.');
    const link = panel.getByRole('link', { name: 'View the page that changed' });
    expect(await link.getAttribute('href')).toBe(`${server.url}/locations/deep-cleaning-colma-ca`);
    expect((await axeViolations(page)).filter((v) => v.includes('publish-status'))).toEqual([]);
    // By keyboard: from the link, Tab reaches Dismiss with a visible focus ring, and Enter dismisses.
    await link.focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => [document.activeElement!.textContent, getComputedStyle(document.activeElement!).outlineStyle])).toEqual(['Dismiss', 'solid']);
    await page.keyboard.press('Enter');
    await expect.poll(() => panel.count(), UI).toBe(0);
    const text = await readFile(file, 'utf8');
    expect(text.split('\n')[0]).toBe(MODELINE);
    expect(parseYaml(text)).toEqual({ ...before, page: { ...before.page, tagline: 'Colma homes, cleaned like our own' } });
    await closeAdmin(page);
  });

  it('edits a city that has only a card (no page of its own) without asking for page texts', async () => {
    const file = path.join(contentDir, 'cities/fremont.yaml');
    const before = parseYaml(await readFile(file, 'utf8')) as { description: string; page?: unknown };
    expect(before.page).toBeUndefined();
    const page = await openAdmin('/collections/cities/entries/fremont');
    const description = page.getByLabel('Description', { exact: true });
    await expect.poll(() => description.inputValue(), UI).toBe(before.description);
    await description.fill('Lake Elizabeth, Mission San Jose and quiet family neighborhoods across the East Bay.');
    await publishAndRebuild(page, 'cities/fremont.yaml');
    expect(await built('locations.html')).toContain('Lake Elizabeth, Mission San Jose');
    // Its change shows on /locations, where the publish panel's link leads.
    const panel = page.getByRole('region', { name: 'Publishing' });
    await expect.poll(() => panel.getByRole('status').textContent(), UI).toContain('Your change is live.');
    expect(await panel.getByRole('link').getAttribute('href')).toBe(`${server.url}/locations`);
    expect(parseYaml(await readFile(file, 'utf8'))).toEqual({ ...before, description: 'Lake Elizabeth, Mission San Jose and quiet family neighborhoods across the East Bay.' });
    expect(await problems(contentDir)).toEqual([]);
    await closeAdmin(page);
  });

  it('refuses to save a city with a required field empty, a text too short or a list left out, and says what the model asks', async () => {
    const files = await readdir(path.join(contentDir, 'cities'));
    const page = await openAdmin('/collections/cities/new');
    await fillFields(page, { Name: 'Sunnyvale', Description: 'Neighborhoods between the orchards and the tech campuses.', 'SEO description': 'Too short.' });
    await publish(page);
    // Population stays empty: the field says so, under the model's hint for it.
    const population = page.locator('[id^="population-field"]').locator('xpath=ancestor::div[1]/..');
    await expect.poll(() => population.textContent(), UI).toContain('Population is required.');
    expect(await population.textContent()).toContain('Approximate population as shown, e.g. ~82,000');
    await expect.poll(() => page.getByText('must not be blank; 50 to 170 characters').count(), UI).toBeGreaterThan(0);
    await expect.poll(() => page.getByText(/missed a required field/).count(), UI).toBeGreaterThan(0);
    expect(await readdir(path.join(contentDir, 'cities'))).toEqual(files);

    await closeAdmin(page);

    // Every field the form shows is right, but two lists were never opened: the check `npm run
    // check` makes refuses the save, in its words.
    const again = await openAdmin('/collections/cities/new');
    await fillFields(again, cityFields('Sunnyvale', '~155,000', 'Neighborhoods between the orchards and the tech campuses.',
      'Deep cleaning in Sunnyvale, CA by a bonded, insured local team with eco-friendly products.', 'Sunnyvale homes, spotless'));
    for (let i = 0; i < 6; i++) await again.getByRole('button', { name: 'Add benefits' }).click();
    await fillNth(again, 'Benefit', ['One', 'Two', 'Three', 'Four', 'Five', 'Six']);
    await publish(again);
    await expect.poll(() => again.getByText(/not saved, 2 problems to fix first/).count(), UI).toBe(1);
    expect(await again.getByText(/not saved, 2 problems to fix first/).textContent())
      .toMatch(/page\.intro: required field is missing \(Exactly two intro paragraphs\)\s*page\.faqs: required field is missing \(Three or four questions and answers\)/);
    expect(await readdir(path.join(contentDir, 'cities'))).toEqual(files);
    await closeAdmin(again);
  });

  it('edits a checklist cell with the Yes / No / N/A choice, saved as the model\'s values', async () => {
    const file = path.join(contentDir, 'checklist.yaml');
    type Checklist = { rooms: { tasks: { task: string; moveInOut: boolean | 'N/A' }[] }[] };
    const before = parseYaml(await readFile(file, 'utf8')) as Checklist;
    const first = before.rooms[0]!.tasks[0]!;
    expect(first.moveInOut).toBe(true);
    const page = await openAdmin('/collections/checklist/entries/checklist');
    // Rooms and tasks are listed collapsed, by their names: open the kitchen, then its first task
    // (each entry's expand button sits beside its name).
    const expand = (name: string) => page.getByText(name, { exact: true }).first().locator('xpath=..').getByRole('button').first().click();
    await expand('Kitchen');
    await expand(first.task);
    const cell = page.locator('select:visible');
    await expect.poll(() => cell.count(), UI).toBe(1);
    expect(await cell.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('Yes');
    await cell.selectOption({ label: 'N/A' });
    await publishAndRebuild(page, 'checklist.yaml');
    const after = parseYaml(await readFile(file, 'utf8')) as Checklist;
    expect(after.rooms[0]!.tasks[0]!.moveInOut).toBe('N/A');
    after.rooms[0]!.tasks[0]!.moveInOut = true;
    expect(after).toEqual(before);
    expect((await readFile(file, 'utf8')).split('\n')[0]).toBe('# yaml-language-server: $schema=./schemas/checklist.schema.json');
    expect(await problems(contentDir)).toEqual([]);
    await closeAdmin(page);
  });

  it('uploads a hero photo into content/images/ for the image pipeline, and refuses a file that is not a picture or too large', async () => {
    const cityFile = path.join(contentDir, 'cities/campbell.yaml');
    const cityBefore = await readFile(cityFile, 'utf8');
    const imagesBefore = await readdir(path.join(contentDir, 'images/cities'));
    const page = await openAdmin('/collections/cities/entries/campbell');
    await page.getByLabel('Tagline', { exact: true }).waitFor();
    const alerts: string[] = [];
    page.on('dialog', (d) => { alerts.push(d.message()); void d.dismiss(); });
    const pick = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
      await page.getByRole('button', { name: /Choose an image|Choose different image/ }).click();
      await page.locator('input[type=file]').setInputFiles(file);
    };

    // Not a picture, or too large: refused as soon as it is picked, with the reason; nothing is written.
    await pick({ name: 'not-a-photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('this is a text file with a picture name') });
    await expect.poll(() => alerts.at(-1), UI).toBe('not-a-photo.jpg is not a JPG picture (the file is damaged or of another kind).');
    await page.locator('input[type=file]').setInputFiles({ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(6_000_000)]) });
    await expect.poll(() => alerts.at(-1), UI).toMatch(/^huge\.jpg is 6 MB; pictures may be at most 5 MB\./);
    expect(await readdir(path.join(contentDir, 'images/cities'))).toEqual(imagesBefore);
    expect(await readFile(cityFile, 'utf8')).toBe(cityBefore);
    await page.keyboard.press('Escape');

    // A real photo: written into content/images/cities/ with the entry; the build makes AVIF and WebP of it.
    const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#3a7d6b' } }).jpeg().toBuffer();
    await pick({ name: 'campbell-photo.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByRole('button', { name: 'Choose selected' }).click();
    // The picture is written before the entry; each has its update (or both one).
    await publishAndRebuild(page, 'images/cities/campbell-photo.jpg', 'cities/campbell.yaml');
    expect((await readFile(path.join(contentDir, 'images/cities/campbell-photo.jpg'))).equals(photo)).toBe(true);
    expect((parseYaml(await readFile(cityFile, 'utf8')) as { page: { heroImage: string } }).page.heroImage).toBe('cities/campbell-photo.jpg');
    expect(await problems(contentDir)).toEqual([]);
    expect(await built('locations/deep-cleaning-campbell-ca.html')).toMatch(/<source type="image\/avif" srcSet="[^"]*cities-campbell-photo-[^"]*"/);
    await closeAdmin(page);
  });

  it('writes a new article as a draft, typed in Paris on California\'s clock, previewed by the article template; npm run dev shows it, marked', async () => {
    const slug = 'spring-cleaning-checklist-for-bay-area-homes';
    const page = await openAdmin('/collections/articles/new', 'Europe/Paris');
    await fillFields(page, {
      Title: 'Spring Cleaning Checklist for Bay Area Homes',
      Description: 'A room-by-room spring cleaning checklist for Bay Area homes, from pollen on the sills to the oven hood, and what to leave to a deep clean.',
      Author: 'Maria Lopez',
    });
    // The date field is on the business's clock, and says which clock it is and what that is here.
    const date = page.getByLabel('Date', { exact: true });
    await date.fill('2026-04-02T09:30');
    const zone = page.locator('[id$="-zone"]').first();
    await expect.poll(() => zone.textContent(), UI).toContain('Pacific Time (America/Los_Angeles)');
    expect(await zone.textContent()).toContain('On this computer\'s clock (Europe/Paris) that is April 2, 2026 at 6:30 PM.');
    await page.getByRole('button', { name: 'Add tags' }).click();
    await page.getByLabel('Tag', { exact: true }).fill('spring cleaning');
    // The draft switch (Decap's boolean widget: a switch its label does not name).
    const draft = page.getByRole('switch');
    expect(await draft.count()).toBe(1);
    await draft.click();
    const editor = page.locator('[data-slate-editor="true"]');
    await editor.click();
    await page.keyboard.type('Spring is when Bay Area homes need it most.');

    // The preview is the real article template: the title, the mark of a draft, the body typed.
    const preview = page.frameLocator('iframe').first();
    await expect.poll(() => preview.locator('h1').textContent(), UI).toBe('Spring Cleaning Checklist for Bay Area Homes');
    await expect.poll(() => preview.getByText('Draft', { exact: true }).count(), UI).toBe(1);
    await expect.poll(() => preview.getByText('Spring is when Bay Area homes need it most.').count(), UI).toBe(1);

    await publishAndRebuild(page, `articles/${slug}.md`);
    const text = await readFile(path.join(contentDir, `articles/${slug}.md`), 'utf8');
    const front = parseYaml(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]!) as Record<string, unknown>;
    // The wall time typed, no offset: 9:30 in California, whichever zone the browser was in.
    expect(front).toEqual({
      title: 'Spring Cleaning Checklist for Bay Area Homes',
      description: 'A room-by-room spring cleaning checklist for Bay Area homes, from pollen on the sills to the oven hood, and what to leave to a deep clean.',
      date: '2026-04-02T09:30', tags: ['spring cleaning'], author: 'Maria Lopez', draft: true,
    });
    expect(text).toMatch(/\n---\n\nSpring is when Bay Area homes need it most\.\n$/);
    expect(await problems(contentDir)).toEqual([]);
    // npm run dev shows the draft, marked; the panel says it is a draft, and links to that page.
    expect(await built(`articles/${slug}.html`)).toContain('Spring Cleaning Checklist for Bay Area Homes');
    const panel = page.getByRole('region', { name: 'Publishing' });
    await expect.poll(() => panel.getByRole('status').textContent(), UI).toContain('Saved as a draft.');
    expect(await panel.getByRole('link').getAttribute('href')).toBe(`${server.url}/articles/${slug}`);
    await closeAdmin(page);
  });

  it('shows an older article\'s UTC date as the California wall time, and saves what is typed without an offset', async () => {
    const file = path.join(contentDir, 'articles/oven-cleaning-once-a-season.md');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, [
      '---', 'title: Oven Cleaning Once a Season', 'description: Why we clean the oven hood and vent once a season, and what you can do between visits to keep grease down.',
      'date: 2026-03-03T17:30:00.000Z', 'tags:', '  - kitchen', 'author: Maria Lopez', 'draft: false', '---', '', 'Grease builds up.', '',
    ].join('\n'));
    await session.updateFor('articles/oven-cleaning-once-a-season.md');
    const page = await openAdmin('/collections/articles/entries/oven-cleaning-once-a-season', 'Europe/Paris');
    const date = page.getByLabel('Date', { exact: true });
    // 17:30 UTC in March is 9:30 in California (PST).
    await expect.poll(() => date.inputValue(), UI).toBe('2026-03-03T09:30');
    await date.fill('2026-03-03T10:00');
    await publishAndRebuild(page, 'articles/oven-cleaning-once-a-season.md');
    expect(await readFile(file, 'utf8')).toContain('\ndate: 2026-03-03T10:00\n');
    expect(await problems(contentDir)).toEqual([]);
    const panel = page.getByRole('region', { name: 'Publishing' });
    await expect.poll(() => panel.getByRole('status').textContent(), UI).toContain('Your change is live.');
    expect(await panel.getByRole('link').getAttribute('href')).toBe(`${server.url}/articles/oven-cleaning-once-a-season`);
    await closeAdmin(page);
  });
});
