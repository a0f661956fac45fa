/**
 * What a lead form needs only once the visitor starts on it: validation (zod), sending (with the
 * page that brought the visitor and the page's language, read as the form is sent: src/lib/leadSource.ts), and the
 * Supabase client. The islands import this module dynamically (one chunk, `forms`), on the first
 * keystroke or at the latest on submit, so a visitor who only reads never downloads it; creating a
 * kit starts loading supabase-js too.
 */
import type { ContactTexts, DiscountTexts } from '../../contracts/content.js';
import { contactFormSchema, discountFormSchema, validate, type ContactFormValues, type DiscountFormValues, type FieldErrors } from './leadSchemas.js';
import { submitContactLead, submitDiscountLead, type SubmitResult } from './leads.js';
import { currentLeadSource } from './leadSource.js';
import { buildConfig, getLeadApi, preloadSupabase } from './supabase.js';

/** A form's validation and sending, for useLeadForm. */
export interface LeadKit<V extends Record<string, string>> {
  validate(values: Record<string, string>): { ok: true; data: V } | { ok: false; errors: FieldErrors<Extract<keyof V, string>> };
  send(data: V): Promise<SubmitResult>;
}

export function contactKit(texts: ContactTexts, page: 'contact'): LeadKit<ContactFormValues> {
  preloadSupabase();
  const schema = contactFormSchema(texts.errors);
  return {
    validate: (values) => validate(schema, values),
    send: async (data) => submitContactLead(data, currentLeadSource(), await getLeadApi(), page),
  };
}

export function discountKit(texts: DiscountTexts, page: string): LeadKit<DiscountFormValues> {
  preloadSupabase();
  const schema = discountFormSchema(texts.errors);
  return {
    validate: (values) => validate(schema, values),
    send: async (data) => submitDiscountLead(data, page, currentLeadSource(), texts.notification, await getLeadApi(), buildConfig.webhookUrl),
  };
}
