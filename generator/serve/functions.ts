/**
 * The stand-in's edge functions: /functions/v1/notify-telegram runs the real handler, with the
 * environment and the database access Supabase gives it. As deployed (without the gateway's JWT
 * check, see .github/workflows/supabase.yml) the handler checks the key itself.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import { PUBLIC_KEY_VARIABLES } from '../../supabase/functions/notify-telegram/apiKeys.js';
import { claimArgs, claimOutcome, type ClaimLead } from '../../supabase/functions/notify-telegram/claim.js';
import { createHandler } from '../../supabase/functions/notify-telegram/handler.js';
import { isPgError } from './database.js';
import { BodyTooLargeError, readBody, send } from './http.js';

/** More than any function accepts; each handler applies its own, smaller limit. */
const MAX_FUNCTION_BODY_BYTES = 64 * 1024;

export interface FunctionsOptions {
  db: PGlite;
  /** The one public key of the stand-in (what Supabase injects as SUPABASE_ANON_KEY). */
  apiKey: string;
  /** The rest of the environment (TELEGRAM_*). */
  env: (name: string) => string | undefined;
  fetch: typeof fetch;
  log: (msg: string) => void;
}

export interface Functions {
  /** Answers a /functions/v1/ request; `headers` are the request's as the gateway passes them on. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, headers: Record<string, string>): Promise<void>;
}

/** notify-telegram's claim, run as on Supabase: the SQL function, as role service_role. */
function claimOnPglite(db: PGlite): ClaimLead {
  return async (body, client) => {
    const args = claimArgs(body, client);
    const named = Object.keys(args).map((name, i) => `${name} => $${i + 1}`);
    try {
      const claimed = await db.transaction(async (tx) => {
        await tx.exec('SET LOCAL ROLE service_role');
        const { rows } = await tx.query<{ claimed: boolean }>(
          `SELECT public.claim_lead_notification(${named.join(', ')}) AS claimed`,
          Object.values(args),
        );
        return rows[0]?.claimed;
      });
      return claimOutcome(claimed, null);
    } catch (err) {
      if (isPgError(err)) return claimOutcome(null, err);
      throw err;
    }
  };
}

export function createFunctions(options: FunctionsOptions): Functions {
  const publicKeyVariables = new Set<string>(PUBLIC_KEY_VARIABLES);
  // The stand-in's project has one public key; a real project's keys in the shell must not count.
  const env = (name: string) =>
    name === 'SUPABASE_ANON_KEY' ? options.apiKey : publicKeyVariables.has(name) ? undefined : options.env(name);
  const functions = new Map<string, (req: Request) => Promise<Response>>([
    ['notify-telegram', createHandler({ env, fetch: options.fetch, claim: claimOnPglite(options.db), log: options.log })],
  ]);

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL, requestHeaders: Record<string, string>): Promise<void> {
    const name = url.pathname.slice('/functions/v1/'.length);
    const fn = functions.get(name);
    if (!fn) {
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
    const response = await fn(request);
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
