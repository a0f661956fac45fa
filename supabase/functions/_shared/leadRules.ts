/**
 * The rules of a lead, written once. The forms (src/lib/leadSchemas.ts), the notify-telegram
 * function and the local stand-in (supabase-standin/) import them; the SQL constraints in
 * supabase/migrations state the same rules for the database, and tests/backend/lead-rules.test.ts
 * runs one table of values through both and expects the same verdict.
 *
 * It lives beside the edge function so that `supabase functions deploy` bundles it; it imports
 * only zod/mini, leadLimits.ts and languages.ts (zod mapped to npm:zod in the function's deno.json), so it runs in Deno, Node and
 * the browser alike.
 */
import * as z from 'zod/mini';
import { LANGUAGES } from './languages.ts';
import { CLICK_IDS, LEAD_LIMITS, TOUCHES, UTM_PARAMS, type ClickId, type Touch, type UtmParam } from './leadLimits.ts';

export { CLICK_IDS, LEAD_LIMITS, TOUCHES, UTM_PARAMS, type ClickId, type Touch, type UtmParam };

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

/**
 * Marketing attribution (issue 31): what brought the visitor, as two touches, the first (kept in
 * the browser for ATTRIBUTION_DAYS) and the last (this visit's). Each touch is the campaign
 * parameters of its address, the referring site's host (never its URL) and where and when it
 * landed. The migration 20261126100000_lead_attribution.sql holds the same rules as domains.
 */

/** How long the first touch is kept: Google Ads imports a click's conversions for 90 days. */
export const ATTRIBUTION_DAYS = 90;
export const ATTRIBUTION_LIMITS = { utm: 200, clickId: 300, host: 253 } as const;

/** A click id (gclid and the like): URL-safe base64 letters only. */
export const CLICK_ID_PATTERN = '^[A-Za-z0-9_-]+$';
/** A host name, lower case, as URL.hostname gives it (IDN as punycode); no scheme, port, path or user. */
export const HOST_PATTERN = '^([a-z0-9]([a-z0-9-]*[a-z0-9])?\\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?$';
/** What a campaign value may not hold: control characters, line separators, markup brackets. */
export const UTM_FORBIDDEN = '[\\u0001-\\u001f\\u007f-\\u009f\\u2028\\u2029<>]';

const utmValue = z.string().check(
  lengthBetween(1, ATTRIBUTION_LIMITS.utm),
  z.refine((value) => value === value.trim(), 'must not start or end with white space'),
  z.refine((value) => !new RegExp(UTM_FORBIDDEN).test(value) && !value.includes('\0'), 'no control characters or < >'),
);
const clickId = z.string().check(z.maxLength(ATTRIBUTION_LIMITS.clickId), z.regex(new RegExp(CLICK_ID_PATTERN), 'Not a click id'));
const webHost = z.string().check(z.maxLength(ATTRIBUTION_LIMITS.host), z.regex(new RegExp(HOST_PATTERN), 'Not a host name'));
/** When the touch happened, as ISO 8601 with its offset (the database also bounds it by the lead's time). */
const touchTime = z.iso.datetime({ offset: true });

const optional = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));

/** The rule of each field of a touch, by its name without the prefix. */
export const touchFieldSchemas = {
  ...Object.fromEntries(UTM_PARAMS.map((name) => [name, utmValue])) as Record<UtmParam, typeof utmValue>,
  ...Object.fromEntries(CLICK_IDS.map((name) => [name, clickId])) as Record<ClickId, typeof clickId>,
  referrer_host: webHost,
  landing_path: sitePathSchema,
  touch_at: touchTime,
};
export type TouchField = keyof typeof touchFieldSchemas;
export const TOUCH_FIELDS = Object.keys(touchFieldSchemas) as TouchField[];

/** One touch, every field unknown (null or left out) or valid. */
export type TouchValues = { [F in TouchField]?: string | null };
/** Both touches as the lead row's columns: first_utm_source, …, last_touch_at. */
export type AttributionColumns = { [K in `${Touch}_${TouchField}`]?: string | null };

type AttributionShape = { [K in `${Touch}_${TouchField}`]: z.ZodMiniOptional<z.ZodMiniNullable<z.ZodMiniString<string>>> };
const attribution = Object.fromEntries(
  TOUCHES.flatMap((touch) => TOUCH_FIELDS.map((field) => [`${touch}_${field}`, optional(touchFieldSchemas[field])])),
) as unknown as AttributionShape;

/**
 * The language the lead was sent in (languages.ts): one of LANGUAGES exactly. Left out, the
 * database stores DEFAULT_LANGUAGE (the column's default); null, another language or another
 * spelling ('EN', 'es-US', '') is refused, as the migration 20261127000000_lead_language.sql refuses it.
 */
export const langSchema = z.enum(LANGUAGES);
const leadLang = { lang: z.optional(langSchema) };

/** A row of public.leads as the anon role may insert it. */
export const leadRowSchema = z.object({
  first_name: storedText(1, LEAD_LIMITS.name),
  last_name: storedText(1, LEAD_LIMITS.name),
  email: storedEmail(),
  phone: storedText(1, LEAD_LIMITS.phone), // spec: required, no format check
  message: storedText(1, LEAD_LIMITS.message),
  page: z.literal(CONTACT_PAGE),
  ...leadLang,
  ...leadSource,
  ...attribution,
});

/** A row of public.discount_leads as the anon role may insert it. */
export const discountLeadRowSchema = z.object({
  email: storedEmail(),
  phone: storedText(DISCOUNT_PHONE_MIN, LEAD_LIMITS.phone),
  page: sitePathSchema,
  ...leadLang,
  ...leadSource,
  ...attribution,
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
