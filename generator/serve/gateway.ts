/**
 * The part of Supabase's API gateway the stand-in needs: it refuses REST requests without one of
 * the project's public keys, and it is the trusted proxy that tells the backend who the visitor is.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT_ADDRESS_HEADERS } from '../../supabase/functions/_shared/leadRules.js';
import { allKeysAccepted, presentedKeys } from '../../supabase/functions/notify-telegram/apiKeys.js';
import { resolveConnection } from '../../src/lib/supabase.js';
import { headerValue, send } from './http.js';

/**
 * The key a site built with `buildAnonKey` (SUPABASE_ANON_KEY, usually unset) uses against the
 * stand-in, by the browser's own rule: the local key unless one was configured.
 */
export function localApiKey(buildAnonKey = ''): string {
  return resolveConnection({ supabaseUrl: '', supabaseAnonKey: buildAnonKey, webhookUrl: '' }, '').key;
}

/** True when the request carries only accepted keys (headers, or `?apikey=` as Supabase allows). */
export async function hasAcceptedKey(req: IncomingMessage, url: URL, accepted: readonly string[]): Promise<boolean> {
  const presented = presentedKeys((name) => headerValue(req, name));
  const fromQuery = url.searchParams.get('apikey');
  if (fromQuery !== null) presented.push(fromQuery);
  return allKeysAccepted(presented, accepted);
}

/** Supabase's gateway answers for a missing or a wrong key. */
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
