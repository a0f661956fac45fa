/** Headless Debian Chromium through playwright-core, for the browser tests, the benchmark and the docs' screenshots. */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

export async function launchBrowser(): Promise<Browser> {
  if (!chromiumAvailable()) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export interface ConsoleLog {
  errors: string[];
  warnings: string[];
}

/**
 * Collects console errors/warnings and uncaught exceptions of a page. Chromium's own
 * "Failed to load resource" lines (a blocked or failing request) are left out: they are not ours.
 */
export function collectConsole(page: Page): ConsoleLog {
  const log: ConsoleLog = { errors: [], warnings: [] };
  page.on('console', (msg: ConsoleMessage) => {
    const text = msg.text();
    if (msg.type() === 'error' && !text.startsWith('Failed to load resource')) log.errors.push(text);
    if (msg.type() === 'warning') log.warnings.push(text);
  });
  page.on('pageerror', (err) => log.errors.push(`pageerror: ${err.message}`));
  return log;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Puts axe-core into the page as `window.axe`. Evaluated through the DevTools protocol, which the
 * site's Content-Security-Policy does not govern (a script tag would be refused, rightly).
 */
export async function injectAxe(page: Page): Promise<void> {
  await page.evaluate(AXE_SOURCE);
}

/** Waits until the island `name` on the page is hydrated (React has attached to its element). */
export async function islandHydrated(page: Page, name: string): Promise<void> {
  await page.waitForFunction((n) => {
    const el = document.querySelector(`[data-island="${n}"]`)?.firstElementChild;
    return !!el && Object.keys(el).some((k) => k.startsWith('__reactFiber'));
  }, name);
}

/** axe-core's violations on the whole page, one readable line each (rule, impact, help, where). */
export async function axeViolations(page: Page): Promise<string[]> {
  await injectAxe(page);
  return page.evaluate(async () => {
    interface Result { violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<Result> } }).axe;
    // Not into frames: the booking portal's pages are the vendor's (unreachable in tests: axe would
    // wait on each frame for an answer); the <iframe> elements themselves are still checked.
    const result = await axe.run(document, { resultTypes: ['violations'], iframes: false });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
