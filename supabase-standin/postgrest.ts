/**
 * The stand-in's PostgREST (/rest/v1), as supabase-js uses it: the tables and views of schema
 * public (GET/HEAD, POST, PATCH, DELETE) and its functions (/rpc/<fn>), with PostgREST's request
 * rules and error answers. Each request runs in one transaction as the caller's role (SET LOCAL
 * ROLE anon | authenticated | service_role) with `request.jwt.claims` and `request.headers` set as
 * PostgREST sets them, so grants, RLS, auth.uid()/auth.jwt(), CHECK constraints and the
 * per-client limit triggers behave as on Supabase. The gateway (gateway.ts) decided the caller.
 * Parsing: postgrest/query.ts; SQL: postgrest/sql.ts; tables: postgrest/relations.ts; functions:
 * postgrest/rpc.ts; the schema cache: postgrest/schemaCache.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import { isJsonContentType } from '../supabase/functions/notify-telegram/contentType.js';
import { isPgError } from './database.js';
import type { Caller } from './gateway.js';
import { BodyTooLargeError, headerValue, readBody, send, sendJsonText } from './http.js';
import { pgErrorStatus, pgrstError, REST_ALLOWED_HEADERS, REST_ALLOWED_METHODS, REST_CORS, RestError } from './postgrest/errors.js';
import type { Plan } from './postgrest/plan.js';
import { parsePrefer } from './postgrest/query.js';
import { planDelete, planInsert, planRead, planUpdate, type RequestParts } from './postgrest/relations.js';
import { functionNotFound, pickOverload, planRpc } from './postgrest/rpc.js';
import { loadSchemaCache, type SchemaCache } from './postgrest/schemaCache.js';
import { BadJsonError, containsNul, decodeUtf8, parseJsonText } from './requestJson.js';

export { REST_CORS } from './postgrest/errors.js';

/** The largest valid lead is about 6 KB of JSON (30 KB if every character is escaped). */
const MAX_REQUEST_BYTES = 64 * 1024;

export interface Postgrest {
  /**
   * Answers a /rest/v1/ request from `caller` (decided by the gateway); `headers` are the
   * request's as the gateway passes them on.
   */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, headers: Record<string, string>, caller: Caller): Promise<void>;
}

/** A CORS preflight for any /rest/v1 path, answered before the key check as Supabase does. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  res.writeHead(204, {
    ...REST_CORS,
    'Access-Control-Allow-Methods': REST_ALLOWED_METHODS,
    'Access-Control-Allow-Headers': headerValue(req, 'access-control-request-headers') ?? REST_ALLOWED_HEADERS,
    'Access-Control-Max-Age': '86400',
  });
  res.end();
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * A NUL in a name or a value of the query string is refused before any SQL is built: names (an
 * alias, say) become SQL text, where a NUL ends the statement early; values are parameters no
 * Postgres text can hold. Postgres's own answer for one, as PostgREST passes it on.
 */
function refuseNulInQuery(params: URLSearchParams): void {
  for (const [name, value] of params) {
    if (name.includes('\u0000') || value.includes('\u0000')) {
      throw new RestError(400, pgrstError('22021', 'invalid byte sequence for encoding "UTF8": 0x00'));
    }
  }
}

/** A lookup in the schema cache failed: worth one reload (a table made after start-up, a new column). */
function isSchemaMiss(err: unknown): boolean {
  return err instanceof RestError && ['PGRST202', 'PGRST204', 'PGRST205', '42703'].includes(err.body.code);
}

