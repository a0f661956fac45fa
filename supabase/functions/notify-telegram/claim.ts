/**
 * The function's two calls to the database, and what their answers mean. index.ts makes them over
 * supabase-js with the service role, the local stand-in on PGlite as role service_role; both map
 * the calls and their answers with this file.
 *
 * - public.claim_lead_for_notification (migrations 20261124000000, 20261125000200) marks the
 *   matching lead stored in the last minutes as notified and returns {kind, id, probe}, or null
 *   when there is none, so one stored lead gives at most one message;
 * - public.record_notification_failure(kind, id) marks a claimed lead whose message Telegram
 *   refused or never got, so the lead inbox says so.
 */
import { leadRef, type LeadRef } from '../_shared/leadAddress.ts';
import type { NotifyBody } from '../_shared/leadRules.ts';

export const CLAIM_FUNCTION = 'claim_lead_for_notification';
export const FAILURE_FUNCTION = 'record_notification_failure';

/**
 * A stored lead, as the inbox addresses it (/leads#lead/<kind>/<id>); `probe` when the lead probe or
 * the going-live check sent it (migration 20261125000200): claimed like any lead, told to nobody.
 */
export type ClaimedLead = LeadRef & { probe?: true };

export type ClaimOutcome = ClaimedLead | 'not_found' | 'rate_limited';

/** Claims the stored lead `body` describes, for the visitor at address `client` ('' if unknown). */
export type ClaimLead = (body: NotifyBody, client: string) => Promise<ClaimOutcome>;

/** Records that the claimed lead's message was not delivered. */
export type RecordFailure = (lead: ClaimedLead) => Promise<void>;

/** An error as supabase-js (PostgREST) or PGlite reports it. */
export interface DatabaseErrorLike {
  code?: unknown;
  message?: unknown;
}

/**
 * The database could not be reached or cannot serve now: the caller answers 503 (try again later),
 * not 500. Its message names the cause only, never a value of the request.
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/** What the database raises when a client calls too often; PostgREST answers it with HTTP 429. */
const RATE_LIMITED_SQLSTATE = 'PT429';

/**
 * Error codes that say the database is out of reach rather than that the call was wrong:
 * PostgREST's connection errors (PGRST000 cannot connect, PGRST001 connection error, PGRST002
 * schema cache not loaded, PGRST003 no connection free in time) and Postgres' SQLSTATE classes
 * 08 (connection exception), 57P01-57P03 (shutting down, cannot connect now) and 53300 (too many
 * connections).
 */
const UNAVAILABLE_CODE = /^(PGRST00[0-3]|08[0-9A-Z]{3}|57P0[1-3]|53300)$/;

/**
 * HTTP statuses of the database's gateway that mean it is unavailable; 0 is supabase-js's status
 * when the request got no answer at all (refused, DNS, reset, timeout).
 */
const UNAVAILABLE_STATUSES = new Set([0, 502, 503, 504]);

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

/** The failure function's named arguments. */
export function failureArgs(lead: ClaimedLead) {
  return { p_kind: lead.kind, p_id: lead.id };
}

/**
 * The error to throw for a failed call of `fn`: DatabaseUnavailableError when the database was
 * out of reach (`status` is the HTTP status supabase-js reports; undefined in-process), else Error.
 * The database's messages name no visitor value (the arguments are never echoed in them), so the
 * message may be logged.
 */
export function databaseError(fn: string, error: DatabaseErrorLike, status?: number): Error {
  const code = typeof error.code === 'string' ? error.code : '';
  const message = String(error.message ?? '').slice(0, 300);
  if (UNAVAILABLE_CODE.test(code) || (status !== undefined && UNAVAILABLE_STATUSES.has(status))) {
    const cause = status === 0 ? `no answer: ${message}` : `${status === undefined ? '' : `HTTP ${status}, `}${code || 'no code'}: ${message}`;
    return new DatabaseUnavailableError(`the database could not be reached for ${fn} (${cause})`);
  }
  return new Error(`${fn} failed (${code || 'no code'}): ${message}`);
}

/** The outcome of a claim that returned `claimed` or failed with `error`; other failures are thrown. */
export function claimOutcome(claimed: unknown, error: DatabaseErrorLike | null | undefined, status?: number): ClaimOutcome {
  if (error) {
    if (error.code === RATE_LIMITED_SQLSTATE) return 'rate_limited';
    throw databaseError(CLAIM_FUNCTION, error, status);
  }
  if (claimed === null || claimed === undefined) return 'not_found';
  const { kind, id, probe } = typeof claimed === 'object' ? (claimed as { kind?: unknown; id?: unknown; probe?: unknown }) : {};
  const lead = leadRef(kind, id);
  if (!lead) throw new Error(`${CLAIM_FUNCTION} answered something else than {kind, id} or null`);
  return probe === true ? { ...lead, probe } : lead;
}
