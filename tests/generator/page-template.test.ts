/**
 * City pages are drawn by React once per shape and filled in after that (generator/render/
 * pageTemplate.ts). A visitor must never tell: every page filled in must be the very bytes React
 * draws for it, and link to the same pages, whatever its texts hold (markup, quotes, JSON and
 * JSON-LD breakers, a text equal to another) and whatever icon it shows.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Layout, PagePlan } from '../../contracts/pages.js';
import { ContentSet } from '../../generator/model/contentSet.js';
import { COLLECTIONS } from '../../generator/collections/index.js';
import { planLayout, planPages, type PlanOptions } from '../../generator/plan/plan.js';
import { renderTemplated, templateStats } from '../../generator/render/pageTemplate.js';
import { renderPage } from '../../generator/render/renderPage.js';
import { writeSyntheticCities } from '../../bench/synthetic.js';
import { contentCopy, ROOT, tempDir } from '../helpers/content.js';

const options: PlanOptions = {
  origin: 'https://www.example.com',
  images: { get: () => ({ src: '/assets/img/hero.svg', width: 1600, height: 900 }) } as unknown as PlanOptions['images'],
  assets: { css: '/assets/site.css', entry: '/assets/entry.js', font: { family: 'Inter Variable', src: '/assets/inter.woff2', weight: '400 800', faceCss: '', loader: '' } },
  year: 2026,
  publication: { now: Date.parse('2026-11-29T00:00:00Z'), drafts: false },
};

const content = new ContentSet({ root: ROOT, contentDir: path.join(ROOT, 'content') });
await content.readAll();
const model = content.assemble().model!;
const cityPlans = planPages(model, options, COLLECTIONS).filter((p): p is PagePlan & { body: { kind: 'city' } } => p.body.kind === 'city');

type CityPlan = (typeof cityPlans)[number];

/** A city page with other texts: `edit` changes a copy. */
function variant(base: CityPlan, edit: (plan: CityPlan) => void): CityPlan {
  const plan = structuredClone(base);
  edit(plan);
  return plan;
}

const html = (chunks: readonly Buffer[]) => Buffer.concat(chunks).toString('utf8');

/** Each page rendered through templates (in order, sharing them) against React's own drawing. */
function expectSameAsReact(plans: readonly PagePlan[], layout: Layout) {
  for (const plan of plans) {
    const templated = renderTemplated(plan, layout);
    const drawn = renderPage(plan, layout);
    expect(html(templated.chunks), plan.route).toBe(html(drawn.chunks));
    expect(new Set(templated.refs), plan.route).toEqual(new Set(drawn.refs));
  }
}

/** A layout of its own: templates are kept per layout, so each test starts with none. */
const freshLayout = () => planLayout(model, options);

describe('city pages filled in from a template', () => {
  it('the site\'s own cities come out as React draws them', () => {
    expect(cityPlans.length).toBeGreaterThan(5);
    expectSameAsReact(cityPlans, freshLayout());
  });

  it('of many cities whose pages differ only in their texts, all but the first few are filled in, not drawn', async () => {
    const copy = await tempDir('page-template-');
    try {
      const contentDir = await contentCopy(copy.dir);
      await writeSyntheticCities(contentDir, 30);
      const synthetic = new ContentSet({ root: ROOT, contentDir });
      await synthetic.readAll();
      const plans = planPages(synthetic.assemble().model!, options, COLLECTIONS).filter((p) => p.route.includes('benchville'));
      expect(plans).toHaveLength(30);
      const before = { ...templateStats };
      expectSameAsReact(plans, freshLayout());
      // The first page of the shape, the second (with the objects every page shares: the business,
      // the discount's texts), the third, from which the template is made; the rest are filled in.
      expect(templateStats.filled - before.filled).toBe(27);
      expect(templateStats.refused - before.refused).toBe(0);
    } finally {
      await copy.remove();
    }
  });

  it('texts that HTML, JSON, JSON-LD or a script would read as code come out as React writes them', () => {
    const base = cityPlans[0]!;
    const tricky = [
      'Tom & Jerry\'s "Best" <b>Clean</b>',
      '</script><script>alert(1)</script>',
      'Back\\slash, "quotes" and \u2028line\u2029separators',
      'Café São Paulo 😀 — naïve',
      'javascript:alert(1)',
      '\uE000 0\uE002"\uE001 private-use markers',
      '{"@graph": []} & <!-- comment -->',
    ];
    const plans = tricky.map((text, i) => variant(base, (p) => {
      p.body.name = `${text} ${i}`;
      p.head.title = `${text} | title`;
      p.head.description = text;
      p.body.content.tagline = text;
      p.body.content.intro[0] = text;
      p.body.content.faqs[0]!.answer = `${text} answer`;
      p.route = `/locations/deep-cleaning-x-${i}-ca`;
      p.file = `locations/deep-cleaning-x-${i}-ca.html`;
      p.head.canonical = `https://www.example.com${p.route}`;
    }));
    const before = templateStats.filled;
    expectSameAsReact([base, base, ...plans], freshLayout());
    // Their texts repeat each other as the base's do not: a shape of their own, met twice before it
    // is filled in. A page with a javascript: text is drawn by React (which changes such a link).
    expect(templateStats.filled - before).toBe(plans.length - 3);
  });

  it('a text equal to another, and an icon of another service, give the page React draws', () => {
    const base = cityPlans[0]!;
    const layout = freshLayout();
    const same = variant(base, (p) => {
      // Equal texts are one text to React (it preloads one image once): the shape says which are equal.
      p.body.content.faqs[0]!.answer = p.body.content.faqs[0]!.question;
      p.body.content.benefits[1] = p.body.content.benefits[0]!;
    });
    const icons = cityPlans.flatMap((c) => c.body.related.map((r) => r.icon));
    const otherIcon = icons.find((icon) => icon !== base.body.related[0]!.icon)!;
    const icon = variant(base, (p) => {
      p.body.related[0]!.icon = otherIcon;
    });
    expectSameAsReact([base, base, same, same, icon, icon, base], layout);
  });
});

