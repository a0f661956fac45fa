import type { Pagination as Nav } from '../../contracts/pages.js';

const chip = 'inline-flex min-h-11 min-w-11 items-center justify-center rounded-full px-4 font-semibold';
const other = `${chip} bg-white text-brand-700 shadow-sm ring-1 ring-brand-200 hover:bg-brand-600 hover:text-white`;
const current = `${chip} bg-brand-600 text-white hover:bg-brand-700`;

/**
 * The links between numbered pages: Previous, a window of page numbers (the current one marked),
 * Next; in a row, stacked on a phone, where one row does not hold them.
 */
export function Pagination({ nav }: { nav: Nav }) {
  return (
    <nav aria-label={nav.label} className="mt-12 flex flex-col items-center justify-center gap-3 sm:flex-row">
      {nav.previous && <a href={nav.previous.href} rel="prev" className={other}>{nav.previous.label}</a>}
      <ul className="flex flex-wrap items-center justify-center gap-2">
        {nav.pages.map((page, i) => (page
          ? (
            <li key={page.number}>
              <a href={page.href} aria-label={page.label} aria-current={page.current ? 'page' : undefined} className={page.current ? current : other}>{page.number}</a>
            </li>
          )
          : <li key={`gap-${i}`} aria-hidden="true" className="px-2 text-ink-600">…</li>))}
      </ul>
      {nav.next && <a href={nav.next.href} rel="next" className={other}>{nav.next.label}</a>}
    </nav>
  );
}
