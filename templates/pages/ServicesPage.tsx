import type { PageBody } from '../../contracts/pages.js';
import { LinkButton } from '../components/Buttons.js';
import { CtaSection } from '../components/CtaSection.js';
import { CircleCheck, Icon } from '../components/Icon.js';
import { PageHeader } from '../components/PageHeader.js';

type Props = Extract<PageBody, { kind: 'services' }> & { bookOnline: string };

export function ServicesPage({ page, cards, labels, bookOnline }: Props) {
  return (
    <>
      <PageHeader heading={page.heading} intro={page.intro} tall />
      <section aria-label={page.heading} className="bg-ink-50 py-16 sm:py-20">
        <ul className="mx-auto grid max-w-6xl gap-6 px-4 sm:px-6 md:grid-cols-2">
          {cards.map((card) => (
            <li key={card.href} className="flex flex-col rounded-card bg-white p-7 shadow-card">
              <span className="grid size-12 place-items-center rounded-xl bg-brand-50 text-brand-700"><Icon name={card.icon} /></span>
              <h2 className="mt-4 text-2xl font-bold text-ink-900"><a href={card.href} className="inline-flex min-h-11 items-center hover:text-brand-700">{card.name}</a></h2>
              <p className="mt-3 leading-relaxed text-ink-700">{card.summary}</p>
              <h3 className="mt-6 font-semibold text-ink-900">{page.includedHeading}</h3>
              <ul className="mt-3 flex-1 space-y-2">
                {card.included.map((item) => <li key={item} className="flex gap-2 text-ink-700"><CircleCheck className="mt-0.5 size-5 shrink-0 text-brand-600" aria-hidden="true" />{item}</li>)}
              </ul>
              <div className="mt-7"><LinkButton href={bookOnline} className="w-full sm:w-auto">{labels.getFreeQuote}</LinkButton></div>
            </li>
          ))}
        </ul>
      </section>
      <CtaSection id="services-cta" heading={page.cta.heading} text={page.cta.text} tone="plain">
        <LinkButton href={page.cta.button.href}>{page.cta.button.label}</LinkButton>
      </CtaSection>
    </>
  );
}
