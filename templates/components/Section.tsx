import type { ReactNode } from 'react';

/** A page section with an h2 and optional intro, centred on a max-width column. */
export function Section({ id, heading, intro, children, tone = 'white' }: {
  id: string;
  heading: string;
  intro?: string | undefined;
  children: ReactNode;
  tone?: 'white' | 'tint';
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className={`py-16 sm:py-20 ${tone === 'tint' ? 'bg-brand-50' : 'bg-white'}`}>
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-3xl text-center">
          <h2 id={`${id}-heading`} className="text-3xl font-bold tracking-tight text-balance text-ink-900 sm:text-4xl">{heading}</h2>
          {intro && <p className="mt-4 text-lg leading-relaxed text-ink-600">{intro}</p>}
        </div>
        <div className="mt-12">{children}</div>
      </div>
    </section>
  );
}
