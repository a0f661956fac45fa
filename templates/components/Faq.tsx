import { ChevronDown } from './Icon.js';
import type { FaqItem } from '../../contracts/pages.js';

/**
 * FAQ accordion without JavaScript: exclusive <details> (same name) keep one item open at a time,
 * and each stays collapsible and keyboard operable.
 */
export function Faq({ id, heading, items }: { id: string; heading: string; items: readonly FaqItem[] }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="bg-ink-50 py-16 sm:py-20">
      <div className="mx-auto max-w-3xl px-4 sm:px-6">
        <h2 id={`${id}-heading`} className="text-center text-3xl font-bold tracking-tight text-balance text-ink-900 sm:text-4xl">{heading}</h2>
        <div className="mt-10 space-y-3">
          {items.map((item, i) => (
            <details key={i} name={id} className="group rounded-card border border-ink-200 bg-white shadow-card" {...(i === 0 ? { open: true } : {})}>
              <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 text-left text-lg font-semibold text-ink-900 [&::-webkit-details-marker]:hidden">
                {item.question}
                <ChevronDown className="size-5 shrink-0 text-brand-700 transition-transform group-open:rotate-180" aria-hidden="true" />
              </summary>
              <p className="px-5 pb-5 leading-relaxed text-ink-700">{item.answer}</p>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
