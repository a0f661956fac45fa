/**
 * State and submit logic of a lead form (spec sections 5 and 8), shared by ContactForm and
 * DiscountPopup: validates on submit and, after a failed submit, on every change; moves focus to the
 * first invalid field; while sending, `busy` is set and another submit is ignored; on success a toast,
 * the fields emptied and `onSuccess`; on failure a destructive toast and what was typed kept.
 * Validation and sending (src/lib/leadKit.ts, with zod and supabase-js) load on the first keystroke,
 * or at the latest on submit: reading a page never downloads them.
 */
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { LeadKit } from './leadKit.js';
import type { FieldErrors } from './leadSchemas.js';
import { toast } from './toast.js';

export interface LeadFormOptions<V extends Record<string, string>> {
  /** The form's useId(): a field's id is `${id}${name}`. */
  id: string;
  /** The fields in the order of the form (the first invalid one gets the focus). */
  fields: readonly Extract<keyof V, string>[];
  empty: V;
  /** Loads the form's validation and sending (a dynamic import of src/lib/leadKit.ts). */
  load: () => Promise<LeadKit<V>>;
  success: { title: string; description: string };
  failure: { title: string; description: string };
  /** What the console says before the error when sending fails. */
  failureLog: string;
  /** After each change the visitor makes. */
  onValues?: (values: V) => void;
  /** After a success, once the fields are emptied. */
  onSuccess: () => void;
}

export function useLeadForm<V extends Record<string, string>>({ id, fields, empty, load, success, failure, failureLog, onValues, onSuccess }: LeadFormOptions<V>) {
  type Field = Extract<keyof V, string>;
  const [values, setValues] = useState<V>(empty);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const kit = useRef<{ pending?: Promise<LeadKit<V>>; ready?: LeadKit<V> }>({});

  /** The kit, loaded once; a failed load (offline) is tried again next time. */
  function loadKit(): Promise<LeadKit<V>> {
    const state = kit.current;
    if (!state.pending) {
      const pending = load().then((k) => (state.ready = k));
      pending.catch(() => { if (state.pending === pending) state.pending = undefined; });
      state.pending = pending;
    }
    return state.pending;
  }

  function onChange(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) {
    const next = { ...values, [event.target.name]: event.target.value };
    setValues(next);
    onValues?.(next);
    loadKit().catch(() => {}); // the visitor started: fetch the code now, submit reports a failure
    // After a failed submit the kit is there (the submit waited for it).
    if (attempted && kit.current.ready) {
      const result = kit.current.ready.validate(next);
      setErrors(result.ok ? {} : result.errors);
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    try {
      let ready = kit.current.ready;
      if (!ready) {
        setBusy(true); // the first submit waits for the code: say so
        ready = await loadKit();
      }
      const result = ready.validate(values);
      setAttempted(true);
      if (!result.ok) {
        setBusy(false);
        setErrors(result.errors);
        const first = fields.find((f) => result.errors[f]);
        if (first) document.getElementById(`${id}${first}`)?.focus();
        return;
      }
      setErrors({});
      setBusy(true);
      const outcome = await ready.send(result.data);
      if (!outcome.ok) throw outcome.error;
      toast(success);
      setValues(empty);
      setAttempted(false);
      onSuccess();
    } catch (error) {
      console.error(failureLog, error);
      toast({ variant: 'destructive', ...failure });
    } finally {
      setBusy(false);
    }
  }

  /** The props of LeadField for one field. */
  const field = (name: Field) => ({ prefix: id, name, value: values[name], error: errors[name], onChange });

  return { setValues, busy, onSubmit, field };
}
