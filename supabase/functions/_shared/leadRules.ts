/**
 * The rules of a lead, written once. The forms (src/lib/leadSchemas.ts), the notify-telegram
 * function and the local stand-in (supabase-standin/) import them; the SQL constraints in
 * supabase/migrations state the same rules for the database, and tests/backend/lead-rules.test.ts
 * runs one table of values through both and expects the same verdict.
 *
 * It lives beside the edge function so that `supabase functions deploy` bundles it; it imports
 * only zod/mini and leadLimits.ts (zod mapped to npm:zod in the function's deno.json), so it runs in Deno, Node and
 * the browser alike.
 */
import * as z from 'zod/mini';
import { LEAD_LIMITS } from './leadLimits.ts';

export { LEAD_LIMITS };

/** Shortest phone the discount popup accepts (spec: at least 10 characters). */
export const DISCOUNT_PHONE_MIN = 10;

/** `page` of every contact-form lead (spec section 7). */
export const CONTACT_PAGE = 'contact';

/**
 * zod's own email pattern (z.email()'s default), spelled so that Postgres' regular expressions
 * read it the same way: the migration's `email ~ '...'` holds this very text.
 */
export const EMAIL_PATTERN = "^([A-Za-z0-9_'+-]+\\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\\.)+[A-Za-z]{2,}$";

/** A page of the site (the popup's page, where a visit began, where it came from): `/` or lowercase slug segments. */
export const SITE_PATH_PATTERN = '^/([a-z0-9]+(-[a-z0-9]+)*(/[a-z0-9]+(-[a-z0-9]+)*)*)?$';

/**
 * Request headers naming the visitor's address, most trusted first: Supabase's Cloudflare front
 * sets cf-connecting-ip itself, so a client cannot forge it. The migration's
 * private.request_client() reads the same headers in the same order.
 */
export const CLIENT_ADDRESS_HEADERS = ['cf-connecting-ip', 'x-real-ip', 'x-forwarded-for'] as const;

/** The visitor's address from request headers ('' when none is known). */
export function clientAddress(get: (name: string) => string | null | undefined): string {
  for (const name of CLIENT_ADDRESS_HEADERS) {
    const value = (get(name) ?? '').split(',')[0]!.trim();
    if (value) return value.slice(0, 100);
  }
  return '';
}

/** Length as Postgres' char_length counts it: code points, so an emoji is one character. */
function charCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

const lengthBetween = (min: number, max: number, error?: string) =>
  z.refine<string>((value) => {
    const n = charCount(value);
    return n >= min && n <= max;
  }, error === undefined ? `must be ${min} to ${max} characters` : { error });

/** Text as stored: nothing but what String.prototype.trim keeps, so never blank. */
const storedText = (min: number, max: number) =>
  z.string().check(
    lengthBetween(min, max),
    z.refine((value) => value === value.trim(), 'must not start or end with white space'),
  );

const storedEmail = () =>
  z.string().check(z.maxLength(LEAD_LIMITS.email), z.regex(new RegExp(EMAIL_PATTERN), 'Invalid email address'));

/**
 * A page of the site as stored: a discount lead's `page`, and where a lead's visit began
 * (`landing_path`) and the page before the form's (`referrer_path`). Never a full URL or a query.
 */
export const sitePathSchema = z.string().check(z.maxLength(LEAD_LIMITS.page), z.regex(new RegExp(SITE_PATH_PATTERN), 'Not a page of the site'));

/** Where the lead came from (issue 20): unknown (null or left out) or a page of the site. */
const leadSource = {
  landing_path: z.optional(z.nullable(sitePathSchema)),
  referrer_path: z.optional(z.nullable(sitePathSchema)),
};

/** A row of public.leads as the anon role may insert it. */
export const leadRowSchema = z.object({
  first_name: storedText(1, LEAD_LIMITS.name),
  last_name: storedText(1, LEAD_LIMITS.name),
  email: storedEmail(),
  phone: storedText(1, LEAD_LIMITS.phone), // spec: required, no format check
  message: storedText(1, LEAD_LIMITS.message),
  page: z.literal(CONTACT_PAGE),
  ...leadSource,
});

/** A row of public.discount_leads as the anon role may insert it. */
export const discountLeadRowSchema = z.object({
  email: storedEmail(),
  phone: storedText(DISCOUNT_PHONE_MIN, LEAD_LIMITS.phone),
  page: sitePathSchema,
  ...leadSource,
});

export type LeadRow = z.output<typeof leadRowSchema>;
export type DiscountLeadRow = z.output<typeof discountLeadRowSchema>;

/**
 * What the forms send to notify-telegram (spec section 7): the contact lead's fields, or the
 * discount lead's with the popup's fixed name and message texts.
 */
export const notifyBodySchema = z.object({
  firstName: storedText(1, LEAD_LIMITS.name),
  lastName: storedText(1, LEAD_LIMITS.name),
  email: storedEmail(),
  phone: storedText(1, LEAD_LIMITS.phone),
  message: storedText(1, LEAD_LIMITS.message),
  page: z.union([z.literal(CONTACT_PAGE), discountLeadRowSchema.shape.page]),
});

export type NotifyBody = z.output<typeof notifyBodySchema>;

/**
 * A form field: trimmed first (a field of spaces counts as empty), then held to the stored rule,
 * with the form's own message for every failure.
 */
export function formText(message: string, min: number, max: number) {
  return z.string().check(z.trim(), lengthBetween(min, max, message));
}

export function formEmail(message: string) {
  return z.pipe(
    z.string().check(z.trim(), z.maxLength(LEAD_LIMITS.email, { error: message })),
    z.email({ pattern: new RegExp(EMAIL_PATTERN), error: message }),
  );
}
