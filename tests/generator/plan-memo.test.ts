/**
 * npm run dev plans again on every save and reuses the plans of pages whose inputs did not change.
 * A reused plan that misses an input would leave a stale page in the browser: after each kind of
 * edit, the remembered plans must equal plans made from scratch, and an edit to one city must
 * leave every other page's plan the very same object (so only that page is rendered again).
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSyntheticCities } from '../../bench/synthetic.js';
import { CITIES_PER_PAGE, type SiteModel } from '../../contracts/content.js';
import type { ImageRef, PagePlan } from '../../contracts/pages.js';
import { ContentSet } from '../../generator/model/contentSet.js';
import { PlanMemo } from '../../generator/plan/memo.js';
import { COLLECTIONS } from '../../generator/collections/index.js';
import { planPages, type PlanOptions } from '../../generator/plan/plan.js';
import { ROOT, useContentCopy } from '../helpers/content.js';

const anyImage: ImageRef = { src: '/assets/img/x.svg', width: 10, height: 10 };
const images = { get: () => anyImage } as unknown as PlanOptions['images'];
const options = (memo?: PlanMemo): PlanOptions => ({ origin: 'https://example.com', images, assets: { css: '/a.css', font: { family: 'F', src: '/f.woff2', weight: '400', faceCss: '', loader: '' } }, year: 2026, publication: { now: Date.parse('2026-11-29T00:00:00Z'), drafts: false }, ...(memo && { memo }) });

/**
 * The pages that grow with the cities whose plan is a new object after an edit: city pages,
 * /locations, /services and the service pages, the ones a site of 10,000 cities has 10,000 of or
 * that list its cities. The few single pages are planned again; that is cheap.
 */
function replanned(before: Map<string, PagePlan>, after: Map<string, PagePlan>): string[] {
  const scaling = [...after.values()].filter((p) => ['city', 'locations', 'services', 'service'].includes(p.body.kind));
  return scaling.filter((plan) => before.get(plan.route) !== plan).map((plan) => plan.route);
}

describe('plans remembered between saves (npm run dev)', () => {
  const copy = useContentCopy('plan-memo-');

  async function session() {
    const content = new ContentSet({ root: ROOT, contentDir: copy.contentDir });
    await content.readAll();
    const memo = new PlanMemo();
    const model = (): SiteModel => {
      const result = content.assemble();
      if (!result.model) throw new Error(JSON.stringify(result.errors));
      return result.model;
    };
    const byRoute = (pages: PagePlan[]) => new Map(pages.map((p) => [p.route, p]));
    return {
      plan: () => byRoute(planPages(model(), options(memo), COLLECTIONS)),
      fresh: () => byRoute(planPages(model(), options(), COLLECTIONS)),
      async edit(rel: string, change: (text: string) => string) {
        const file = path.join(copy.contentDir, rel);
        await writeFile(file, change(await readFile(file, 'utf8')));
        await content.reread([rel]);
      },
      async add(rel: string, text: string) {
        await writeFile(path.join(copy.contentDir, rel), text);
        await content.reread([rel]);
      },
      async remove(rel: string) {
        await rm(path.join(copy.contentDir, rel));
        await content.reread([rel]);
      },
    };
  }

  it('an edited city: of the pages that grow with the cities, only its own gets a new plan, equal to one made from scratch', async () => {
    const s = await session();
    const before = s.plan();
    await s.edit('cities/palo-alto.yaml', (t) => t.replace(/tagline: .*/, 'tagline: Edited in the dev server.'));
    const after = s.plan();
    const changed = replanned(before, after);
    expect(changed).toEqual(['/locations/deep-cleaning-palo-alto-ca']);
    expect(JSON.stringify(after.get(changed[0]!))).toContain('Edited in the dev server.');
    expect(after).toEqual(s.fresh());
  });

  it('past one page of cities: an edited card plans again only the page of /locations that shows it, and a city added leaves the service pages alone', async () => {
    await writeSyntheticCities(copy.contentDir, 2 * CITIES_PER_PAGE);
    const s = await session();
    const before = s.plan();
    const pageShowing = (plans: Map<string, PagePlan>, name: string) =>
      [...plans.values()].find((p) => p.body.kind === 'locations' && p.body.cities.some((c) => c.name === name))?.route;
    await s.edit('cities/benchville-60.yaml', (t) => t.replace(/^description: .*/m, 'description: Edited in the dev server.'));
    const edited = s.plan();
    expect(pageShowing(edited, 'Benchville 60')).toMatch(/^\/locations\/page\/\d+$/);
    expect(replanned(before, edited)).toEqual([pageShowing(edited, 'Benchville 60'), '/locations/deep-cleaning-benchville-60-ca']);
    expect(edited).toEqual(s.fresh());

    // Last by name: its card goes on the last page, and it is not among the cities a service page lists.
    await s.add('cities/zeta-town.yaml', 'name: Zeta Town\npopulation: "~1,000"\ndescription: The last city of the list.\n');
    const added = s.plan();
    const last = pageShowing(added, 'Zeta Town');
    expect(last).toBe([...added.keys()].filter((r) => r.startsWith('/locations/page/')).at(-1));
    expect(replanned(edited, added)).toEqual([last]);
    expect(added).toEqual(s.fresh());
  });

  it('edits to shared files and to the list of cities reach every page that shows them', async () => {
    const s = await session();
    s.plan();
    const edits: [string, () => Promise<void>][] = [
      ['site phone', () => s.edit('site.yaml', (t) => t.replace('(408) 555-0186', '(408) 555-0199'))],
      ['a service name', () => s.edit('services/move-in-out-cleaning.yaml', (t) => t.replace(/^name: .*/m, 'name: Moving Day Cleaning'))],
      ['a city card', () => s.edit('cities/colma.yaml', (t) => t.replace(/^population: .*/m, 'population: "~1,234"'))],
      ['the city page texts', () => s.edit('locations.yaml', (t) => t.replace(/faqHeading: .*/, 'faqHeading: "Questions from {city}"'))],
      ['the discount form', () => s.edit('forms.yaml', (t) => t.replace('Save $25 on your first cleaning', 'Save today'))],
      ['a city removed', () => s.remove('cities/belmont.yaml')],
    ];
    for (const [what, edit] of edits) {
      const before = JSON.stringify([...s.plan()]);
      await edit();
      const after = s.plan();
      expect(JSON.stringify([...after]), what).not.toBe(before);
      expect(after, what).toEqual(s.fresh());
    }
  });

  it('an article added to a topic changes the count each page of that topic says, though it shows on the last only', async () => {
    const s = await session();
    // Article n is a day older than article n - 1: the one added last is the oldest, on the last page.
    const article = (n: number) => ['---', `title: "Topic Question Number ${n}"`, `description: "What our crews answer when asked topic question number ${n}."`,
      `date: 2026-03-${String(28 - n).padStart(2, '0')}T09:00`, 'tags:', '  - window tracks', 'author: The Bay Shine Cleaning team', 'draft: false', '---', '', `Answer number ${n}.`, ''].join('\n');
    for (let n = 0; n < 25; n++) await s.add(`articles/topic-question-${n}.md`, article(n));
    s.plan();
    await s.add('articles/topic-question-25.md', article(25));
    const after = s.plan();
    expect(after.has('/articles/tags/window-tracks/page/3')).toBe(true);
    expect(after.has('/articles/tags/window-tracks/page/4')).toBe(false);
    expect(JSON.stringify(after.get('/articles/tags/window-tracks/page/2'))).toContain('(26 so far)');
    expect(after).toEqual(s.fresh());
  });
});
