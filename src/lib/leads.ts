/**
 * What the two lead forms send (spec section 7), independent of React so it can be tested with a
 * fake backend. Only the insert decides success; the chat notification and the webhook are
 * best-effort and their failures are only logged.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { DiscountTexts } from '../../contracts/content.js';
import { CONTACT_PAGE, type DiscountLeadRow, type LeadRow, type NotifyBody } from '../../supabase/functions/_shared/leadRules.js';
import type { ContactFormValues, DiscountFormValues } from './leadSchemas.js';
import { hasAttribution } from './attribution.js';
import type { LeadSource } from './leadSource.js';

const INSERT_TIMEOUT_MS = 15_000;
const NOTIFY_TIMEOUT_MS = 10_000;
const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookPayload { email: string; phone: string; page: string; timestamp: string; message: string }

/** The backend operations the forms need. */
export interface LeadApi {
  insert(table: 'leads', row: LeadRow): Promise<{ error: unknown }>;
  insert(table: 'discount_leads', row: DiscountLeadRow): Promise<{ error: unknown }>;
  notify(body: NotifyBody): Promise<{ error: unknown }>;
  /** Fire-and-forget POST; resolves when sent (the response of a no-cors request is opaque). */
  webhook(url: string, payload: WebhookPayload): Promise<void>;
}

function timeoutSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(new DOMException('The request timed out', 'TimeoutError')), ms);
  return controller.signal;
}

/** LeadApi over supabase-js and fetch. */
export function supabaseLeadApi(client: SupabaseClient, fetchImpl: typeof fetch = (...args) => fetch(...args)): LeadApi {
  return {
    // Insert only: no .select(), anonymous visitors may not read the tables back.
    insert: async (table: 'leads' | 'discount_leads', row: LeadRow | DiscountLeadRow) => {
      const { error } = await client.from(table).insert(row).abortSignal(timeoutSignal(INSERT_TIMEOUT_MS));
      return { error };
    },
    notify: async (body) => {
      const { error } = await client.functions.invoke('notify-telegram', { body, timeout: NOTIFY_TIMEOUT_MS });
      return { error };
    },
    webhook: async (url, payload) => {
      await fetchImpl(url, {
        method: 'POST',
        // The automation service sends no CORS headers: an opaque request with a safelisted type.
        mode: 'no-cors',
        headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
        body: JSON.stringify(payload),
        keepalive: true,
        signal: timeoutSignal(WEBHOOK_TIMEOUT_MS),
      });
    },
  } as LeadApi;
}

export type SubmitResult = { ok: true } | { ok: false; error: unknown };

/** A refusal of a value (SQLSTATE class 22 data exception or 23 constraint), not of the request. */
function refusedValue(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23]/.test(code);
}

/**
 * Inserts the lead with where it came from and the language it was sent in. The forms clean the
 * attribution to the database's rules first (src/lib/attribution.ts); should the database still
 * refuse a value (a browser clock days off, a rule changed since this page was built), the lead is
 * sent again without it (its language kept): a visitor's request is never lost to a campaign tag.
 */
async function insertLead<T extends LeadRow | DiscountLeadRow>(
  insert: (row: T) => Promise<{ error: unknown }>, row: T, source: LeadSource,
): Promise<{ error: unknown }> {
  const { landing_path, referrer_path, lang, ...attribution } = source;
  const sourced = { ...row, ...(lang !== undefined && { lang }), landing_path, referrer_path };
  const first = await insert({ ...sourced, ...attribution });
  if (!first.error || !hasAttribution(attribution) || !refusedValue(first.error)) return first;
  console.warn('The lead was refused with its attribution; sending it without:', first.error);
  return insert(sourced);
}

async function bestEffort(what: string, run: () => Promise<{ error: unknown } | void>): Promise<void> {
  try {
    const result = await run();
    if (result && result.error) console.error(`${what} failed:`, result.error);
  } catch (error) {
    console.error(`${what} failed:`, error);
  }
}

/**
 * Contact form: insert into leads (page 'contact', the page's language, and which page and marketing brought the visitor), then
 * notify (the notification's body is the spec's: no source).
 */
export async function submitContactLead(values: ContactFormValues, source: LeadSource, api: LeadApi, page: typeof CONTACT_PAGE = CONTACT_PAGE): Promise<SubmitResult> {
  try {
    const { error } = await insertLead((row: LeadRow) => api.insert('leads', row), {
      first_name: values.firstName,
      last_name: values.lastName,
      email: values.email,
      phone: values.phone,
      message: values.message,
      page,
    }, source);
    if (error) return { ok: false, error };
  } catch (error) {
    return { ok: false, error };
  }
  await bestEffort('Lead notification', () => api.notify({
    firstName: values.firstName,
    lastName: values.lastName,
    email: values.email,
    phone: values.phone,
    message: values.message,
    page,
  }));
  return { ok: true };
}

/**
 * Discount popup: insert into discount_leads (with the page it was shown on, its language and which
 * page brought the visitor), notify with the fixed texts, then the webhook (both without the source).
 */
export async function submitDiscountLead(
  values: DiscountFormValues,
  page: string,
  source: LeadSource,
  notification: DiscountTexts['notification'],
  api: LeadApi,
  webhookUrl: string,
  now: () => Date = () => new Date(),
): Promise<SubmitResult> {
  try {
    const { error } = await insertLead((row: DiscountLeadRow) => api.insert('discount_leads', row), {
      email: values.email,
      phone: values.phone,
      page,
    }, source);
    if (error) return { ok: false, error };
  } catch (error) {
    return { ok: false, error };
  }
  await bestEffort('Lead notification', () => api.notify({
    firstName: notification.firstName,
    lastName: notification.lastName,
    email: values.email,
    phone: values.phone,
    message: notification.message,
    page,
  }));
  if (webhookUrl) {
    await bestEffort('Lead webhook', () => api.webhook(webhookUrl, {
      email: values.email,
      phone: values.phone,
      page,
      timestamp: now().toISOString(),
      message: notification.message,
    }));
  }
  return { ok: true };
}
