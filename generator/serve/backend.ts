/**
 * The local stand-in for Supabase that `npm start` serves when no SUPABASE_URL is configured:
 * the few endpoints the site uses, answered the way supabase-js expects and refusing what
 * Supabase refuses.
 *   POST /rest/v1/leads, POST /rest/v1/discount_leads   postgrest.ts, behind the key check
 *   POST /functions/v1/notify-telegram                  functions.ts, the real edge function
 * This file only routes; gateway.ts is the gateway (keys, the visitor's address), database.ts the
 * PGlite database with the real migrations.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import { applyMigrations, DEFAULT_MIGRATIONS_DIR, openDatabase } from './database.js';
import { createFunctions } from './functions.js';
import { hasAcceptedKey, localApiKey, proxiedHeaders, refuseKey } from './gateway.js';
import { send } from './http.js';
import { createPostgrest, REST_CORS } from './postgrest.js';

export interface LocalBackendOptions {
  /** PGlite data directory; undefined = in-memory database (tests). */
  dataDir?: string | undefined;
  /** Folder of *.sql migrations, applied in name order. Default: <repo>/supabase/migrations. */
  migrationsDir?: string | undefined;
  /** The public key requests must carry. Default: the key a site built without Supabase settings uses. */
  apiKey?: string | undefined;
  /** Environment for the edge function (TELEGRAM_*). Default: process.env. */
  env?: ((name: string) => string | undefined) | Record<string, string | undefined> | undefined;
  /** fetch used by the edge function to call Telegram. Default: global fetch. */
  fetch?: typeof fetch | undefined;
  log?: ((msg: string) => void) | undefined;
}

export interface LocalBackend {
  /** Answers the request and resolves true if the path is a backend route; false leaves it to the caller. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  close(): Promise<void>;
  /** Owner (superuser) connection: bypasses RLS. */
  db: PGlite;
}

export async function createLocalBackend(options: LocalBackendOptions = {}): Promise<LocalBackend> {
  const log = options.log ?? ((msg: string) => console.log(msg));
  const envOpt = options.env ?? process.env;
  const env = typeof envOpt === 'function' ? envOpt : (name: string) => envOpt[name];
  const apiKey = options.apiKey ?? localApiKey();

  const db = await openDatabase(options.dataDir, log);
  try {
    await applyMigrations(db, options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR, log);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  const postgrest = await createPostgrest(db);
  const functions = createFunctions({ db, apiKey, env, fetch: options.fetch ?? globalThis.fetch, log });

  let closed = false;
  return {
    db,
    async handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const isRest = url.pathname.startsWith('/rest/v1/');
      const isFunction = url.pathname.startsWith('/functions/v1/');
      if (!isRest && !isFunction) return false;
      try {
        if (isFunction) {
          await functions.handle(req, res, url, proxiedHeaders(req));
        } else if (req.method !== 'OPTIONS' && !(await hasAcceptedKey(req, url, [apiKey]))) {
          // As Supabase's gateway: the key before anything else, whatever the method or table.
          refuseKey(req, res, url, REST_CORS);
        } else {
          await postgrest.handle(req, res, url, proxiedHeaders(req));
        }
      } catch (err) {
        log(`Local backend error on ${req.method ?? ''} ${url.pathname}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
        if (!res.headersSent) send(res, 500, { code: 'PGRST000', message: 'Internal server error', details: null, hint: null });
        else res.end();
      }
      return true;
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.close();
    },
  };
}
