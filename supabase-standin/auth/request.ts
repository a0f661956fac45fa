/** What the local Auth stand-in reads from a request: its JSON body, its bearer token, its client. */
import type { IncomingMessage } from 'node:http';
import { proxiedHeaders } from '../gateway.js';
import { BodyTooLargeError, headerValue, readBody } from '../http.js';
import { BadJsonError, containsNul, decodeUtf8, parseJsonText } from '../requestJson.js';
import { AuthFailure, failures } from './errors.js';

const MAX_BODY_BYTES = 64 * 1024;

/** The JSON object the request carries ({} when empty), or GoTrue's bad_json (validation_failed for a NUL). */
export async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw: Buffer;
  try {
    raw = await readBody(req, MAX_BODY_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new AuthFailure(413, 'request_too_large', 'Request body too large');
    throw err;
  }
  let parsed: unknown;
  try {
    const text = decodeUtf8(raw).trim();
    if (text === '') return {};
    parsed = parseJsonText(text);
  } catch (err) {
    if (err instanceof BadJsonError) throw new AuthFailure(400, 'bad_json', `Could not parse request body as JSON: ${err.message}`);
    throw err;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new AuthFailure(400, 'bad_json', 'Could not parse request body as JSON: expected an object');
  }
  // No Postgres text can hold a NUL: refused here, for every field, rather than failing in SQL.
  if (containsNul(parsed)) throw failures.validation('The request must not contain NUL characters (\\u0000)');
  return parsed as Record<string, unknown>;
}

/** A field that must be a string when present. */
export function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new AuthFailure(400, 'bad_json', `Could not parse request body as JSON: ${name} must be a string`);
  return value;
}

/** A field that must be an object when present. */
export function optionalObject(body: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw new AuthFailure(400, 'bad_json', `Could not parse request body as JSON: ${name} must be an object`);
  return value as Record<string, unknown>;
}

/** The `Authorization: Bearer` token, if any (GoTrue's pattern). */
export function bearerToken(req: IncomingMessage): string | undefined {
  return /^[Bb]earer (\S+)$/.exec(headerValue(req, 'authorization') ?? '')?.[1];
}

/** The client as the gateway saw it: its address (never a header the client sent) and user agent. */
export function clientOf(req: IncomingMessage): { ip: string; userAgent: string | undefined } {
  const headers = proxiedHeaders(req);
  return { ip: headers['x-forwarded-for'] ?? '0.0.0.0', userAgent: headers['user-agent'] };
}
