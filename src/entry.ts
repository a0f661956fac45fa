/**
 * The only script a page loads (type=module, added by the inline loader once the page has painted:
 * templates/layout/Document.tsx, src/scripts/font-loader.js).
 * It finds the server-rendered islands (templates/components/Island.tsx) and hydrates each one
 * when its data-hydrate condition is met:
 *   idle        - when the browser is idle (requestIdleCallback, setTimeout fallback)
 *   visible     - when the island comes within 200px of the viewport
 *   interaction - on the first pointerdown / focusin / keydown / touchstart inside it
 *   scheduled   - when the island's schedule (islandSchedules in ./islands/registry.ts) says so
 * None of them before the page's first paint.
 * React and each island's code are loaded on demand (separate chunks), so this file stays tiny.
 * A form submitted before its island has hydrated is held and submitted again once it has.
 */
import type { ComponentType } from 'react';
import { isIslandName, islandLoaders, islandSchedules, type IslandName } from './islands/registry.js';

const IDLE_TIMEOUT_MS = 2000;
const INTERACTION_EVENTS = ['pointerdown', 'focusin', 'keydown', 'touchstart'] as const;

/** React and the island's code (fetched once; called early to warm them up). */
function load(name: IslandName) {
  return Promise.all([import('react'), import('react-dom/client'), islandLoaders[name]()]);
}

function props(el: HTMLElement): object {
  return JSON.parse(el.dataset.props ?? '{}') as object;
}

async function hydrate(el: HTMLElement, name: IslandName): Promise<void> {
  const [{ createElement }, { hydrateRoot }, { default: Component }] = await load(name);
  hydrateRoot(el, createElement(Component as ComponentType<object>, props(el)), { identifierPrefix: `${name}-` });
}

/**
 * Settles once the page has painted. React and the islands' code would otherwise load while a
 * phone still fetches what the first paint needs (and Lighthouse counts them in the largest paint).
 */
const firstPaint = new Promise<void>((resolve) => {
  if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    new PerformanceObserver((_, observer) => {
      observer.disconnect();
      resolve();
    }).observe({ type: 'paint', buffered: true });
  } else if (document.readyState === 'complete') resolve();
  else addEventListener('load', () => resolve(), { once: true });
});

function onIdle(run: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(run, 1);
}

function onVisible(el: HTMLElement, run: () => void): void {
  // The marker is display:contents (no box of its own): watch its children instead.
  const targets = Array.from(el.children);
  if (!('IntersectionObserver' in window) || targets.length === 0) return onIdle(run);
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        run();
      }
    },
    { rootMargin: '200px' },
  );
  for (const target of targets) observer.observe(target);
}

function onInteraction(el: HTMLElement, run: () => void): void {
  const trigger = () => {
    for (const type of INTERACTION_EVENTS) el.removeEventListener(type, trigger, true);
    run();
  };
  for (const type of INTERACTION_EVENTS) el.addEventListener(type, trigger, { capture: true, passive: true });
}

function start(el: HTMLElement): void {
  const name = el.dataset.island ?? '';
  if (!isIslandName(name)) {
    console.warn(`Unknown island "${name}"`);
    return;
  }

  let started: Promise<void> | undefined;
  let heldForm: HTMLFormElement | undefined;
  const onSubmit = (event: Event, form = event.target) => {
    // Not hydrated yet: never let the browser post the form natively; submit it after hydration.
    event.preventDefault();
    if (form instanceof HTMLFormElement) heldForm = form;
    run();
  };
  el.addEventListener('submit', onSubmit, true);
  if (held && el.contains(held)) onSubmit(new Event('submit', { cancelable: true }), held);

  function run(): void {
    started ??= hydrate(el, name as IslandName).then(
      () => {
        el.removeEventListener('submit', onSubmit, true);
        const form = heldForm;
        // Let React finish hydrating and run the island's effects before resubmitting.
        if (form) setTimeout(() => form.isConnected && form.requestSubmit(), 100);
      },
      (error: unknown) => {
        el.removeEventListener('submit', onSubmit, true);
        console.error(`Island ${name} failed to load:`, error);
      },
    );
  }

  void firstPaint.then(() => {
    switch (el.dataset.hydrate) {
      case 'visible':
        return onVisible(el, run);
      case 'interaction':
        return onInteraction(el, run);
      case 'scheduled': {
        const schedule = islandSchedules[name];
        if (!schedule) return onIdle(run);
        return schedule(props(el), { prepare: () => void load(name).catch(() => {}), open: run });
      }
      default:
        return onIdle(run);
    }
  });
}

// The inline loader (src/scripts/font-loader.js) held the forms submitted before this script ran:
// from here on each island holds its own, and a form the loader held is sent once its island is up.
declare global {
  var heldSubmit: (((event: Event) => void) & { form?: HTMLFormElement }) | undefined;
}
const held = globalThis.heldSubmit?.form;
if (globalThis.heldSubmit) removeEventListener('submit', globalThis.heldSubmit, true);

for (const el of document.querySelectorAll<HTMLElement>('[data-island]')) start(el);
