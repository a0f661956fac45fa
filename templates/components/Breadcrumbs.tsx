import type { Breadcrumb } from '../../contracts/pages.js';

/**
 * `linkCurrent`: the current page is a link too, marked aria-current="page" (the WAI-ARIA
 * breadcrumb pattern); the article pages use it, so each of their texts is shown in the page.
 */
export function Breadcrumbs({ items, label, linkCurrent = false }: { items: readonly Breadcrumb[]; label: string; linkCurrent?: boolean }) {
  return (
    <nav aria-label={label} className="text-sm text-white/90">
      <ol className="flex flex-wrap items-center gap-x-2">
        {items.map((item, i) => (
          <li key={item.href} className="flex items-center gap-2">
            {i > 0 && <span aria-hidden="true">/</span>}
            {i === items.length - 1
              ? linkCurrent
                ? <a href={item.href} aria-current="page" className="inline-flex min-h-11 min-w-11 items-center underline-offset-4 hover:underline">{item.name}</a>
                : <span aria-current="page">{item.name}</span>
              : <a href={item.href} className="inline-flex min-h-11 min-w-11 items-center underline-offset-4 hover:underline">{item.name}</a>}
          </li>
        ))}
      </ol>
    </nav>
  );
}
