/**
 * Quote form of /contact (spec sections 4, 5, 7, 8). Validates with zod on submit and again on
 * every change after a failed submit; inserts into `leads`, then notifies the team; keeps what the
 * visitor typed in sessionStorage until the request succeeds. zod and supabase-js load when the
 * visitor starts typing (src/lib/leadKit.ts).
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ContactTexts } from '../../contracts/content.js';
import { LEAD_LIMITS } from '../../supabase/functions/_shared/leadLimits.js';
import type { ContactField } from '../lib/leadSchemas.js';
import { sessionGet, sessionRemove, sessionSet } from '../lib/sessionStore.js';
import { useLeadForm } from '../lib/useLeadForm.js';
import { LeadField, SubmitButton } from './LeadField.js';

export interface ContactFormProps {
  texts: ContactTexts;
  phone: string;
  page: 'contact';
}

/** sessionStorage key of the unsent draft. */
const CONTACT_DRAFT_KEY = 'quote-form-draft';

type Values = Record<ContactField, string>;

const FIELDS: readonly ContactField[] = ['firstName', 'lastName', 'email', 'phone', 'message'];
const EMPTY: Values = { firstName: '', lastName: '', email: '', phone: '', message: '' };

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
  const [honeypot, setHoneypot] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const form = useLeadForm({
    id,
    fields: FIELDS,
    empty: EMPTY,
    load: () => import('../lib/leadKit.js').then((kit) => kit.contactKit(texts, page)),
    success: texts.success,
    failure: { title: texts.failure.title, description: texts.failure.description.split('{phone}').join(phone) },
    failureLog: 'Quote request failed:',
    onValues: saveDraft,
    onSuccess: () => sessionRemove(CONTACT_DRAFT_KEY),
  });
  const { setValues } = form;

  // After hydration: take what the visitor typed before the script ran, else the saved draft.
  useEffect(() => {
    const element = formRef.current;
    const draft = readDraft();
    const restored = { ...EMPTY };
    let any = false;
    for (const field of FIELDS) {
      const control = element?.elements.namedItem(field);
      const typed = control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement ? control.value : '';
      restored[field] = typed || draft[field] || '';
      if (restored[field]) any = true;
    }
    if (any) {
      setValues(restored);
      saveDraft(restored);
    }
  }, []);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (honeypot.trim() !== '') event.preventDefault(); // a bot: silently ignored, no call and no message
    else void form.onSubmit(event);
  }

  return (
    <form
      ref={formRef}
      method="post"
      noValidate
      onSubmit={onSubmit}
      className="relative space-y-5"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <LeadField {...form.field('firstName')} label={texts.fields.firstName} control={{ type: 'text', autoComplete: 'given-name', maxLength: LEAD_LIMITS.name }} />
        <LeadField {...form.field('lastName')} label={texts.fields.lastName} control={{ type: 'text', autoComplete: 'family-name', maxLength: LEAD_LIMITS.name }} />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <LeadField {...form.field('email')} label={texts.fields.email} control={{ type: 'email', autoComplete: 'email', inputMode: 'email', maxLength: LEAD_LIMITS.email }} />
        <LeadField {...form.field('phone')} label={texts.fields.phone} control={{ type: 'tel', autoComplete: 'tel', inputMode: 'tel', maxLength: LEAD_LIMITS.phone }} />
      </div>
      <LeadField {...form.field('message')} label={texts.fields.message} multiline control={{ rows: 5, maxLength: LEAD_LIMITS.message, placeholder: texts.messagePlaceholder }} />
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
      <SubmitButton busy={form.busy} label={texts.submit} busyLabel={texts.submitting} />
    </form>
  );
}
