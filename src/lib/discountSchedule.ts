/**
 * When the "$25 off" popup opens (spec sections 4 and 9), decided without React or the popup's
 * code, so neither loads before the popup is about to open: texts.delayMs after page load
 * (performance.now(), so a late script does not postpone it), or when the visitor pauses scrolling
 * for texts.scrollPauseMs once texts.delayMs have passed since the first scroll; never in a browser
 * session where it was closed or submitted (sessionStorage[texts.sessionFlag]). src/entry.ts runs it
 * for the DiscountPopup island: `prepare` fetches the code PREPARE_AHEAD_MS early, `open` hydrates
 * the island, which opens as it mounts.
 */
import type { DiscountTexts } from '../../contracts/content.js';
import { sessionGet } from './sessionStore.js';

/** How long before the popup is due its code starts loading. */
const PREPARE_AHEAD_MS = 1500;
/** While another modal dialog is open the popup waits this long and tries again. */
const BUSY_RETRY_MS = 1000;

export type DiscountTiming = Pick<DiscountTexts, 'sessionFlag' | 'delayMs' | 'scrollPauseMs'>;

export function scheduleDiscount({ sessionFlag, delayMs, scrollPauseMs }: DiscountTiming, { prepare, open }: { prepare(): void; open(): void }): void {
  if (sessionGet(sessionFlag)) return;
  let delayTimer: ReturnType<typeof setTimeout> | undefined;
  let pauseTimer: ReturnType<typeof setTimeout> | undefined;
  let firstScroll: number | undefined;
  let done = false;

  const show = () => {
    if (done) return;
    if (sessionGet(sessionFlag)) return stop();
    if (document.querySelector('dialog[open]')) {
      // Another modal (e.g. the menu) is open: do not stack on top of it.
      clearTimeout(delayTimer);
      delayTimer = setTimeout(show, BUSY_RETRY_MS);
      return;
    }
    stop();
    open();
  };
  function stop() {
    done = true;
    clearTimeout(delayTimer);
    clearTimeout(pauseTimer);
    removeEventListener('scroll', onScroll);
  }
  function onScroll() {
    const now = performance.now();
    firstScroll ??= now;
    const since = firstScroll;
    clearTimeout(pauseTimer);
    pauseTimer = setTimeout(() => {
      if (performance.now() - since >= delayMs) show();
    }, scrollPauseMs);
  }

  setTimeout(() => { if (!done) prepare(); }, Math.max(0, delayMs - PREPARE_AHEAD_MS - performance.now()));
  delayTimer = setTimeout(show, Math.max(0, delayMs - performance.now()));
  addEventListener('scroll', onScroll, { passive: true });
}
