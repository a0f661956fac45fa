/**
 * The part of Supabase's API gateway (and of PostgREST's authentication) the stand-in needs: it
 * refuses requests without one of the project's keys, decides which database role a request runs
 * as (anon, authenticated with a user's JWT, service_role), and it is the trusted proxy that tells
 * the backend who the visitor is.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT_ADDRESS_HEADERS } from '../supabase/functions/_shared/leadRules.js';
import { allKeysAccepted } from '../supabase/functions/notify-telegram/apiKeys.js';
import { resolveConnection } from '../contracts/supabaseConnection.js';
import { headerValue, send } from './http.js';
import { checkJwt, type Claims } from './jwt.js';
import type { LocalKeys } from './localKeys.js';

/** The roles a request may run as; a token naming any other role is refused. */
export const REQUEST_ROLES = ['anon', 'authenticated', 'service_role'] as const;
export type RequestRole = (typeof REQUEST_ROLES)[number];

/** Who a request is: its database role and the claims PostgREST puts in request.jwt.claims. */
export interface Caller {
  role: RequestRole;
  claims: Claims;
}

export type CallerVerdict =
  | { ok: true; caller: Caller }
  | { ok: false; status: number; body: Record<string, unknown>; headers: Record<string, string> };

async function sameKey(presented: string, key: string): Promise<boolean> {
  return allKeysAccepted([presented], [key]);
}

function isRequestRole(role: unknown): role is RequestRole {
  return typeof role === 'string' && (REQUEST_ROLES as readonly string[]).includes(role);
}

/** PostgREST's answer for an unusable bearer token (401, with the WWW-Authenticate it sends). */
function refuseToken(code: 'PGRST301' | 'PGRST303', message: string, details: string | null = null): CallerVerdict {
  return {
    ok: false,
    status: 401,
    body: { code, message, details, hint: null },
    headers: { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${message.replace(/["\\\r\n]/g, ' ')}"` },
  };
}

/**
 * The caller of a request, as Supabase decides it: the `apikey` (header or `?apikey=`) must be the
 * anon or the service role key (else Supabase's gateway answers 401); then `Authorization: Bearer`
 * decides the role: the anon key -> anon, the service role key -> service_role, a JWT signed with
 * the project's secret -> its claims (expired or forged -> PostgREST's 401). Without a bearer token
 * the apikey decides.
 */
export async function identifyCaller(req: IncomingMessage, url: URL, keys: LocalKeys): Promise<CallerVerdict> {
  const apikey = headerValue(req, 'apikey')?.trim() ?? url.searchParams.get('apikey') ?? undefined;
  if (apikey === undefined) {
    return { ok: false, status: 401, body: { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' }, headers: {} };
  }
  const isAnonKey = await sameKey(apikey, keys.anonKey);
  const isServiceKey = await sameKey(apikey, keys.serviceRoleKey);
  if (!isAnonKey && !isServiceKey) {
    return { ok: false, status: 401, body: { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' }, headers: {} };
  }

  const authorization = headerValue(req, 'authorization');
  if (authorization === undefined) {
    return { ok: true, caller: isServiceKey ? { role: 'service_role', claims: { role: 'service_role' } } : { role: 'anon', claims: { role: 'anon' } } };
  }
  const token = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)?.[1];
  if (token === undefined) return refuseToken('PGRST301', 'No suitable key or wrong key type', 'The Authorization header is not a Bearer token');
  if (await sameKey(token, keys.serviceRoleKey)) return { ok: true, caller: { role: 'service_role', claims: { role: 'service_role' } } };
  if (await sameKey(token, keys.anonKey)) return { ok: true, caller: { role: 'anon', claims: { role: 'anon' } } };

  const verdict = await checkJwt(keys, token);
  if (!verdict.ok) {
    return verdict.reason === 'expired' ? refuseToken('PGRST303', 'JWT expired') : refuseToken('PGRST301', 'No suitable key or wrong key type', verdict.message);
  }
  // PostgREST runs a token without a role claim as the anonymous role.
  const role = verdict.claims.role ?? 'anon';
  if (!isRequestRole(role)) {
    return { ok: false, status: 401, body: { code: '42501', message: `permission denied to set role "${String(role)}"`, details: null, hint: null }, headers: {} };
  }
  return { ok: true, caller: { role, claims: verdict.claims } };
}

/** Answers a refused request (CORS headers added, the unread body drained). */
export function refuseCaller(req: IncomingMessage, res: ServerResponse, verdict: Extract<CallerVerdict, { ok: false }>, cors: Record<string, string>): void {
  req.resume();
  send(res, verdict.status, verdict.body, { ...cors, ...verdict.headers });
}

/** `text` as a browser writes an Origin header (`http://localhost:4321`), or undefined when it is none. */
export function canonicalOrigin(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the page that sent `req` may use the stand-in. Supabase answers every origin, but the
 * stand-in's anon key is the same `local-anon-key` on every computer, so any page open in the
 * operator's browser could drive it. Allowed: a request without an Origin (not a page's
 * cross-origin request: supabase-js in Node, curl), a page of the origin the request was sent to
 * (its Host, which the local servers check against DNS rebinding), and the `allowed` origins.
 * "null" (a sandboxed frame, a file) is no origin of the site.
 */
export function originAllowed(req: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  const origin = headerValue(req, 'origin');
  if (origin === undefined) return true;
  const canonical = canonicalOrigin(origin);
  if (canonical === undefined) return false;
  return allowed.has(canonical) || canonical === canonicalOrigin(`http://${headerValue(req, 'host') ?? ''}`);
}

/** The answer to a page of another origin: 403, with no CORS header, so the page cannot even read it. */
export function refuseOrigin(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  send(res, 403, { message: 'Origin not allowed', hint: 'The local stand-in answers pages of the local site and the origins it was started with.' });
}

/**
 * The key a site built with `buildAnonKey` (SUPABASE_ANON_KEY, usually unset) uses against the
 * stand-in, by the browser's own rule: the local key unless one was configured.
 */
export function localApiKey(buildAnonKey = ''): string {
  return resolveConnection({ supabaseUrl: '', supabaseAnonKey: buildAnonKey }, '').key;
}

/** Supabase's gateway answers for a missing or a wrong key (auth.ts answers with it too). */
export function refuseKey(req: IncomingMessage, res: ServerResponse, url: URL, headers: Record<string, string>): void {
  req.resume();
  const missing = headerValue(req, 'apikey') === undefined && !url.searchParams.has('apikey') && headerValue(req, 'authorization') === undefined;
  send(
    res,
    401,
    missing
      ? { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' }
      : { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' },
    headers,
  );
}

/**
 * The request headers as the backend behind the gateway sees them: lower-case names, and the
 * visitor's address only as the gateway observed it. Address headers the client sent are dropped
 * and x-forwarded-for is the socket's peer, so a script cannot pose as many visitors.
 */
export function proxiedHeaders(req: IncomingMessage): Record<string, string> {
  const forged = new Set<string>(CLIENT_ADDRESS_HEADERS);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || forged.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  if (req.socket.remoteAddress) headers['x-forwarded-for'] = req.socket.remoteAddress;
  return headers;
}
