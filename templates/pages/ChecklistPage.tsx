import { Phone } from 'lucide-react';
import type { Layout as Chrome, PageBody } from '../../contracts/pages.js';
import ChecklistTabs from '../../src/islands/ChecklistTabs.js';
import { LinkButton } from '../components/Buttons.js';
import { Island } from '../components/Island.js';

type Props = Extract<PageBody, { kind: 'checklist' }> & { chrome: Chrome };

export function ChecklistPage({ page, labels, chrome }: Props) {
  return (
    <>
      <section className="bg-gradient-to-br from-brand-800 to-brand-950 py-16 text-center text-white sm:py-20">
        <div className="mx-auto max-w-3xl px-4 sm:px-6">
          <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">{page.heading}</h1>
          <p className="mt-5 text-lg text-white/90">{page.intro}</p>
        </div>
      </section>
      <section aria-label={page.heading} className="bg-ink-50 py-12 sm:py-16">
        <div className="mx-auto max-w-5xl px-4 sm:px-6">
          <Island
            name="ChecklistTabs"
            component={ChecklistTabs}
            props={{ rooms: page.rooms, columns: page.columns, labels: { included: labels.included, notIncluded: labels.notIncluded, notApplicable: labels.notApplicable } }}
            hydrate="visible"
          />
        </div>
      </section>
      <section aria-labelledby="get-started" className="bg-white py-16 text-center">
        <div className="mx-auto max-w-2xl px-4">
          <h2 id="get-started" className="text-3xl font-bold tracking-tight text-balance text-ink-900 sm:text-4xl">{page.getStarted.heading}</h2>
          <p className="mt-4 text-lg text-ink-700">{page.getStarted.text}</p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <LinkButton href="/book-online">{page.getStarted.bookLabel}</LinkButton>
            <LinkButton href={chrome.phone.href} variant="outline"><Phone className="size-4" aria-hidden="true" />{page.getStarted.callLabel}: {chrome.phone.display}</LinkButton>
          </div>
        </div>
      </section>
    </>
  );
}
