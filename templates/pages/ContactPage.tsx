import { Clock, Mail, MapPin, Phone, type IconComponent } from '../components/Icon.js';
import type { PageBody } from '../../contracts/pages.js';
import ContactForm from '../../src/islands/ContactForm.js';
import Toaster from '../../src/islands/Toaster.js';
import { Island } from '../components/Island.js';
import { PageHeader } from '../components/PageHeader.js';

type Props = Extract<PageBody, { kind: 'contact' }>;
const cardIcons: Record<Props['cards'][number]['kind'], IconComponent> = { phone: Phone, email: Mail, area: MapPin, hours: Clock };

export function ContactPage({ page, texts, cards, toastClose }: Props) {
  return (
    <>
      <PageHeader heading={page.heading} intro={page.intro} />
      <div className="bg-ink-50 py-12 sm:py-16">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 sm:px-6 lg:grid-cols-[1fr_22rem]">
          <section aria-labelledby="form-heading" className="rounded-card bg-white p-6 shadow-card sm:p-8">
            <h2 id="form-heading" className="text-2xl font-bold text-ink-900">{page.formTitle}</h2>
            <p className="mt-2 text-ink-600">{page.formIntro}</p>
            <div className="mt-6">
              <Island name="ContactForm" component={ContactForm} props={{ texts, phone: cards.find((c) => c.kind === 'phone')?.value ?? '', page: 'contact' as const }} hydrate="idle" />
            </div>
          </section>
          <ul className="grid content-start gap-4" aria-label={page.cardsLabel}>
            {cards.map((card) => {
              const CardIcon = cardIcons[card.kind];
              return (
                <li key={card.kind} className="flex gap-4 rounded-card bg-white p-5 shadow-card">
                  <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-700"><CardIcon className="size-5" aria-hidden="true" /></span>
                  <div>
                    <h2 className="font-semibold text-ink-900">{card.title}</h2>
                    {card.href ? <a href={card.href} className="inline-flex min-h-11 items-center font-medium break-all text-brand-700 hover:underline">{card.value}</a> : <p className="flex min-h-11 items-center font-medium text-ink-800">{card.value}</p>}
                    <p className="text-sm text-ink-600">{card.note}</p>
                  </div>
                </li>
              );
            })}
          </ul>
        </div>
      </div>
      <Island name="Toaster" component={Toaster} props={{ closeLabel: toastClose }} hydrate="scheduled" />
    </>
  );
}
