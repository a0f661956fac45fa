import type { Layout as Chrome, PageBody } from '../../contracts/pages.js';
import { BOOK_ONLINE } from '../../contracts/routes.js';
import ChecklistTabs from '../../src/islands/ChecklistTabs.js';
import { LinkButton } from '../components/Buttons.js';
import { CtaSection } from '../components/CtaSection.js';
import { Island } from '../components/Island.js';
import { PageHeader } from '../components/PageHeader.js';

type Props = Extract<PageBody, { kind: 'checklist' }> & { chrome: Chrome };

export function ChecklistPage({ page, labels, chrome }: Props) {
  return (
    <>
      <PageHeader heading={page.heading} intro={page.intro} />
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
      <CtaSection id="get-started" heading={page.getStarted.heading} text={page.getStarted.text} tone="plain" call={{ phone: chrome.phone, label: page.getStarted.callLabel }}>
        <LinkButton href={BOOK_ONLINE}>{page.getStarted.bookLabel}</LinkButton>
      </CtaSection>
    </>
  );
}
