/**
 * /checklist carries each task once (issue 12): one table per room that CSS lays out as cards on
 * phones, and a tabs island that gets the rooms' ids and labels, not the tasks. Counted in the built
 * HTML (what the visitor downloads) and in the DOM after hydration (what the browser builds).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkContent } from '../../generator/build.js';
import type { SiteModel } from '../../contracts/content.js';
import { useBrowser, useSite } from '../helpers/site.js';

const site = useSite();
const browser = useBrowser();
let model: SiteModel;
let html: string;
beforeAll(async () => {
  model = (await checkContent({ root: process.cwd() })).model;
  html = await readFile(path.join(site.dist, 'checklist.html'), 'utf8');
});

const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

/** How often `needle` occurs in `haystack`, as text or HTML-escaped (JSON in an attribute escapes too). */
function occurrences(haystack: string, needle: string): number {
  const escaped = needle.replace(/&/g, '&amp;').replace(/'/g, '&#x27;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const forms = new Set([needle, escaped]);
  let n = 0;
  for (const form of forms) n += haystack.split(form).length - 1;
  return n;
}

describe('/checklist carries each task once', () => {
  /**
   * How often a task's text is in the checklist itself: rooms share some tasks ("Dust reachable
   * surfaces…" is a kitchen and a bedroom task), and a text may be part of another task's.
   */
  const inChecklist = (task: string) => model.checklist.rooms.flatMap((r) => r.tasks).reduce((n, t) => n + count(t.task, task), 0);

  it('in the built HTML: every task of every room exactly once, none in the island props', () => {
    const tasks = model.checklist.rooms.flatMap((r) => r.tasks.map((t) => t.task));
    expect(tasks.length).toBe(23 + 19 + 16 + 15);
    for (const task of tasks) expect(occurrences(html, task), task).toBe(inChecklist(task));
    const props = /data-island="ChecklistTabs"[^>]*data-props="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(props).not.toBe('');
    expect(props.length).toBeLessThan(500);
  });

  it('in the DOM, on a phone (cards) and a desktop (table) alike, after the tabs hydrated', async () => {
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      await page.goto(`${site.url}/checklist`);
      await page.getByRole('tablist').waitFor();
      const text = await page.evaluate(() => document.body.textContent ?? '');
      for (const room of model.checklist.rooms) {
        const inRoom = await page.locator(`[data-room="${room.id}"]`).evaluate((el) => el.textContent ?? '');
        for (const { task } of room.tasks) {
          expect(count(inRoom, task), `${width}px ${room.id}: ${task}`).toBe(room.tasks.reduce((n, t) => n + count(t.task, task), 0));
          expect(count(text, task), `${width}px: ${task}`).toBe(inChecklist(task));
        }
      }
      await page.close();
    }
  });

  it('every cell is labelled for screen readers, column and row headers included', () => {
    const tasks = model.checklist.rooms.flatMap((r) => r.tasks);
    const count = (v: boolean | 'N/A') => tasks.reduce((n, t) => n + [t.routine, t.deep, t.moveInOut].filter((x) => x === v).length, 0);
    const { labels } = model.site;
    expect(html.match(new RegExp(`<span class="sr-only">${labels.included}</span>`, 'g'))).toHaveLength(count(true));
    expect(html.match(new RegExp(`<span class="sr-only">${labels.notIncluded}</span>`, 'g'))).toHaveLength(count(false));
    expect(html.match(new RegExp(`<span class="[^"]*">${labels.notApplicable}</span>`, 'g'))).toHaveLength(count('N/A'));
    expect(html.match(/<th scope="col"/g)).toHaveLength(4 * model.checklist.rooms.length);
    expect(html.match(/<th scope="row"/g)).toHaveLength(tasks.length);
  });
});
