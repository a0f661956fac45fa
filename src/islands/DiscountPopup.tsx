/**
 * "$25 off" popup (spec sections 2, 4, 5, 7, 8). Closed in the server HTML. Opens texts.delayMs
 * after page load (performance.now(), so a late hydration does not postpone it), or when the
 * visitor pauses scrolling for texts.scrollPauseMs once texts.delayMs have passed since the first
 * scroll. Never opens again in the browser session once it was closed or submitted
 * (sessionStorage[texts.sessionFlag]). Native modal <dialog>: the page behind is inert, focus moves
 * in, Tab cycles inside, Escape / close button / backdrop close it, focus returns where it was.
 */
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent, type FormEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { LoaderCircle, X } from 'lucide-react';
import type { DiscountTexts } from '../../contracts/content.js';
import { LEAD_LIMITS, discountFormSchema, validate, type DiscountField, type FieldErrors } from '../lib/leadSchemas.js';
import { submitDiscountLead } from '../lib/leads.js';
import { sessionGet, sessionSet } from '../lib/sessionStore.js';
import { buildConfig, getLeadApi, preloadSupabase } from '../lib/supabase.js';
import { toast } from '../lib/toast.js';

export interface DiscountPopupProps {
  texts: DiscountTexts;
  /** Path of the page the popup is shown on, e.g. "/" (stored with the lead). */
  page: string;
}

type Values = Record<DiscountField, string>;
const EMPTY: Values = { email: '', phone: '' };
const FIELDS: readonly DiscountField[] = ['email', 'phone'];

/** While another modal dialog is open the popup waits this long and tries again. */
const BUSY_RETRY_MS = 1000;

const INPUT = 'mt-1.5 block scroll-mt-28 w-full rounded-lg border border-ink-300 bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-sm placeholder:text-ink-500 focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30';
const INPUT_INVALID = 'mt-1.5 block scroll-mt-28 w-full rounded-lg border border-danger-600 bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-sm placeholder:text-ink-500 focus:border-danger-600 focus:ring-2 focus:ring-danger-600/30';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

export default function DiscountPopup({ texts, page }: DiscountPopupProps) {
  const id = useId();
  const schema = useMemo(() => discountFormSchema(texts.errors), [texts.errors]);
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<DiscountField>>({});
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const returnFocusRef = useRef<Element | null>(null);
  const pressStartedOnBackdrop = useRef(false);

  const { sessionFlag, delayMs, scrollPauseMs } = texts;

  // When to open.
  useEffect(() => {
    if (sessionGet(sessionFlag)) return;
    let delayTimer: ReturnType<typeof setTimeout> | undefined;
    let pauseTimer: ReturnType<typeof setTimeout> | undefined;
    let firstScroll: number | undefined;
    let stopped = false;

    const stop = () => {
      stopped = true;
      clearTimeout(delayTimer);
      clearTimeout(pauseTimer);
      window.removeEventListener('scroll', onScroll);
    };
    const show = () => {
      if (stopped) return;
      if (sessionGet(sessionFlag)) return stop();
      if (document.querySelector('dialog[open]')) {
        // Another modal (e.g. the menu) is open: do not stack on top of it.
        clearTimeout(delayTimer);
        delayTimer = setTimeout(show, BUSY_RETRY_MS);
        return;
      }
      stop();
      setOpen(true);
    };
    function onScroll() {
      const now = performance.now();
      firstScroll ??= now;
      const since = firstScroll;
      clearTimeout(pauseTimer);
      pauseTimer = setTimeout(() => {
        if (performance.now() - since >= delayMs) show();
      }, scrollPauseMs);
    }

    delayTimer = setTimeout(show, Math.max(0, delayMs - performance.now()));
    window.addEventListener('scroll', onScroll, { passive: true });
    return stop;
  }, [sessionFlag, delayMs, scrollPauseMs]);

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
      preloadSupabase();
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

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const field = event.target.name as DiscountField;
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (attempted) {
      const result = validate(schema, next);
      setErrors(result.ok ? {} : result.errors);
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const result = validate(schema, values);
    setAttempted(true);
    if (!result.ok) {
      setErrors(result.errors);
      const first = FIELDS.find((f) => result.errors[f]);
      if (first) document.getElementById(`${id}${first}`)?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const outcome = await submitDiscountLead(result.data, page, texts.notification, await getLeadApi(), buildConfig.webhookUrl);
      if (!outcome.ok) throw outcome.error;
      toast({ title: texts.success.title, description: texts.success.description });
      setValues(EMPTY);
      setAttempted(false);
      close();
    } catch (error) {
      console.error('Discount sign-up failed:', error);
      toast({ variant: 'destructive', title: texts.failure.title, description: texts.failure.description });
    } finally {
      setBusy(false);
    }
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
        <form noValidate onSubmit={onSubmit} className="mt-6 space-y-4">
          {FIELDS.map((name) => {
            const error = errors[name];
            const inputId = `${id}${name}`;
            const errorId = `${id}${name}-error`;
            return (
              <div key={name}>
                <label htmlFor={inputId} className="block text-sm font-medium text-ink-800">{texts.fields[name]}</label>
                <input
                  id={inputId}
                  name={name}
                  type={name === 'email' ? 'email' : 'tel'}
                  inputMode={name === 'email' ? 'email' : 'tel'}
                  autoComplete={name === 'email' ? 'email' : 'tel'}
                  maxLength={name === 'email' ? LEAD_LIMITS.email : LEAD_LIMITS.phone}
                  value={values[name]}
                  onChange={onChange}
                  aria-required="true"
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? errorId : undefined}
                  className={error ? INPUT_INVALID : INPUT}
                />
                {error ? <p id={errorId} className="mt-1.5 text-sm text-danger-600">{error}</p> : null}
              </div>
            );
          })}
          <button
            type="submit"
            disabled={busy}
            className="inline-flex w-full items-center justify-center gap-2 rounded-lg bg-brand-600 px-6 py-3 text-base font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-75"
          >
            {busy ? <LoaderCircle aria-hidden="true" className="size-5 animate-spin" /> : null}
            {busy ? texts.submitting : texts.submit}
          </button>
          <p className="text-xs leading-relaxed text-ink-500">{texts.consent}</p>
        </form>
      </div>
    </dialog>
  );
}
