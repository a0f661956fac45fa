/** Markup shared by the lead forms (ContactForm, DiscountPopup): a labelled field and the submit button. */
import type { ChangeEvent, InputHTMLAttributes, TextareaHTMLAttributes } from 'react';
import LoaderCircle from 'lucide-react/icons/loader-circle';

const INPUT = 'mt-1.5 block scroll-mt-28 w-full rounded-lg border border-ink-300 bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-sm placeholder:text-ink-500 focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30';
const INPUT_INVALID = 'mt-1.5 block scroll-mt-28 w-full rounded-lg border border-danger-600 bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-sm placeholder:text-ink-500 focus:border-danger-600 focus:ring-2 focus:ring-danger-600/30';

/**
 * A required field: its label, the input (or a textarea with `multiline`) and, when invalid, the
 * message, tied to the control by aria-invalid and aria-describedby. `control` holds the control's
 * own attributes (type, autoComplete, maxLength…), rendered in the order given.
 */
export function LeadField({ prefix, name, label, value, error, onChange, multiline = false, control }: {
  /** The form's useId(); the control's id is `${prefix}${name}`, the message's `${prefix}${name}-error`. */
  prefix: string;
  name: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  multiline?: boolean;
  control: InputHTMLAttributes<HTMLInputElement> & TextareaHTMLAttributes<HTMLTextAreaElement>;
}) {
  const id = `${prefix}${name}`;
  const errorId = `${id}-error`;
  const props = {
    id,
    name,
    ...control,
    value,
    onChange,
    'aria-required': 'true' as const,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
    className: error ? INPUT_INVALID : INPUT,
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-ink-800">{label}</label>
      {multiline ? <textarea {...props} /> : <input {...props} />}
      {error ? <p id={errorId} className="mt-1.5 text-sm text-danger-600">{error}</p> : null}
    </div>
  );
}

/** The submit button: disabled with a spinner and `busyLabel` while the form is sending. */
export function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button
      type="submit"
      disabled={busy}
      className="inline-flex w-full items-center justify-center gap-2 rounded-lg bg-brand-600 px-6 py-3 text-base font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-75"
    >
      {busy ? <LoaderCircle aria-hidden="true" className="size-5 animate-spin" /> : null}
      {busy ? busyLabel : label}
    </button>
  );
}
