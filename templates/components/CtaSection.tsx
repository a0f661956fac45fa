import { Children, type ReactNode } from 'react';
import { PhoneButton } from './Buttons.js';

const tones = {
  /** The dark band that closes a service or city page. */
  band: { section: 'bg-brand-800 py-16 text-white sm:py-20', box: 'mx-auto max-w-3xl px-4 text-center sm:px-6', heading: '', text: 'text-white/90' },
  /** A white section, centred. */
  plain: { section: 'bg-white py-16 text-center', box: 'mx-auto max-w-2xl px-4', heading: ' text-ink-900', text: 'text-ink-700' },
  /** A tinted card on a white section. */
  card: { section: 'bg-white py-16 sm:py-20', box: 'mx-auto max-w-3xl rounded-card bg-brand-50 px-6 py-12 text-center sm:px-12', heading: ' text-ink-900', text: 'text-ink-700' },
} as const;

/**
 * A call to action: an h2, a line of text and its buttons (the children, then a phone button when
 * `call` is given; two or more stand in a row).
 */
export function CtaSection({ id, heading, text, tone, call, children }: {
  /** Id of the heading, which labels the section. */
  id: string;
  heading: string;
  text: string;
  tone: keyof typeof tones;
  call?: { phone: { display: string; href: string }; label: string };
  children: ReactNode;
}) {
  const t = tones[tone];
  const row = Children.count(children) > 1 || call !== undefined;
  return (
    <section aria-labelledby={id} className={t.section}>
      <div className={t.box}>
        <h2 id={id} className={`text-3xl font-bold tracking-tight text-balance${t.heading} sm:text-4xl`}>{heading}</h2>
        <p className={`mt-4 text-lg ${t.text}`}>{text}</p>
        <div className={row ? 'mt-8 flex flex-col justify-center gap-3 sm:flex-row' : 'mt-8'}>
          {children}
          {call && <PhoneButton phone={call.phone} label={call.label} />}
        </div>
      </div>
    </section>
  );
}
