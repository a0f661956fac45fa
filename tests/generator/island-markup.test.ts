/**
 * An island's server markup is drawn once and reused on every page with the same markup
 * (templates/components/Island.tsx): the reuse must never carry one page's props to another, and
 * the discount popup, reused across pages whose `page` differs, must really draw the same markup
 * whatever the page.
 */
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { checkContent } from '../../generator/build.js';
import DiscountPopup from '../../src/islands/DiscountPopup.js';
import { Discount } from '../../templates/components/Discount.js';

const { model } = await checkContent({ root: process.cwd() });
const texts = model!.forms.discount;

/** The props an island's marker carries, as the browser reads them. */
function islandProps(html: string, name: string): unknown {
  const attr = new RegExp(`data-island="${name}"[^>]*data-props="([^"]*)"`).exec(html)?.[1];
  if (attr === undefined) throw new Error(`no ${name} island in ${html.slice(0, 200)}`);
  return JSON.parse(attr.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
}

describe('island markup drawn once per site', () => {
  it('the discount popup draws the same markup on every page: only its props name the page', () => {
    const draw = (page: string) => renderToString(createElement(DiscountPopup, { texts, page }), { identifierPrefix: 'DiscountPopup-' });
    expect(draw('/locations/deep-cleaning-san-jose-ca')).toBe(draw('/'));
  });

  it('each page keeps its own props, and the same markup as when drawn on its own', () => {
    const pages = ['/', '/contact', '/locations/deep-cleaning-campbell-ca', '/'];
    const drawn = pages.map((page) => renderToString(createElement(Discount, { texts, page, closeLabel: 'Close' })));
    pages.forEach((page, i) => expect(islandProps(drawn[i]!, 'DiscountPopup')).toEqual({ texts, page }));
    const alone = renderToString(createElement(DiscountPopup, { texts, page: '/contact' }), { identifierPrefix: 'DiscountPopup-' });
    for (const html of drawn) expect(html).toContain(alone);
    // Other texts draw other markup: the reuse is by what the markup shows.
    const other = renderToString(createElement(Discount, { texts: { ...texts, title: 'Another title' }, page: '/', closeLabel: 'Close' }));
    expect(other).toContain('Another title');
    expect(other).not.toContain(`>${texts.title}<`);
  });
});
