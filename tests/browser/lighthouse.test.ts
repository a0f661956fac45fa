/**
 * Lighthouse as search engines and browsers grade a page: Accessibility, Best Practices and SEO each
 * 100 on mobile settings, on the six pages of the issue, served with the headers of _headers.
 * One run per page (these categories do not vary between runs); performance is measured by
 * `npm run bench -- lighthouse`, not here. A failure lists the audits that lost points.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailing, LIGHTHOUSE_PAGES, runLighthouse, startChromium, type Chromium } from '../../tools/lighthouse.js';
import { useSite } from '../helpers/site.js';

describe('Lighthouse (mobile): accessibility, best practices and SEO', () => {
  const site = useSite();
  let chromium: Chromium;
  beforeAll(async () => { chromium = await startChromium(); });
  afterAll(async () => { await chromium?.close(); });

  it.each(LIGHTHOUSE_PAGES)('%s scores 100 in each', async (route) => {
    const run = await runLighthouse(site.url + route, chromium.port, ['accessibility', 'best-practices', 'seo']);
    expect(run.runtimeError, 'Lighthouse could not load the page').toBeUndefined();
    const summary = `${route}: ${JSON.stringify(run.scores)}\n${describeFailing(run)}`;
    expect(run.failing.map((f) => f.id), summary).toEqual([]);
    expect(run.scores, summary).toEqual({ accessibility: 1, 'best-practices': 1, seo: 1 });
  }, 120_000);
});
