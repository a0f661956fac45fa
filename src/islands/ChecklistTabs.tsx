/**
 * Room tabs of /checklist (ARIA tabs pattern, automatic activation, roving tabindex). Without
 * JavaScript (server HTML and first client render) every room is shown one after another under its
 * own h2, the tab list stays hidden and a bar of jump links to the rooms stands in its place; after
 * hydration the tab list replaces that bar (same size, so nothing moves) and only the active room is
 * shown. Each room is a table from the md breakpoint and a list of cards below it.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import Check from 'lucide-react/icons/check';
import X from 'lucide-react/icons/x';
import type { ChecklistColumns, ChecklistRoom, ChecklistValue } from '../../contracts/content.js';

export interface ChecklistLabels {
  included: string;
  notIncluded: string;
  notApplicable: string;
}

export interface ChecklistTabsProps {
  rooms: ChecklistRoom[];
  columns: ChecklistColumns;
  labels: ChecklistLabels;
}

type Service = 'routine' | 'deep' | 'moveInOut';
const SERVICES: readonly Service[] = ['routine', 'deep', 'moveInOut'];

function Mark({ value, labels }: { value: ChecklistValue; labels: ChecklistLabels }) {
  if (value === 'N/A') {
    // The label is visible text, so everyone reads the same words.
    return <span className="text-xs font-medium text-ink-600">{labels.notApplicable}</span>;
  }
  return value ? (
    <>
      <Check aria-hidden="true" className="size-5 text-success-600" strokeWidth={2.5} />
      <span className="sr-only">{labels.included}</span>
    </>
  ) : (
    <>
      <X aria-hidden="true" className="size-5 text-ink-300" strokeWidth={2.5} />
      <span className="sr-only">{labels.notIncluded}</span>
    </>
  );
}

function RoomContent({ room, columns, labels }: { room: ChecklistRoom; columns: ChecklistColumns; labels: ChecklistLabels }) {
  return (
    <>
      {/* ≥ md: table */}
      <div className="hidden overflow-hidden rounded-card border border-ink-200 bg-white shadow-card md:block">
        <table className="w-full border-collapse text-left text-sm">
          <thead className="bg-ink-50 text-ink-700">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">{columns.task}</th>
              {SERVICES.map((s) => (
                <th key={s} scope="col" className="w-36 px-4 py-3 text-center font-semibold">{columns[s]}</th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-ink-100">
            {room.tasks.map((item, i) => (
              <tr key={`${i}-${item.task}`} className="even:bg-ink-50/50">
                <th scope="row" className="px-4 py-3 font-normal text-ink-800">{item.task}</th>
                {SERVICES.map((s) => (
                  <td key={s} className="px-4 py-3">
                    <span className="flex items-center justify-center"><Mark value={item[s]} labels={labels} /></span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* phones: one card per task */}
      <ul className="space-y-3 md:hidden">
        {room.tasks.map((item, i) => (
          <li key={`${i}-${item.task}`} className="rounded-card border border-ink-200 bg-white p-4 shadow-card">
            <p className="font-medium text-ink-900">{item.task}</p>
            <dl className="mt-3 grid grid-cols-3 gap-2 text-center text-xs">
              {SERVICES.map((s) => (
                <div key={s} className="flex flex-col items-center gap-1.5 rounded-lg bg-ink-50 px-1 py-2">
                  <dt className="text-ink-600">{columns[s]}</dt>
                  <dd className="flex h-5 items-center"><Mark value={item[s]} labels={labels} /></dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

export default function ChecklistTabs({ rooms, columns, labels }: ChecklistTabsProps) {
  const id = useId();
  const [enhanced, setEnhanced] = useState(false);
  const [active, setActive] = useState(0);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => setEnhanced(true), []);

  const tabId = (i: number) => `${id}tab-${i}`;
  const panelId = (i: number) => `${id}panel-${i}`;

  function select(i: number) {
    setActive(i);
    tabRefs.current[i]?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const last = rooms.length - 1;
    let next: number | undefined;
    if (event.key === 'ArrowRight') next = active === last ? 0 : active + 1;
    else if (event.key === 'ArrowLeft') next = active === 0 ? last : active - 1;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = last;
    if (next === undefined) return;
    event.preventDefault();
    select(next);
  }

  const bar = 'mb-6 flex gap-1 overflow-x-auto rounded-card bg-ink-100 p-1';
  return (
    <div>
      {/* Without JavaScript: the same bar as jump links to the rooms (no layout shift on hydration). */}
      {enhanced ? null : (
        <div className={bar}>
          {rooms.map((room, i) => (
            <a
              key={room.id}
              href={`#${panelId(i)}`}
              className="flex min-h-11 flex-1 items-center justify-center whitespace-nowrap rounded-lg px-4 text-center text-sm font-medium text-ink-700 hover:bg-white/60 hover:text-ink-900"
            >
              {room.label}
            </a>
          ))}
        </div>
      )}
      {/* The tab list exists only once tabs work: before that its tabs would control no panels. */}
      {enhanced && (
      <div
        role="tablist"
        aria-orientation="horizontal"
        onKeyDown={onKeyDown}
        className={bar}
      >
        {rooms.map((room, i) => (
          <button
            key={room.id}
            ref={(el) => {
              tabRefs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={tabId(i)}
            aria-selected={i === active}
            aria-controls={panelId(i)}
            tabIndex={i === active ? 0 : -1}
            onClick={() => select(i)}
            className={
              i === active
                ? 'min-h-11 flex-1 whitespace-nowrap rounded-lg bg-white px-4 text-sm font-semibold text-brand-700 shadow-sm'
                : 'min-h-11 flex-1 whitespace-nowrap rounded-lg px-4 text-sm font-medium text-ink-700 hover:bg-white/60 hover:text-ink-900'
            }
          >
            {room.label}
          </button>
        ))}
      </div>
      )}
      <div className={enhanced ? '' : 'space-y-12'}>
        {rooms.map((room, i) => (
          <section
            key={room.id}
            id={panelId(i)}
            data-room={room.id}
            role={enhanced ? 'tabpanel' : undefined}
            aria-labelledby={enhanced ? tabId(i) : undefined}
            tabIndex={enhanced ? 0 : undefined}
            hidden={enhanced && i !== active}
            className="scroll-mt-24 rounded-card focus-visible:outline-offset-4"
          >
            <h2 className="mb-4 text-2xl font-bold tracking-tight text-ink-900">{room.name}</h2>
            <RoomContent room={room} columns={columns} labels={labels} />
          </section>
        ))}
      </div>
    </div>
  );
}