describe('article pages filled in from a template', () => {
  const articlePlans = planPages(model, options, COLLECTIONS).filter((p): p is PagePlan & { body: { kind: 'article' } } => p.body.kind === 'article');

  it('of articles whose pages differ only in their texts (dates and reading times of their related cards equal by chance or not), all but the first few of a shape are filled in, as React draws them', () => {
    expect(articlePlans.length).toBeGreaterThan(2);
    const base = articlePlans[0]!;
    const days = ['September 15, 2026', 'October 6, 2026', 'October 20, 2026'];
    const plans = Array.from({ length: 30 }, (_, i) => {
      const plan = structuredClone(base);
      plan.route = `${base.route}-${i}`;
      plan.body.title = `${base.body.title} ${i}`;
      plan.body.breadcrumbs = plan.body.breadcrumbs.map((c, j, all) => (j === all.length - 1 ? { name: plan.body.title, href: plan.route } : c));
      plan.body.html = `${base.body.html}<p>Variant ${i} & <b>more</b></p>`;
      plan.body.readingTime = `${(i % 4) + 3} min read`;
      // The related cards' dates and reading times equal each other's, or the page's, as it happens.
      plan.body.related.cards.forEach((card, j) => {
        card.date.text = days[(i + j) % 3]!;
        card.readingTime = `${((i * (j + 1)) % 4) + 3} min read`;
        card.title = `${card.title} (${i})`;
      });
      plan.head.title = `${plan.body.title} | Bay Shine Cleaning`;
      plan.head.canonical = `https://www.example.com${plan.route}`;
      return plan;
    });
    const before = { ...templateStats };
    expectSameAsReact(plans, freshLayout());
    // The first page of the shape and the second, from which the template is made; the rest are filled in.
    expect(templateStats.filled - before.filled).toBe(28);
    expect(templateStats.refused - before.refused).toBe(0);
  });

  it('finds the links of each body in the body alone, and those of a body that ends inside a tag in the whole page, as React draws them', () => {
    const base = articlePlans[0]!;
    const plans = Array.from({ length: 8 }, (_, i) => {
      const plan = structuredClone(base);
      plan.route = `${base.route}-links-${i}`;
      plan.body.html = `${base.body.html}<p>See <a href="/articles/other-${i}">this</a> and <img src="/images/x-${i}.jpg" alt=""></p>`;
      // A body cut inside an attribute: its address runs on into the template's next tag.
      if (i === 6) plan.body.html += ' <a href="/cut-';
      return plan;
    });
    const layout = freshLayout();
    expectSameAsReact(plans, layout);
    const refs = plans.map((plan) => renderTemplated(plan, layout).refs);
    expect(refs[3]).toContain('/articles/other-3');
    expect(refs[3]).toContain('/images/x-3.jpg');
    expect(refs[6]!.some((r) => r.startsWith('/cut-'))).toBe(true);
  });
});

describe('article list pages filled in from a template', () => {
  const listPlan = planPages(model, options, COLLECTIONS).find((p): p is PagePlan & { body: { kind: 'articleList' } } => p.body.kind === 'articleList' && p.route !== '/articles')!;

  it('numbered pages of one shape (their page numbers, cards and links texts) are filled in as React draws them, with their links', () => {
    expect(listPlan.body.cards.length).toBeGreaterThan(0);
    const plans = Array.from({ length: 12 }, (_, i) => {
      const n = i + 5;
      const plan = structuredClone(listPlan);
      plan.route = `${listPlan.route}/page/${n}`;
      plan.head.canonical = `https://www.example.com${plan.route}`;
      plan.body.cards.forEach((card, j) => {
        card.title = `${card.title} <${n}.${j}> & "more" — café ${"é".repeat(n)}`;
        card.href = `/articles/card-${n}-${j}`;
        card.readingTime = `${(n + j) % 7 + 2} min read`;
      });
      plan.body.pagination = {
        label: 'Pages', status: `Page ${n} of 40`,
        previous: { href: `${listPlan.route}/page/${n - 1}`, label: 'Previous' }, next: { href: `${listPlan.route}/page/${n + 1}`, label: 'Next' },
        pages: [1, null, n - 1, n, n + 1, null, 40].map((m) => (m === null ? null : { number: String(m), href: m === 1 ? listPlan.route : `${listPlan.route}/page/${m}`, label: `Page ${m}`, current: m === n })),
      };
      return plan;
    });
    const before = { ...templateStats };
    const layout = freshLayout();
    expectSameAsReact(plans, layout);
    expect(templateStats.filled - before.filled).toBe(10);
    expect(renderTemplated(plans[7]!, layout).refs).toContain('/articles/card-12-0');
  });
});
