/**
 * "$25 off" popup (spec sections 2, 4, 5, 7, 8). Closed in the server HTML. When it opens is
 * decided without this code (src/lib/discountSchedule.ts, run by src/entry.ts): the page hydrates
 * this island only when the popup is due, and it opens as it mounts. Never opens again in the
 * browser session once it was closed or submitted (sessionStorage[texts.sessionFlag]). Native modal
 * <dialog>: the page behind is inert, focus moves in, Tab cycles inside, Escape / close button /
 * backdrop close it, focus returns where it was. zod and supabase-js load when the visitor types.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import X from 'lucide-react/icons/x';
import type { DiscountTexts } from '../../contracts/content.js';
import { LEAD_LIMITS } from '../../supabase/functions/_shared/leadLimits.js';
import type { DiscountField } from '../lib/leadSchemas.js';
import { sessionGet, sessionSet } from '../lib/sessionStore.js';
import { useLeadForm } from '../lib/useLeadForm.js';
import { LeadField, SubmitButton } from './LeadField.js';

export interface DiscountPopupProps {
  texts: DiscountTexts;
  /** Path of the page the popup is shown on, e.g. "/" (stored with the lead). */
  page: string;
}

type Values = Record<DiscountField, string>;
const EMPTY: Values = { email: '', phone: '' };
const FIELDS: readonly DiscountField[] = ['email', 'phone'];

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

export default function DiscountPopup({ texts, page }: DiscountPopupProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const returnFocusRef = useRef<Element | null>(null);
  const pressStartedOnBackdrop = useRef(false);

  const { sessionFlag } = texts;
  const form = useLeadForm({
    id,
    fields: FIELDS,
    empty: EMPTY,
    load: () => import('../lib/leadKit.js').then((kit) => kit.discountKit(texts, page)),
    success: texts.success,
    failure: texts.failure,
    failureLog: 'Discount sign-up failed:',
    onSuccess: close,
  });

  // Hydrated when due (src/lib/discountSchedule.ts): open, unless another tab of the session closed it meanwhile.
  useEffect(() => {
    if (!sessionGet(sessionFlag)) setOpen(true);
  }, [sessionFlag]);

  // Open / close the native modal and move focus in and back.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open) {
      if (!dialog.open) {
        returnFocusRef.current = document.activeElement;
        dialog.showModal();
      }
      dialog.querySelector<HTMLInputElement>('input')?.focus();
      return;
    }
    if (dialog.open) dialog.close();
    const back = returnFocusRef.current;
    returnFocusRef.current = null;
    if (back instanceof HTMLElement && back.isConnected && back !== document.body) back.focus({ preventScroll: true });
  }, [open]);

  function close() {
    sessionSet(sessionFlag, 'true');
    setOpen(false);
  }

  function onCancel(event: { preventDefault(): void }) {
    // Escape: React state decides; the dialog element is closed by the effect.
    event.preventDefault();
    close();
  }

  function onNativeClose() {
    // The browser may close the dialog itself (e.g. repeated Escape without user activation).
    if (open) close();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab') return;
    const focusable = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !event.currentTarget.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !event.currentTarget.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  }

  // A click whose press and release both land on the backdrop (the <dialog> box itself has no
  // padding, so only the backdrop targets it directly) closes the popup.
  function onMouseDown(event: MouseEvent<HTMLDialogElement>) {
    pressStartedOnBackdrop.current = event.target === event.currentTarget;
  }
  function onClick(event: MouseEvent<HTMLDialogElement>) {
    if (event.target === event.currentTarget && pressStartedOnBackdrop.current) close();
    pressStartedOnBackdrop.current = false;
  }

  const titleId = `${id}title`;
  const textId = `${id}text`;
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={onCancel}
      onClose={onNativeClose}
      onKeyDown={onKeyDown}
      onMouseDown={onMouseDown}
      onClick={onClick}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md overflow-y-auto rounded-card border-0 bg-white p-0 text-ink-800 shadow-card backdrop:bg-ink-900/60"
    >
      <div className="relative p-6 sm:p-8">
        <button
          type="button"
          onClick={close}
          aria-label={texts.close}
          className="absolute right-3 top-3 rounded-md p-1.5 text-ink-500 hover:bg-ink-100 hover:text-ink-900"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
        <h2 id={titleId} className="pr-8 text-2xl font-bold tracking-tight text-ink-900">{texts.title}</h2>
        <p id={textId} className="mt-2 text-ink-600">{texts.text}</p>
        <form noValidate onSubmit={form.onSubmit} className="mt-6 space-y-4">
          <LeadField {...form.field('email')} label={texts.fields.email} control={{ type: 'email', inputMode: 'email', autoComplete: 'email', maxLength: LEAD_LIMITS.email }} />
          <LeadField {...form.field('phone')} label={texts.fields.phone} control={{ type: 'tel', inputMode: 'tel', autoComplete: 'tel', maxLength: LEAD_LIMITS.phone }} />
          <SubmitButton busy={form.busy} label={texts.submit} busyLabel={texts.submitting} />
          <p className="text-xs leading-relaxed text-ink-500">{texts.consent}</p>
        </form>
      </div>
    </dialog>
  );
}
