/**
 * Validation of the two lead forms (spec section 5). The messages come from content/forms.yaml
 * (ContactTexts.errors / DiscountTexts.errors), so the schemas are built from them.
 * Values are trimmed, so a field of spaces counts as empty (the database rejects it too).
 */
import * as z from 'zod/mini'; // the tree-shakable build: a few KB in the browser instead of ~25 KB gzip
import type { ContactTexts, DiscountTexts } from './contentSchemas.js';

/** Longest values the database accepts (supabase/migrations); inputs use them as maxLength. */
export const LEAD_LIMITS = { name: 100, email: 254, phone: 40, message: 5000 } as const;

/** Minimum length of the discount popup's phone field (spec: at least 10 characters). */
export const DISCOUNT_PHONE_MIN = 10;

const required = (message: string, max: number) =>
  z.string().check(z.trim(), z.minLength(1, { error: message }), z.maxLength(max, { error: message }));

const email = (message: string) =>
  z.pipe(
    z.string().check(z.trim(), z.maxLength(LEAD_LIMITS.email, { error: message })),
    z.email({ error: message }),
  );

export function contactFormSchema(errors: ContactTexts['errors']) {
  return z.object({
    firstName: required(errors.firstName, LEAD_LIMITS.name),
    lastName: required(errors.lastName, LEAD_LIMITS.name),
    email: email(errors.email),
    phone: required(errors.phone, LEAD_LIMITS.phone), // spec: required, no format check
    message: required(errors.message, LEAD_LIMITS.message),
  });
}

export function discountFormSchema(errors: DiscountTexts['errors']) {
  return z.object({
    email: email(errors.email),
    phone: z.string().check(
      z.trim(),
      z.minLength(DISCOUNT_PHONE_MIN, { error: errors.phone }),
      z.maxLength(LEAD_LIMITS.phone, { error: errors.phone }),
    ),
  });
}

export type ContactFormValues = z.output<ReturnType<typeof contactFormSchema>>;
export type ContactField = keyof ContactFormValues;
export type DiscountFormValues = z.output<ReturnType<typeof discountFormSchema>>;
export type DiscountField = keyof DiscountFormValues;

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/**
 * Validates `values` and returns either the parsed (trimmed) data or the first message of each
 * invalid field.
 */
export function validate<S extends z.ZodMiniType<Record<string, string>>>(
  schema: S,
  values: Record<string, unknown>,
): { ok: true; data: z.output<S> } | { ok: false; errors: FieldErrors<Extract<keyof z.output<S>, string>> } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path[0];
    if (typeof key === 'string' && !(key in errors)) errors[key] = issue.message;
  }
  return { ok: false, errors: errors as FieldErrors<Extract<keyof z.output<S>, string>> };
}
