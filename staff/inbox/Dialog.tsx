/**
 * A modal dialog on the native <dialog>: showModal() makes the rest of the page inert (focus and
 * clicks stay inside) and Escape closes it; on close, focus goes back to what had it before.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';

export function Dialog({ title, onClose, children, className, role }: { title: string; onClose: () => void; children: ReactNode; className?: string; role?: 'alertdialog' }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    const onCancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog ref={ref} className={`dialog ${className ?? ''}`} aria-labelledby={titleId} {...(role && { role })}>
      <div className="dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="button icon" onClick={() => close.current()} aria-label="Close">×</button>
      </div>
      {children}
    </dialog>
  );
}
