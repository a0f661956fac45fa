/** A list split over numbered pages, and the links between the pages. */
import type { Locations } from '../../contracts/content.js';
import type { Pagination } from '../../contracts/pages.js';
import { fill } from './context.js';

/** `items` in runs of `size`; one page even for no items (a list page exists when it is empty). */
export function pagesOf<T>(items: readonly T[], size: number): T[][] {
  const pages: T[][] = [];
  for (let i = 0; i < items.length; i += size) pages.push(items.slice(i, i + size));
  return pages.length ? pages : [[]];
}

/**
 * The page numbers a nav shows: the first, the last, the current one and its neighbours, with null
 * for each run left out (a run of one page is shown instead: it takes the place of the gap). At
 * most seven entries, whatever the number of pages; Next leads through all of them.
 */
export function pageWindow(current: number, count: number): (number | null)[] {
  const shown = [...new Set([1, current - 1, current, current + 1, count])].filter((n) => n >= 1 && n <= count).sort((a, b) => a - b);
  const window: (number | null)[] = [];
  let before = 0;
  for (const n of shown) {
    if (n - before === 2) window.push(n - 1);
    else if (n - before > 2) window.push(null);
    window.push(n);
    before = n;
  }
  return window;
}

/** The nav of page `current` of `count`, whose addresses `routeOf` gives. */
export function pagination(current: number, count: number, routeOf: (n: number) => string, texts: Locations['pagination']): Pagination {
  const vars = (n: number) => ({ page: String(n), pages: String(count) });
  return {
    label: texts.label,
    status: fill(texts.status, vars(current)),
    ...(current > 1 && { previous: { href: routeOf(current - 1), label: texts.previous } }),
    ...(current < count && { next: { href: routeOf(current + 1), label: texts.next } }),
    pages: pageWindow(current, count).map((n) => (n === null ? null : { number: String(n), href: routeOf(n), label: fill(texts.page, vars(n)), current: n === current })),
  };
}
