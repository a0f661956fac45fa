import type { Breadcrumb } from '../../contracts/pages.js';

export function Breadcrumbs({ items, label }: { items: readonly Breadcrumb[]; label: string }) {
  return (
    <nav aria-label={label} className="text-sm text-white/90">
      <ol className="flex flex-wrap items-center gap-x-2">
        {items.map((item, i) => (
          <li key={item.href} className="flex items-center gap-2">
            {i > 0 && <span aria-hidden="true">/</span>}
            {i === items.length - 1
              ? <span aria-current="page">{item.name}</span>
              : <a href={item.href} className="inline-flex min-h-11 min-w-11 items-center underline-offset-4 hover:underline">{item.name}</a>}
          </li>
        ))}
      </ol>
    </nav>
  );
}
