import { ArrowRight, Icon } from './Icon.js';
import { Section } from './Section.js';

export interface RelatedCard {
  name: string;
  href: string;
  icon: Parameters<typeof Icon>[0]['name'];
  text: string;
}

/** The "related" section of a service or city page: a row of linked cards. */
export function RelatedCards({ heading, items }: { heading: string; items: RelatedCard[] }) {
  return (
    <Section id="related" heading={heading}>
      <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        {items.map((r) => (
          <li key={r.href}>
            <a href={r.href} className="group flex h-full flex-col rounded-card border border-ink-200 bg-white p-6 shadow-card transition hover:border-brand-400">
              <span className="grid size-12 place-items-center rounded-xl bg-brand-50 text-brand-700"><Icon name={r.icon} /></span>
              <span className="mt-4 text-lg font-semibold text-ink-900">{r.name}</span>
              <span className="mt-2 flex-1 text-ink-600">{r.text}</span>
              <ArrowRight className="mt-4 size-5 text-brand-700 transition group-hover:translate-x-1" aria-hidden="true" />
            </a>
          </li>
        ))}
      </ul>
    </Section>
  );
}
