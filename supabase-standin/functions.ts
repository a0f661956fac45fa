/**
 * The stand-in's edge functions: /functions/v1/notify-telegram and /functions/v1/telegram-webhook run
 * the real handlers, with the environment and the database access Supabase gives them. As deployed
 * (without the gateway's JWT check, see .github/workflows/supabase.yml) each handler checks the key
 * (notify-telegram) or Telegram's secret header (telegram-webhook, TELEGRAM_WEBHOOK_SECRET) itself.
 *
 * The stand-in serves the site and its backend on one origin, so the Telegram message's link to
 * the lead inbox (SITE_URL in production) is the origin the request came to: a lead sent through
 * `npm start` links to that server's /leads. The servers answer only the host names they were
 * started for (serve/allowedHosts.ts), so the Host header names this server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import { PUBLIC_KEY_VARIABLES } from '../supabase/functions/notify-telegram/apiKeys.js';
import { databaseError, type FunctionDeps, type Rpc } from '../supabase/functions/_shared/chat/database.js';
import { createHandler as notifyTelegram } from '../supabase/functions/notify-telegram/handler.js';
import { createWebhookHandler as telegramWebhook } from '../supabase/functions/telegram-webhook/handler.js';
import { isPgError } from './database.js';
import { BodyTooLargeError, readBody, send } from './http.js';

/** More than any function accepts; each handler applies its own, smaller limit. */
const MAX_FUNCTION_BODY_BYTES = 64 * 1024;

export interface FunctionsOptions {
  db: PGlite;
  /** The one public key of the stand-in (what Supabase injects as SUPABASE_ANON_KEY). */
  apiKey: string;
  /** Its service role key (what Supabase injects as SUPABASE_SERVICE_ROLE_KEY). */
  serviceRoleKey: string;
  /** The rest of the environment (TELEGRAM_*; SITE_URL is this server's own origin, see above). */
  env: (name: string) => string | undefined;
  fetch: typeof fetch;
  /** The functions' clock (tests inject one). */
  now?: (() => Date) | undefined;
  log: (msg: string) => void;
}

/** The project's edge functions by name: each makes its request handler from the context. */
const FUNCTIONS: Record<string, (context: FunctionDeps) => (req: Request) => Promise<Response>> = {
  'notify-telegram': notifyTelegram,
  'telegram-webhook': telegramWebhook,
};

export interface Functions {
  /** Answers a /functions/v1/ request; `headers` are the request's as the gateway passes them on. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, headers: Record<string, string>): Promise<void>;
}

/** Calls public.<fn>(named arguments) as role service_role, as supabase-js does with the service key on Supabase. */
export function serviceRoleRpc(db: PGlite): Rpc {
  return async (fn, args) => {
    const named = Object.keys(args).map((name, i) => `${name} => $${i + 1}`);
    try {
      return await db.transaction(async (tx) => {
        await tx.exec('SET LOCAL ROLE service_role');
        const { rows } = await tx.query<{ result: unknown }>(`SELECT public.${fn}(${named.join(', ')}) AS result`, Object.values(args));
        return rows[0]?.result ?? null;
      });
    } catch (err) {
      throw isPgError(err) ? databaseError(fn, err) : err;
    }
  };
}

/** A Host header that is a plain host name or address with an optional port, else undefined. */
const HOST = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/** The origin the request came to, from its Host header. */
function requestOrigin(headers: Record<string, string>): string | undefined {
  const host = headers.host ?? '';
  return HOST.test(host) ? `http://${host}` : undefined;
}

export function createFunctions(options: FunctionsOptions): Functions {
  const publicKeyVariables = new Set<string>(PUBLIC_KEY_VARIABLES);
  const rpc = serviceRoleRpc(options.db);
  /** The function's environment for one request: the site is this server's own origin. */
  const envFor = (siteUrl: string | undefined) => (name: string) =>
    // The stand-in's project has one public key; a real project's keys in the shell must not count.
    name === 'SUPABASE_ANON_KEY' ? options.apiKey
      : name === 'SUPABASE_SERVICE_ROLE_KEY' ? options.serviceRoleKey
      : publicKeyVariables.has(name) ? undefined
      : name === 'SITE_URL' ? siteUrl
      : options.env(name);
  // One instance of each function per site address, as Supabase keeps an instance warm (what it
  // reads once, such as the run's secret, is read once here too).
  const instances = new Map<string, (req: Request) => Promise<Response>>();
  const run = (name: string, req: Request, siteUrl: string | undefined) => {
    const key = `${name} ${siteUrl ?? ''}`;
    let handler = instances.get(key);
    if (!handler) {
      handler = FUNCTIONS[name]!({ env: envFor(siteUrl), fetch: options.fetch, rpc, now: options.now, log: options.log });
      instances.set(key, handler);
    }
    return handler(req);
  };

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL, requestHeaders: Record<string, string>): Promise<void> {
    const name = url.pathname.slice('/functions/v1/'.length);
    if (!Object.hasOwn(FUNCTIONS, name)) {
      req.resume();
      send(res, 404, { code: 'NOT_FOUND', message: 'Requested function was not found' }, { 'Access-Control-Allow-Origin': '*' });
      return;
    }
    const method = req.method ?? 'GET';
    let body: Buffer | undefined;
    if (method !== 'GET' && method !== 'HEAD') {
      try {
        body = await readBody(req, MAX_FUNCTION_BODY_BYTES);
      } catch (err) {
        if (err instanceof BodyTooLargeError) {
          send(res, 413, { ok: false, error: 'Request body too large' }, { 'Access-Control-Allow-Origin': '*' });
          return;
        }
        throw err;
      }
    } else {
      req.resume();
    }
    const request = new Request(new URL(url.pathname + url.search, 'http://localhost'), {
      method,
      headers: new Headers(requestHeaders),
      ...(body ? { body: new Uint8Array(body) } : {}),
    });
    const response = await run(name, request, requestOrigin(requestHeaders));
    const out = Buffer.from(await response.arrayBuffer());
    const outHeaders: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      outHeaders[key] = value;
    });
    outHeaders['content-length'] = String(out.length);
    res.writeHead(response.status, outHeaders);
    res.end(method === 'HEAD' ? undefined : out);
  }

  return { handle };
}
