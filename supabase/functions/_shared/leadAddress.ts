/**
 * A lead's own address in the staff inbox, /leads#lead/<kind>/<id>, written once: notify-telegram
 * links to it from the Telegram message, and the inbox page (staff/inbox) reads it. It lives beside
 * the edge function so that `supabase functions deploy` bundles it; no imports, so it runs in Deno,
 * Node and the browser alike.
 */

/** The inbox page's path on the site. */
export const INBOX_ROUTE = '/leads';

/** The two lead tables as the inbox names them: public.leads holds quote requests, public.discount_leads discount sign-ups. */
export const LEAD_KINDS = ['quote', 'discount'] as const;
export type LeadKind = (typeof LEAD_KINDS)[number];

export interface LeadRef {
  kind: LeadKind;
  /** The row's uuid, lower case. */
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isLeadKind = (value: unknown): value is LeadKind => LEAD_KINDS.includes(value as LeadKind);

/** `{kind, id}` when `kind` is a lead kind and `id` a uuid, else undefined (the values may come from anyone). */
export function leadRef(kind: unknown, id: unknown): LeadRef | undefined {
  if (!isLeadKind(kind) || typeof id !== 'string' || !UUID.test(id)) return undefined;
  return { kind, id: id.toLowerCase() };
}

/** The location hash of a lead in the inbox. */
export const leadHash = (ref: LeadRef) => `#lead/${ref.kind}/${ref.id}`;

/** The lead a location hash names, or undefined for anything else (the hash is typed by anyone). */
export function parseLeadHash(hash: string): LeadRef | undefined {
  const [head, kind, id, ...rest] = hash.replace(/^#/, '').split('/');
  if (head !== 'lead' || rest.length) return undefined;
  return leadRef(kind, id);
}

/** The inbox page of the site whose address is `siteUrl` (its origin), or undefined when it is not an http(s) URL. */
export function inboxPageUrl(siteUrl: string): string | undefined {
  try {
    const url = new URL(siteUrl.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return `${url.origin}${INBOX_ROUTE}`;
  } catch {
    return undefined;
  }
}

/**
 * The lead's full address on the site whose address is `siteUrl` (its origin is used: the inbox is
 * at the root), or undefined when `siteUrl` is not an http(s) URL.
 */
export function inboxLeadUrl(siteUrl: string, ref: LeadRef): string | undefined {
  const page = inboxPageUrl(siteUrl);
  return page === undefined ? undefined : `${page}${leadHash(ref)}`;
}
