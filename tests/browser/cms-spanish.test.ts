/**
 * The Spanish pages edited in the content manager, in Chromium, against the dev server and its
 * local backend (as `npm run dev` wires them):
 * - a Spanish city opened from "Ciudades (español)" is previewed by the real city template in
 *   Spanish (<html lang="es-US">), with a switch to its English original; its edit is saved into
 *   content/es/ with its modeline, rebuilt, and the publish panel links to its Spanish page;
 * - a new Spanish city is started from its English original, whose file name it takes (the original
 *   is not written into the file), and a new one without it is refused;
 * - a Spanish single page (a files collection) keeps its own modeline and links to its /es/ address.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { load as parseYaml } from 'js-yaml';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevSession } from '../../serve/dev.js';
import type { RunningServer } from '../../serve/server.js';
import { startCmsSession, type CmsSession } from '../helpers/cmsSession.js';
import { problems } from '../helpers/content.js';
import { useBrowser } from '../helpers/site.js';

/** Decap and its preview draw in their own time on a busy machine: wait as long as Playwright would. */
const UI = { timeout: 30_000 };
const MODELINE = '# yaml-language-server: $schema=../../schemas/city.schema.json';

describe('the Spanish pages in the content manager', { timeout: 150_000 }, () => {
  const browser = useBrowser();
  let contentDir: string;
  let outDir: string;
  let session: DevSession;
  let server: RunningServer;
  let cms: CmsSession | undefined;

  beforeAll(async () => {
    // An English city with no Spanish twin yet: the one a new Spanish city is started from.
    cms = await startCmsSession('cms-es-', (dir) => writeFile(path.join(dir, 'cities/milpitas.yaml'), '# yaml-language-server: $schema=../schemas/city.schema.json\nname: Milpitas\npopulation: "~80,000"\ndescription: Homes near the Great Mall and the hills of the East Foothills.\n'));
    ({ contentDir, outDir, session, server } = cms);
  });
  afterAll(() => cms?.close());

  async function openAdmin(hash: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${server.url}/admin#${hash}`);
    await page.getByRole('button', { name: 'Login' }).click();
    return { page, errors };
  }

  async function publishAndRebuild(page: Page, ...files: string[]) {
    const updates = files.map((f) => session.updateFor(f));
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Publish now', { exact: true }).click();
    for (const u of await Promise.all(updates)) expect(u.errors).toEqual([]);
  }

  const panelLink = async (page: Page) => {
    const panel = page.getByRole('region', { name: 'Publishing' });
    await expect.poll(() => panel.getByRole('status').textContent(), UI).toContain('Your change is live.');
    return panel.getByRole('link', { name: 'View the page that changed' }).getAttribute('href');
  };

  it('previews a Spanish city in Spanish, switches to its English original, saves it into content/es/ and links to its Spanish page', async () => {
    const file = path.join(contentDir, 'es/cities/san-jose.yaml');
    const before = parseYaml(await readFile(file, 'utf8')) as { page: { tagline: string } };
    const { page, errors } = await openAdmin('/collections/cities-es/entries/san-jose');
    const tagline = page.getByLabel('Tagline', { exact: true });
    await expect.poll(() => tagline.inputValue(), UI).toBe(before.page.tagline);
    // A saved translation shows which English file it is the twin of, not a choice.
    expect(await page.getByText('Translates content/cities/san-jose.yaml.').count()).toBe(1);

    const preview = page.frameLocator('iframe').first();
    await expect.poll(() => preview.locator('h1').textContent(), UI).toBe('Servicios de limpieza profunda en San José, CA');
    expect(await preview.locator('html').getAttribute('lang')).toBe('es-US');
    await tagline.fill('Hogares de San José, limpios como los nuestros');
    await expect.poll(() => preview.getByText('Hogares de San José, limpios como los nuestros').count(), UI).toBe(1);
    // The English original it translates, in English.
    await preview.getByRole('button', { name: 'English original' }).click();
    await expect.poll(() => preview.locator('h1').textContent(), UI).toBe('Deep Cleaning Services in San Jose, CA');
    expect(await preview.locator('html').getAttribute('lang')).toBe('en-US');
    await preview.getByRole('button', { name: 'Español' }).click();
    await expect.poll(() => preview.locator('h1').textContent(), UI).toBe('Servicios de limpieza profunda en San José, CA');

    await publishAndRebuild(page, 'es/cities/san-jose.yaml');
    expect(await panelLink(page)).toBe(`${server.url}/es/ubicaciones/limpieza-profunda-san-jose-ca`);
    expect(await readFile(path.join(outDir, 'es/ubicaciones/limpieza-profunda-san-jose-ca.html'), 'utf8')).toContain('Hogares de San José, limpios como los nuestros');
    const text = await readFile(file, 'utf8');
    expect(text.split('\n')[0]).toBe(MODELINE);
    expect(parseYaml(text)).toEqual({ ...before, page: { ...before.page, tagline: 'Hogares de San José, limpios como los nuestros' } });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('starts a new Spanish city from its English original, named after its file; refuses one without it', async () => {
    const { page, errors } = await openAdmin('/collections/cities-es/new');
    await page.getByLabel('Name', { exact: true }).fill('Milpitas');
    await page.getByLabel('Population', { exact: true }).fill('~80,000');
    await page.getByLabel('Description', { exact: true }).fill('Casas cerca del Great Mall y de las colinas de East Foothills.');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Publish now', { exact: true }).click();
    await expect.poll(() => page.getByText('English original is required.').count(), UI).toBeGreaterThan(0);
    // Decap rejects its own save with nothing (actions/entries.ts: Promise.reject()) when a field is refused.
    errors.splice(0, errors.length, ...errors.filter((e) => e !== 'undefined'));

    const original = page.getByLabel('English original', { exact: true });
    await original.fill('Milp');
    await expect.poll(() => page.getByText('Milpitas (milpitas)', { exact: true }).count(), UI).toBe(1);
    await page.getByText('Milpitas (milpitas)', { exact: true }).click();
    await publishAndRebuild(page, 'es/cities/milpitas.yaml');
    // A city with only a card: its change shows on the Spanish /locations.
    expect(await panelLink(page)).toBe(`${server.url}/es/ubicaciones`);
    const text = await readFile(path.join(contentDir, 'es/cities/milpitas.yaml'), 'utf8');
    expect(text).toBe(`${MODELINE}\nname: Milpitas\npopulation: ~80,000\ndescription: Casas cerca del Great Mall y de las colinas de East Foothills.\n`);
    expect(await problems(contentDir)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('edits a Spanish single page with its own modeline, and links to its /es/ address', async () => {
    const file = path.join(contentDir, 'es/contact.yaml');
    const before = await readFile(file, 'utf8');
    const { page, errors } = await openAdmin('/collections/pages-es/entries/contact');
    const heading = page.getByLabel('Heading', { exact: true }).first();
    await expect.poll(() => heading.inputValue(), UI).toBe((parseYaml(before) as { heading: string }).heading);
    await heading.fill('Hablemos de su hogar');
    await publishAndRebuild(page, 'es/contact.yaml');
    expect(await panelLink(page)).toBe(`${server.url}/es/contacto`);
    const text = await readFile(file, 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/contact.schema.json');
    expect(parseYaml(text)).toEqual({ ...(parseYaml(before) as object), heading: 'Hablemos de su hogar' });
    expect(errors).toEqual([]);
    await page.close();
  });
});
