/**
 * Errors of the local Auth stand-in, answered as Supabase Auth (GoTrue) answers them, so that
 * supabase-js raises the same AuthApiError (same status and `code`) against it as against Supabase.
 * GoTrue has two shapes: a request declaring `X-Supabase-Api-Version: 2024-01-01` or later (every
 * supabase-js since 2024 does) gets `{code: "<error code>", message}` and the version header back;
 * an older client gets `{code: <status>, error_code, msg}`. Every answer, error or not, carries
 * Supabase Auth's CORS headers (reply).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerValue, send } from '../http.js';

/**
 * Supabase Auth's CORS: any origin, the headers supabase-js sends, the API version exposed. (Pages
 * of origins the stand-in does not serve are refused before this, in backend.ts.)
 */
export const AUTH_CORS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE',
  'Access-Control-Allow-Headers': 'Accept, Authorization, Content-Type, X-Client-IP, X-Client-Info, X-JWT-AUD, X-Supabase-Api-Version, apikey',
  'Access-Control-Expose-Headers': 'X-Total-Count, Link, X-Supabase-Api-Version',
};

/** Answers with Supabase Auth's CORS headers, as every answer of its carries them. */
export function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(res, status, body, { ...AUTH_CORS, ...headers });
}

export const API_VERSION_HEADER = 'x-supabase-api-version';
const API_VERSION_2024 = '2024-01-01';

/** A refusal in GoTrue's terms: HTTP status, its error code and its message. */
export class AuthFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra fields GoTrue sends with some errors (weak_password). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** GoTrue's messages for the refusals several endpoints share. */
export const failures = {
  invalidCredentials: () => new AuthFailure(400, 'invalid_credentials', 'Invalid login credentials'),
  rateLimited: () => new AuthFailure(429, 'over_request_rate_limit', 'Request rate limit reached'),
  noAuthorization: () => new AuthFailure(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  badJwt: (why: string) => new AuthFailure(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${why}`),
  sessionNotFound: () => new AuthFailure(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  userNotFoundFromJwt: () => new AuthFailure(403, 'user_not_found', 'User from sub claim in JWT does not exist'),
  notAdmin: () => new AuthFailure(403, 'not_admin', 'User not allowed'),
  userNotFound: () => new AuthFailure(404, 'user_not_found', 'User not found'),
  factorNotFound: () => new AuthFailure(404, 'mfa_factor_not_found', 'Factor not found'),
  validation: (message: string) => new AuthFailure(400, 'validation_failed', message),
  notFound: () => new AuthFailure(404, 'not_found', 'Not found'),
};

/** Answers `failure` in the shape the request's API version expects. */
export function sendFailure(req: IncomingMessage, res: ServerResponse, failure: AuthFailure, headers: Record<string, string> = {}): void {
  const version = headerValue(req, API_VERSION_HEADER);
  if (version !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(version.trim()) && version.trim() >= API_VERSION_2024) {
    reply(res, failure.status, { code: failure.code, message: failure.message, ...failure.extra }, {
      ...headers,
      'X-Supabase-Api-Version': API_VERSION_2024,
    });
    return;
  }
  reply(res, failure.status, { code: failure.status, error_code: failure.code, msg: failure.message, ...failure.extra }, headers);
}
