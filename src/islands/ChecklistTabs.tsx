/**
 * Room tabs of /checklist (ARIA tabs pattern, automatic activation, roving tabindex) over the rooms
 * the page renders itself (templates/pages/ChecklistPage.tsx): this island gets each room's panel
 * id and tab label, never the tasks. Without JavaScript (server HTML and first client render) every
 * room is shown one after another under its own h2 and a bar of jump links to the rooms stands
 * where the tab list goes; after hydration the tab list replaces that bar (same size, so nothing
 * moves), the panels become its tab panels and only the active room is shown.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

export interface ChecklistTabsProps {
  /** In page order: the id of the room's server-rendered section and the tab's label. */
  rooms: { panel: string; label: string }[];
}

const tabId = (panel: string) => `${panel}-tab`;

export default function ChecklistTabs({ rooms }: ChecklistTabsProps) {
  const [enhanced, setEnhanced] = useState(false);
  const [active, setActive] = useState(0);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => setEnhanced(true), []);

  // The panels are not React's: mark them as tab panels and show the active one.
  useEffect(() => {
    if (!enhanced) return;
    rooms.forEach((room, i) => {
      const panel = document.getElementById(room.panel);
      if (!panel) return;
      panel.setAttribute('role', 'tabpanel');
      panel.setAttribute('aria-labelledby', tabId(room.panel));
      panel.tabIndex = 0;
      panel.hidden = i !== active;
    });
  }, [enhanced, active, rooms]);

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
  // Without JavaScript: the same bar as jump links to the rooms (no layout shift on hydration).
  // The tab list exists only once tabs work: before that its tabs would control no panels.
  if (!enhanced) {
    return (
      <div className={bar}>
        {rooms.map((room) => (
          <a
            key={room.panel}
            href={`#${room.panel}`}
            className="flex min-h-11 flex-1 items-center justify-center whitespace-nowrap rounded-lg px-4 text-center text-sm font-medium text-ink-700 hover:bg-white/60 hover:text-ink-900"
          >
            {room.label}
          </a>
        ))}
      </div>
    );
  }
  return (
    <div role="tablist" aria-orientation="horizontal" onKeyDown={onKeyDown} className={bar}>
      {rooms.map((room, i) => (
        <button
          key={room.panel}
          ref={(el) => {
            tabRefs.current[i] = el;
          }}
          type="button"
          role="tab"
          id={tabId(room.panel)}
          aria-selected={i === active}
          aria-controls={room.panel}
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
  );
}