export async function createPostgrest(db: PGlite): Promise<Postgrest> {
  // PostgREST reads its schema cache at start-up and again when told; the stand-in reloads it when
  // a request names something it does not know, so tables made after start-up are served too.
  let cache: SchemaCache = await loadSchemaCache(db);
  let reloading: Promise<SchemaCache> | undefined;
  async function reload(): Promise<void> {
    reloading ??= loadSchemaCache(db).finally(() => (reloading = undefined));
    cache = await reloading;
  }

  /** JSON of the request body; undefined when the method takes none. */
  async function readJsonBody(req: IncomingMessage, allowEmpty: boolean): Promise<unknown> {
    const contentType = headerValue(req, 'content-type');
    const raw = await readBody(req, MAX_REQUEST_BYTES);
    if (allowEmpty && raw.length === 0) return {};
    if (!isJsonContentType(contentType)) throw new RestError(415, pgrstError('PGRST107', `Content-Type not acceptable: ${contentType ?? '(none)'}`));
    let body: unknown;
    try {
      body = parseJsonText(decodeUtf8(raw));
    } catch (err) {
      if (err instanceof BadJsonError) throw new RestError(400, pgrstError('PGRST102', 'Empty or invalid json', err.message));
      throw err;
    }
    // What Postgres answers PostgREST for a \u0000 in the JSON it is given as text.
    if (containsNul(body)) throw new RestError(400, pgrstError('22P05', 'unsupported Unicode escape sequence', '\\u0000 cannot be converted to text.'));
    return body;
  }

  /** The plan for a request, from the current schema cache. */
  function plan(method: string, path: string, parts: RequestParts, body: unknown): Plan {
    if (path.startsWith('rpc/')) {
      const name = path.slice('rpc/'.length);
      const overloads = cache.functions.get(name);
      const fromJsonBody = method === 'POST';
      let args: Record<string, unknown>;
      if (fromJsonBody) {
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new RestError(400, pgrstError('PGRST102', 'Empty or invalid json'));
        args = body as Record<string, unknown>;
      } else {
        // GET: the query parameters naming a parameter of the function are its arguments.
        const paramNames = new Set((overloads ?? []).flatMap((fn) => fn.params.map((p) => p.name)));
        args = {};
        for (const [k, v] of parts.url.searchParams) if (paramNames.has(k)) args[k] = v;
      }
      const argNames = Object.keys(args);
      const fn = pickOverload(overloads, argNames);
      if (!fn) throw functionNotFound(name, argNames);
      return planRpc(fn, parts, args, { fromJsonBody, readOnly: !fromJsonBody, head: method === 'HEAD', argNames: new Set(fromJsonBody ? [] : argNames) });
    }
    const rel = cache.relations.get(path);
    if (!rel) throw new RestError(404, pgrstError('PGRST205', `Could not find the table 'public.${path}' in the schema cache`));
    switch (method) {
      case 'GET':
      case 'HEAD':
        return planRead(rel, parts, method === 'HEAD');
      case 'POST':
        return planInsert(rel, parts, body);
      case 'PATCH':
        return planUpdate(rel, parts, body);
      case 'DELETE':
        return planDelete(rel, parts);
      default:
        throw new RestError(405, pgrstError('PGRST117', `Unsupported HTTP method: ${method}`), { Allow: 'GET, HEAD, POST, PATCH, DELETE, OPTIONS' });
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL, requestHeaders: Record<string, string>, caller: Caller): Promise<void> {
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') return answerPreflight(req, res);
    const path = decodePath(url.pathname.slice('/rest/v1/'.length));
    const parts: RequestParts = { url, header: (name) => headerValue(req, name), prefer: parsePrefer(headerValue(req, 'prefer')) };
    try {
      refuseNulInQuery(url.searchParams);
      const readMethod = method === 'GET' || method === 'HEAD';
      const profile = headerValue(req, readMethod ? 'accept-profile' : 'content-profile');
      if (profile !== undefined && profile !== 'public') {
        throw new RestError(406, pgrstError('PGRST106', `Invalid schema: ${profile}`, null, 'Only the following schemas are exposed: public'));
      }
      if (!path.startsWith('rpc/') && !cache.relations.has(path)) {
        // Before the body is read: an unknown table is a 404 whatever was sent.
        await reload();
        if (!cache.relations.has(path)) throw new RestError(404, pgrstError('PGRST205', `Could not find the table 'public.${path}' in the schema cache`));
      }
      let body: unknown;
      if (method === 'POST' || method === 'PATCH') body = await readJsonBody(req, path.startsWith('rpc/'));
      else req.resume();

      let planned: Plan;
      try {
        planned = plan(method, path, parts, body);
      } catch (err) {
        if (!isSchemaMiss(err)) throw err;
        await reload();
        planned = plan(method, path, parts, body);
      }

      // One transaction per request, as PostgREST: a row refused by a constraint, a policy or the
      // limit trigger takes the whole request's rows with it.
      const answer = await db.transaction(async (tx) => {
        if (planned.readOnly) await tx.exec('SET TRANSACTION READ ONLY');
        // The role comes from a fixed list (gateway.ts REQUEST_ROLES), never from the request as text.
        await tx.exec(`SET LOCAL ROLE ${caller.role}`);
        await tx.query(
          `SELECT set_config('request.jwt.claims', $1, true), set_config('request.headers', $2, true),
                  set_config('request.method', $3, true), set_config('request.path', $4, true)`,
          [JSON.stringify(caller.claims), JSON.stringify(requestHeaders), method, url.pathname],
        );
        return planned.run(tx);
      });
      sendJsonText(res, answer.status, answer.body, { ...REST_CORS, ...answer.headers }, answer.contentType);
    } catch (err) {
      if (err instanceof BodyTooLargeError) {
        send(res, 413, pgrstError('PGRST413', 'Payload too large'), REST_CORS);
      } else if (err instanceof RestError) {
        send(res, err.status, err.body, { ...REST_CORS, ...err.headers });
      } else if (isPgError(err)) {
        send(res, pgErrorStatus(err.code, caller.role), pgrstError(err.code, err.message, err.detail ?? null, err.hint ?? null), REST_CORS);
      } else {
        throw err;
      }
    }
  }

  return { handle };
}
