/**
 * Toast viewport (one per page, hydrated on idle). Two live regions are rendered from the start so
 * screen readers announce what is added later: polite (role=status) for normal toasts, assertive
 * (role=alert) for destructive ones. Toasts close after TOAST_DURATION_MS (paused while hovered or
 * focused) or with their close button.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import X from 'lucide-react/icons/x';
import {
  TOAST_DURATION_MS, dismissToast, getServerToasts, getToasts, subscribeToasts, type Toast,
} from '../lib/toast.js';

export interface ToasterProps {
  closeLabel: string;
}

export default function Toaster({ closeLabel }: ToasterProps) {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getServerToasts);
  const polite = toasts.filter((t) => t.variant !== 'destructive');
  const assertive = toasts.filter((t) => t.variant === 'destructive');
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-0 z-[100] flex flex-col items-center gap-2 p-4 sm:inset-x-auto sm:right-0 sm:items-end">
      <div role="alert" aria-live="assertive" aria-atomic="false" className="flex w-full flex-col gap-2 sm:w-96">
        {assertive.map((t) => <ToastItem key={t.id} toast={t} closeLabel={closeLabel} />)}
      </div>
      <div role="status" aria-live="polite" aria-atomic="false" className="flex w-full flex-col gap-2 sm:w-96">
        {polite.map((t) => <ToastItem key={t.id} toast={t} closeLabel={closeLabel} />)}
      </div>
    </div>
  );
}

function ToastItem({ toast, closeLabel }: { toast: Toast; closeLabel: string }) {
  const [paused, setPaused] = useState(false);
  const remaining = useRef(TOAST_DURATION_MS);

  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = setTimeout(() => dismissToast(toast.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current = Math.max(1000, remaining.current - (Date.now() - started));
    };
  }, [paused, toast.id]);

  const destructive = toast.variant === 'destructive';
  return (
    <div
      data-toast={toast.variant}
      className={
        destructive
          ? 'pointer-events-auto flex w-full items-start gap-3 rounded-card border border-danger-600 bg-danger-600 p-4 text-white shadow-card'
          : 'pointer-events-auto flex w-full items-start gap-3 rounded-card border border-ink-200 bg-white p-4 text-ink-900 shadow-card'
      }
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setPaused(false);
      }}
    >
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold">{toast.title}</p>
        {toast.description ? (
          <p className={destructive ? 'mt-1 text-sm text-white' : 'mt-1 text-sm text-ink-600'}>{toast.description}</p>
        ) : null}
      </div>
      <button
        type="button"
        onClick={() => dismissToast(toast.id)}
        aria-label={closeLabel}
        className={
          destructive
            ? 'shrink-0 rounded-md p-1 text-white hover:bg-white/20'
            : 'shrink-0 rounded-md p-1 text-ink-500 hover:bg-ink-100 hover:text-ink-900'
        }
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
