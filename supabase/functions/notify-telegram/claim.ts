/**
 * The browser's call names a lead it just stored; public.claim_lead_for_notification (migrations
 * 20261124000000, 20261125000200) finds that lead among those stored in the last minutes and not
 * claimed yet, marks it, and returns {kind, id, probe}, or null when there is none: so a call
 * proves a lead was stored, and a replay finds nothing. What is sent to the chat comes from the
 * outbox (migration 20261126000000), never from the call.
 */
import { leadRef, type LeadRef } from '../_shared/leadAddress.ts';
import type { NotifyBody } from '../_shared/leadRules.ts';
import { DatabaseCallError, type Rpc } from '../_shared/chat/database.ts';

export const CLAIM_FUNCTION = 'claim_lead_for_notification';

/**
 * A stored lead, as the inbox addresses it (/leads#lead/<kind>/<id>); `probe` when the lead probe or
 * the going-live check sent it (migration 20261125000200): claimed like any lead, told to nobody.
 */
export type ClaimedLead = LeadRef & { probe?: true };

export type ClaimOutcome = ClaimedLead | 'not_found' | 'rate_limited';

/** What the database raises when a client calls too often; PostgREST answers it with HTTP 429. */
const RATE_LIMITED_SQLSTATE = 'PT429';

/** The claim function's named arguments. */
export function claimArgs(body: NotifyBody, client: string) {
  return {
    p_client: client,
    p_page: body.page,
    p_email: body.email,
    p_phone: body.phone,
    p_first_name: body.firstName,
    p_last_name: body.lastName,
    p_message: body.message,
  };
}

/** The outcome of a claim that returned `claimed`. */
export function claimOutcome(claimed: unknown): ClaimOutcome {
  if (claimed === null || claimed === undefined) return 'not_found';
  const { kind, id, probe } = typeof claimed === 'object' ? (claimed as { kind?: unknown; id?: unknown; probe?: unknown }) : {};
  const lead = leadRef(kind, id);
  if (!lead) throw new Error(`${CLAIM_FUNCTION} answered something else than {kind, id} or null`);
  return probe === true ? { ...lead, probe } : lead;
}

/** Claims the stored lead `body` describes, for the visitor at address `client` ('' if unknown). */
export async function claimLead(rpc: Rpc, body: NotifyBody, client: string): Promise<ClaimOutcome> {
  try {
    return claimOutcome(await rpc(CLAIM_FUNCTION, claimArgs(body, client)));
  } catch (err) {
    if (err instanceof DatabaseCallError && err.code === RATE_LIMITED_SQLSTATE) return 'rate_limited';
    throw err;
  }
}
