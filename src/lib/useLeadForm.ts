/**
 * State and submit logic of a lead form (spec sections 5 and 8), shared by ContactForm and
 * DiscountPopup: validates on submit and, after a failed submit, on every change; moves focus to the
 * first invalid field; while sending, `busy` is set and another submit is ignored; on success a toast,
 * the fields emptied and `onSuccess`; on failure a destructive toast and what was typed kept.
 */
import { useState, type ChangeEvent, type FormEvent } from 'react';
import type * as z from 'zod/mini';
import { validate, type FieldErrors } from './leadSchemas.js';
import type { SubmitResult } from './leads.js';
import { toast } from './toast.js';

type Schema = z.ZodMiniType<Record<string, string>>;
type Field<S extends Schema> = Extract<keyof z.output<S>, string>;

export interface LeadFormOptions<S extends Schema> {
  /** The form's useId(): a field's id is `${id}${name}`. */
  id: string;
  schema: S;
  /** The fields in the order of the form (the first invalid one gets the focus). */
  fields: readonly Field<S>[];
  empty: Record<Field<S>, string>;
  /** Sends the validated (trimmed) values. */
  send: (data: z.output<S>) => Promise<SubmitResult>;
  success: { title: string; description: string };
  failure: { title: string; description: string };
  /** What the console says before the error when sending fails. */
  failureLog: string;
  /** After each change the visitor makes. */
  onValues?: (values: Record<Field<S>, string>) => void;
  /** After a success, once the fields are emptied. */
  onSuccess: () => void;
}

export function useLeadForm<S extends Schema>({ id, schema, fields, empty, send, success, failure, failureLog, onValues, onSuccess }: LeadFormOptions<S>) {
  type Values = Record<Field<S>, string>;
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<FieldErrors<Field<S>>>({});
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);

  function onChange(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) {
    const next = { ...values, [event.target.name]: event.target.value };
    setValues(next);
    onValues?.(next);
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
      const first = fields.find((f) => result.errors[f]);
      if (first) document.getElementById(`${id}${first}`)?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const outcome = await send(result.data);
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
  const field = (name: Field<S>) => ({ prefix: id, name, value: values[name], error: errors[name], onChange });

  return { setValues, busy, onSubmit, field };
}
