import type { ChecklistColumns, ChecklistRoom, ChecklistValue } from '../../contracts/content.js';
import type { Layout as Chrome, PageBody } from '../../contracts/pages.js';
import ChecklistTabs from '../../src/islands/ChecklistTabs.js';
import { LinkButton } from '../components/Buttons.js';
import { CtaSection } from '../components/CtaSection.js';
import { Island } from '../components/Island.js';
import { PageHeader } from '../components/PageHeader.js';

type Props = Extract<PageBody, { kind: 'checklist' }> & { chrome: Chrome };

interface MarkLabels { included: string; notIncluded: string; notApplicable: string }

type Service = 'routine' | 'deep' | 'moveInOut';
const SERVICES: readonly Service[] = ['routine', 'deep', 'moveInOut'];

/** The id of a room's section: the tabs' panel and the no-JavaScript jump links' target. */
const panelId = (room: ChecklistRoom) => `checklist-${room.id}`;

function Mark({ value, labels }: { value: ChecklistValue; labels: MarkLabels }) {
  if (value === 'N/A') {
    // The label is visible text, so everyone reads the same words.
    return <span className="text-xs font-medium text-ink-600">{labels.notApplicable}</span>;
  }
  // The check and the cross are drawn by CSS (.checklist .yes / .no): one icon, not ~200 SVG copies.
  return <span className={value ? 'yes' : 'no'}><span className="sr-only">{value ? labels.included : labels.notIncluded}</span></span>;
}

/**
 * On phones, the cards off screen are skipped by layout and paint (content-visibility: auto) at
 * their usual size until they come near the viewport. Every room is on the page until the tabs
 * hydrate, and the web font swaps in before that: each swap re-laid out the ~2,400 boxes of all
 * 73 cards, the long tasks behind /checklist's Total Blocking Time (issue 19). The size is a card's
 * content box (its padding and border come on top: 130 px in all, as measured at 375 px), so a jump
 * link lands where it would without skipping; "auto" keeps a card's real size once it was shown.
 * Not on the rooms: a room's height depends on its count of tasks, and a wrong guess there moved
 * the jump links' targets. Set on the table, for its rows: one class, not one on each of 73 rows.
 */
const SKIP_OFFSCREEN_CARDS = 'max-md:[&>tbody>tr]:[content-visibility:auto] max-md:[&>tbody>tr]:[contain-intrinsic-size:auto_6rem]';

/**
 * One room's tasks, each once: a table from the md breakpoint; below it CSS (.checklist in
 * templates/styles/site.css) lays each row out as a card, the column headers then visually hidden
 * and each cell showing its column's name.
 */
function RoomTable({ room, columns, labels }: { room: ChecklistRoom; columns: ChecklistColumns; labels: MarkLabels }) {
  return (
    <div className="md:overflow-hidden md:rounded-card md:border md:border-ink-200 md:bg-white md:shadow-card">
      <table className={`checklist ${SKIP_OFFSCREEN_CARDS}`}>
        <thead>
          <tr>
            <th scope="col">{columns.task}</th>
            {SERVICES.map((s) => <th key={s} scope="col">{columns[s]}</th>)}
          </tr>
        </thead>
        <tbody>
          {room.tasks.map((item, i) => (
            <tr key={`${i}-${item.task}`}>
              <th scope="row">{item.task}</th>
              {SERVICES.map((s) => (
                <td key={s}>
                  {/* Phones: the column's name in the card (the header row is visually hidden there). */}
                  <span aria-hidden="true" className="column">{columns[s]}</span>
                  <span className="mark"><Mark value={item[s]} labels={labels} /></span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ChecklistPage({ page, labels, chrome }: Props) {
  const markLabels = { included: labels.included, notIncluded: labels.notIncluded, notApplicable: labels.notApplicable };
  return (
    <>
      <PageHeader heading={page.heading} intro={page.intro} />
      <section aria-label={page.heading} className="bg-ink-50 py-12 sm:py-16">
        <div className="mx-auto max-w-5xl px-4 sm:px-6">
          <Island
            name="ChecklistTabs"
            component={ChecklistTabs}
            props={{ rooms: page.rooms.map((room) => ({ panel: panelId(room), label: room.label })) }}
            hydrate="visible"
          />
          {/* A flex gap, unlike margins, leaves no space for the rooms the tabs hide. */}
          <div className="flex flex-col gap-12">
            {page.rooms.map((room) => (
              <section key={room.id} id={panelId(room)} data-room={room.id} className="scroll-mt-24 rounded-card focus-visible:outline-offset-4">
                <h2 className="mb-4 text-2xl font-bold tracking-tight text-ink-900">{room.name}</h2>
                <RoomTable room={room} columns={page.columns} labels={markLabels} />
              </section>
            ))}
          </div>
        </div>
      </section>
      <CtaSection id="get-started" heading={page.getStarted.heading} text={page.getStarted.text} tone="plain" call={{ phone: chrome.phone, label: page.getStarted.callLabel }}>
        <LinkButton href={chrome.routes.bookOnline}>{page.getStarted.bookLabel}</LinkButton>
      </CtaSection>
    </>
  );
}
