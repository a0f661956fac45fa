/**
 * Quote form of /contact (spec sections 4, 5, 7, 8). Validates with zod on submit and again on
 * every change after a failed submit; inserts into `leads`, then notifies the team; keeps what the
 * visitor typed in sessionStorage until the request succeeds.
 */
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { LoaderCircle } from 'lucide-react';
import type { ContactTexts } from '../../contracts/content.js';
import { LEAD_LIMITS, contactFormSchema, validate, type ContactField, type FieldErrors } from '../lib/leadSchemas.js';
import { submitContactLead } from '../lib/leads.js';
import { sessionGet, sessionRemove, sessionSet } from '../lib/sessionStore.js';
import { getLeadApi, preloadSupabase } from '../lib/supabase.js';
import { toast } from '../lib/toast.js';

export interface ContactFormProps {
  texts: ContactTexts;
  phone: string;
  page: 'contact';
}

/** sessionStorage key of the unsent draft. */
export const CONTACT_DRAFT_KEY = 'quote-form-draft';

type Values = Record<ContactField, string>;

const FIELDS: readonly ContactField[] = ['firstName', 'lastName', 'email', 'phone', 'message'];
const EMPTY: Values = { firstName: '', lastName: '', email: '', phone: '', message: '' };

const INPUT = 'mt-1.5 block scroll-mt-28 w-full rounded-lg border border-ink-300 bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-sm placeholder:text-ink-500 focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30';
const INPUT_INVALID = 'mt-1.5 block scroll-mt-28 w-full rounded-lg border border-danger-600 bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-sm placeholder:text-ink-500 focus:border-danger-600 focus:ring-2 focus:ring-danger-600/30';

function readDraft(): Partial<Values> {
  const raw = sessionGet(CONTACT_DRAFT_KEY);
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return {};
    const draft: Partial<Values> = {};
    for (const field of FIELDS) {
      const value = (parsed as Record<string, unknown>)[field];
      if (typeof value === 'string') draft[field] = value;
    }
    return draft;
  } catch {
    return {};
  }
}

function saveDraft(values: Values): void {
  if (FIELDS.every((f) => values[f] === '')) sessionRemove(CONTACT_DRAFT_KEY);
  else sessionSet(CONTACT_DRAFT_KEY, JSON.stringify(values));
}

export default function ContactForm({ texts, phone, page }: ContactFormProps) {
  const id = useId();
  const schema = useMemo(() => contactFormSchema(texts.errors), [texts.errors]);
  const [values, setValues] = useState<Values>(EMPTY);
  const [honeypot, setHoneypot] = useState('');
  const [errors, setErrors] = useState<FieldErrors<ContactField>>({});
  const [attempted, setAttempted] = useState(false);
  const [pending, setPending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  // After hydration: take what the visitor typed before the script ran, else the saved draft.
  useEffect(() => {
    const form = formRef.current;
    const draft = readDraft();
    const restored = { ...EMPTY };
    let any = false;
    for (const field of FIELDS) {
      const control = form?.elements.namedItem(field);
      const typed = control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement ? control.value : '';
      restored[field] = typed || draft[field] || '';
      if (restored[field]) any = true;
    }
    if (any) {
      setValues(restored);
      saveDraft(restored);
    }
  }, []);

  const fieldId = (field: ContactField) => `${id}${field}`;
  const errorId = (field: ContactField) => `${id}${field}-error`;

  function onChange(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) {
    const field = event.target.name as ContactField;
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    saveDraft(next);
    if (attempted) {
      const result = validate(schema, next);
      setErrors(result.ok ? {} : result.errors);
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    if (honeypot.trim() !== '') return; // a bot: silently ignored, no call and no message

    const result = validate(schema, values);
    setAttempted(true);
    if (!result.ok) {
      setErrors(result.errors);
      const first = FIELDS.find((f) => result.errors[f]);
      if (first) document.getElementById(fieldId(first))?.focus();
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const outcome = await submitContactLead(result.data, await getLeadApi(), page);
      if (!outcome.ok) throw outcome.error;
      toast({ title: texts.success.title, description: texts.success.description });
      setValues(EMPTY);
      setAttempted(false);
      sessionRemove(CONTACT_DRAFT_KEY);
    } catch (error) {
      console.error('Quote request failed:', error);
      toast({
        variant: 'destructive',
        title: texts.failure.title,
        description: texts.failure.description.split('{phone}').join(phone),
      });
    } finally {
      setPending(false);
    }
  }

  function field(name: ContactField, label: string, input: { type?: string; autoComplete: string; maxLength: number; inputMode?: 'email' | 'tel' }) {
    const error = errors[name];
    return (
      <div>
        <label htmlFor={fieldId(name)} className="block text-sm font-medium text-ink-800">{label}</label>
        <input
          id={fieldId(name)}
          name={name}
          type={input.type ?? 'text'}
          autoComplete={input.autoComplete}
          inputMode={input.inputMode}
          maxLength={input.maxLength}
          value={values[name]}
          onChange={onChange}
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId(name) : undefined}
          className={error ? INPUT_INVALID : INPUT}
        />
        {error ? <p id={errorId(name)} className="mt-1.5 text-sm text-danger-600">{error}</p> : null}
      </div>
    );
  }

  const messageError = errors.message;
  return (
    <form
      ref={formRef}
      method="post"
      noValidate
      onSubmit={onSubmit}
      onFocus={preloadSupabase}
      className="relative space-y-5"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        {field('firstName', texts.fields.firstName, { autoComplete: 'given-name', maxLength: LEAD_LIMITS.name })}
        {field('lastName', texts.fields.lastName, { autoComplete: 'family-name', maxLength: LEAD_LIMITS.name })}
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        {field('email', texts.fields.email, { type: 'email', autoComplete: 'email', maxLength: LEAD_LIMITS.email, inputMode: 'email' })}
        {field('phone', texts.fields.phone, { type: 'tel', autoComplete: 'tel', maxLength: LEAD_LIMITS.phone, inputMode: 'tel' })}
      </div>
      <div>
        <label htmlFor={fieldId('message')} className="block text-sm font-medium text-ink-800">{texts.fields.message}</label>
        <textarea
          id={fieldId('message')}
          name="message"
          rows={5}
          maxLength={LEAD_LIMITS.message}
          placeholder={texts.messagePlaceholder}
          value={values.message}
          onChange={onChange}
          aria-required="true"
          aria-invalid={messageError ? true : undefined}
          aria-describedby={messageError ? errorId('message') : undefined}
          className={messageError ? INPUT_INVALID : INPUT}
        />
        {messageError ? <p id={errorId('message')} className="mt-1.5 text-sm text-danger-600">{messageError}</p> : null}
      </div>
      {/* Honeypot: invisible to people and assistive technology, tempting to form-filling bots. */}
      <div aria-hidden="true" className="absolute -left-[10000px] top-auto h-px w-px overflow-hidden">
        <label htmlFor={`${id}website`}>{texts.fields.honeypot}</label>
        <input
          id={`${id}website`}
          name="website"
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={honeypot}
          onChange={(e) => setHoneypot(e.target.value)}
        />
      </div>
      <button
        type="submit"
        disabled={pending}
        className="inline-flex w-full items-center justify-center gap-2 rounded-lg bg-brand-600 px-6 py-3 text-base font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-75"
      >
        {pending ? <LoaderCircle aria-hidden="true" className="size-5 animate-spin" /> : null}
        {pending ? texts.submitting : texts.submit}
      </button>
    </form>
  );
}
