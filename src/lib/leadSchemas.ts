/**
 * Validation of the two lead forms (spec section 5). The messages come from content/forms.yaml
 * (ContactTexts.errors / DiscountTexts.errors), so the schemas are built from them.
 * The rules themselves (lengths, email pattern, trimming) are the leads' one source,
 * supabase/functions/_shared/leadRules.ts, which the database's constraints mirror.
 */
import * as z from 'zod/mini'; // the tree-shakable build: a few KB in the browser instead of ~25 KB gzip
import { DISCOUNT_PHONE_MIN, LEAD_LIMITS, formEmail, formText } from '../../supabase/functions/_shared/leadRules.js';
import type { ContactTexts, DiscountTexts } from '../../contracts/content.js';

export function contactFormSchema(errors: ContactTexts['errors']) {
  return z.object({
    firstName: formText(errors.firstName, 1, LEAD_LIMITS.name),
    lastName: formText(errors.lastName, 1, LEAD_LIMITS.name),
    email: formEmail(errors.email),
    phone: formText(errors.phone, 1, LEAD_LIMITS.phone), // spec: required, no format check
    message: formText(errors.message, 1, LEAD_LIMITS.message),
  });
}

export function discountFormSchema(errors: DiscountTexts['errors']) {
  return z.object({
    email: formEmail(errors.email),
    phone: formText(errors.phone, DISCOUNT_PHONE_MIN, LEAD_LIMITS.phone),
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
