/**
 * Claiming a lead: the database function public.claim_lead_notification (migration
 * 20261123000000) marks the matching lead stored in the last minutes as notified and says whether
 * there was one, so one stored lead gives at most one message. index.ts calls it over supabase-js
 * with the service role, the local stand-in on PGlite as role service_role; both map the call and
 * its answer with this file.
 */
import type { NotifyBody } from '../_shared/leadRules.ts';

export type ClaimOutcome = 'claimed' | 'not_found' | 'rate_limited';

/** Claims the stored lead `body` describes, for the visitor at address `client` ('' if unknown). */
export type ClaimLead = (body: NotifyBody, client: string) => Promise<ClaimOutcome>;

/** What the database raises when a client calls too often; PostgREST answers it with HTTP 429. */
const RATE_LIMITED_SQLSTATE = 'PT429';

/** The SQL function's named arguments. */
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

/** The outcome of a call that returned `claimed` or failed with `error`; other errors are thrown. */
export function claimOutcome(claimed: unknown, error: { code?: unknown; message?: unknown } | null | undefined): ClaimOutcome {
  if (error) {
    if (error.code === RATE_LIMITED_SQLSTATE) return 'rate_limited';
    // The database's message names no visitor value: the arguments are never echoed in it.
    throw new Error(`claim_lead_notification failed (${String(error.code ?? 'no code')}): ${String(error.message ?? '')}`);
  }
  return claimed === true ? 'claimed' : 'not_found';
}
