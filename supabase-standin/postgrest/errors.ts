/** PostgREST's error bodies and its SQLSTATE -> HTTP status table, as supabase-js receives them. */
import type { RequestRole } from '../gateway.js';

export interface PostgrestErrorBody {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

export function pgrstError(code: string, message: string, details: string | null = null, hint: string | null = null): PostgrestErrorBody {
  return { code, message, details, hint };
}

/** A request PostgREST refuses before or instead of running SQL; answered as `status` + `body`. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly body: PostgrestErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }
}

/** 400 PGRST100: a query string PostgREST cannot parse (or the stand-in does not support). */
export function badQuery(message: string, details: string | null = null): RestError {
  return new RestError(400, pgrstError('PGRST100', message, details));
}

/** PostgREST's SQLSTATE -> HTTP status; insufficient privilege is 401 for anon, 403 for a signed-in role. */
export function pgErrorStatus(code: string, role: RequestRole): number {
  // A function may pick the status itself: SQLSTATE 'PTxyz' is answered with HTTP xyz.
  if (/^PT[1-5][0-9]{2}$/.test(code)) return Number(code.slice(2));
  if (code === '42501') return role === 'anon' ? 401 : 403;
  if (code === '23503' || code === '23505' || code === '23P01') return 409;
  if (code === '25006') return 405;
  if (code === '53400') return 500;
  if (code === 'P0001') return 400;
  if (code === '42883' || code === '42P01') return 404;
  if (code === '42P17') return 500;
  switch (code.slice(0, 2)) {
    case '08':
    case '53':
      return 503;
    case '0L':
    case '0P':
    case '28':
      return 403;
    case '09':
    case '25':
    case '2D':
    case '38':
    case '39':
    case '3B':
    case '40':
    case '54':
    case '55':
    case '57':
    case '58':
    case 'F0':
    case 'HV':
    case 'P0':
    case 'XX':
      return 500;
    default:
      return 400;
  }
}

/**
 * CORS as Supabase answers it for the REST API: any origin, the headers supabase-js reads exposed.
 * (Pages of origins the stand-in does not serve are refused before this, in backend.ts.)
 */
export const REST_CORS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Content-Range, Content-Location, Location, Preference-Applied, Range-Unit',
};

export const REST_ALLOWED_METHODS = 'GET, HEAD, POST, PATCH, DELETE, OPTIONS';
/** What supabase-js sends (and may send); a preflight that names its own headers gets those echoed. */
export const REST_ALLOWED_HEADERS =
  'authorization, x-client-info, apikey, content-type, content-profile, accept-profile, prefer, range, range-unit, accept, x-retry-count';
