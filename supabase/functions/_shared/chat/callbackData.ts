/**
 * The data of a lead message's "Called back" button: what Telegram sends back to the webhook when
 * someone taps it (at most 64 bytes; a kind and a UUID fit).
 */
import { leadRef, type LeadRef } from '../leadAddress.ts';

const PREFIX = 'contacted:';

export function contactedCallbackData(lead: LeadRef): string {
  return `${PREFIX}${lead.kind}:${lead.id}`;
}

/** The lead a button names, or undefined for anything else. */
export function parseContactedCallback(data: unknown): LeadRef | undefined {
  if (typeof data !== 'string' || !data.startsWith(PREFIX) || data.length > 64) return undefined;
  const [kind, id, extra] = data.slice(PREFIX.length).split(':');
  return extra === undefined ? leadRef(kind, id) : undefined;
}
