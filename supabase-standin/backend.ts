/**
 * The Supabase stand-in: what `npm start` serves, and the tests drive through supabase-js, when no
 * SUPABASE_URL is configured. It imitates the parts of a Supabase project this site uses, with the
 * project's own migrations and edge function, answered the way supabase-js expects:
 *   /rest/v1/*  (tables, views, /rpc of schema public)  postgrest.ts, behind gateway.ts (keys, JWTs)
 *   POST /functions/v1/notify-telegram                  functions.ts, the real edge function
 *   /auth/v1/*                                          auth.ts, Supabase Auth's endpoints
 * This file only routes; gateway.ts is the API gateway (keys, the visitor's address), database.ts
 * the PGlite database with the real migrations, `npm run leads` reads it (leads.ts).
 *
 * Where it differs from Supabase, on purpose, it is stricter or smaller, never more permissive:
 * - PostgreSQL is PGlite (WebAssembly, one connection, statements one at a time), with Supabase's
 *   roles and the part of the `auth` schema the migrations use (authSchema.ts), not Supabase's own
 *   init SQL; extensions are those PGlite has.
 * - REST is the subset of PostgREST supabase-js sends for this site; anything else is a 4xx, not
 *   a guess.
 * - Auth: sign-ups are always refused; refresh tokens are stored hashed and a TOTP step is accepted
 *   once (authSchema.ts); the keys and the JWT secret are local (localKeys.ts), so no token of a
 *   real project is accepted here and none from here is accepted there.
 * - The edge function runs in Node with the handler Deno runs in production (the tests run it
 *   under Deno too).
 * - CORS: Supabase answers every origin; the stand-in, whose anon key is the same everywhere, only
 *   pages of the local site's origins (gateway.ts originAllowed); others get 403.
 * - Bad input (NUL, deep JSON, bodies that are not UTF-8) is a 400 before any SQL (requestJson.ts).
 * It imports nothing from the build; the local servers (serve/) route requests to it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import { createAuthServer } from './auth.js';
import { applyMigrations, DEFAULT_MIGRATIONS_DIR, openDatabase } from './database.js';
import { createFunctions } from './functions.js';
import { canonicalOrigin, identifyCaller, localApiKey, originAllowed, proxiedHeaders, refuseCaller, refuseOrigin } from './gateway.js';
import { isBackendPath } from './backendPaths.js';
import { send } from './http.js';
import { loadLocalKeys, type LocalKeys } from './localKeys.js';
import { answerPreflight, createPostgrest, REST_CORS } from './postgrest.js';
import { createScheduler } from './scheduler.js';

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
  /**
   * Origins (`http://name:port`) whose pages may call the stand-in besides its own: the other
   * names the local site is served by (serve/site.ts), or a site served on another port (tests).
   * A page of any other origin gets 403 and no CORS header (gateway.ts originAllowed).
   */
  allowedOrigins?: readonly string[] | undefined;
  /** The clock of the edge functions and of the scheduled jobs. Default: the system's. */
  now?: (() => Date) | undefined;
  /**
   * Run the database's scheduled jobs (pg_cron, pg_net: scheduler.ts) every minute, once the
   * stand-in's own address is known (setProjectUrl). Off by default: the tests run them by hand
   * with runScheduledJobs, and `npm run staff` needs none.
   */
  schedule?: boolean | undefined;
}

export interface LocalBackend {
  /** Answers the request and resolves true if the path is a backend route; false leaves it to the caller. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  close(): Promise<void>;
  /** Owner (superuser) connection: bypasses RLS. */
  db: PGlite;
  /** The anon and service role keys and the JWT secret of this database (localKeys.ts). */
  keys: LocalKeys;
  /**
   * The stand-in's own address (what the owner puts in Vault as 'project_url' on Supabase), where
   * the scheduled jobs' requests go; starts the schedule when `schedule` was asked for.
   */
  setProjectUrl(url: string): Promise<void>;
  /** Runs the scheduled jobs due at `at` (default: every job, now) and sends the requests they queue. */
  runScheduledJobs(at?: Date): Promise<void>;
}

/** The configured origins in the form browsers send them; a malformed one is a mistake to report. */
function originSet(origins: readonly string[]): Set<string> {
  return new Set(
    origins.map((origin) => {
      const canonical = canonicalOrigin(origin);
      if (canonical === undefined) throw new Error(`allowedOrigins: "${origin.slice(0, 80)}" is not an http(s) origin`);
      return canonical;
    }),
  );
}

export async function createLocalBackend(options: LocalBackendOptions = {}): Promise<LocalBackend> {
  const log = options.log ?? ((msg: string) => console.log(msg));
  const envOpt = options.env ?? process.env;
  const env = typeof envOpt === 'function' ? envOpt : (name: string) => envOpt[name];
  const apiKey = options.apiKey ?? localApiKey();
  const keys = loadLocalKeys(options.dataDir, apiKey);
  const allowedOrigins = originSet(options.allowedOrigins ?? []);

  const db = await openDatabase(options.dataDir, log);
  try {
    await applyMigrations(db, options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR, log);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  const postgrest = await createPostgrest(db);
  const auth = createAuthServer({ db, keys, log });
  const now = options.now ?? (() => new Date());
  const functions = createFunctions({ db, apiKey, serviceRoleKey: keys.serviceRoleKey, env, fetch: options.fetch ?? globalThis.fetch, now, log });
  // This process is the only one that opens this database: a sender of a run that was cut off
  // (npm start stopped mid-delivery) is gone, and its messages are due again at once.
  await db.exec('SELECT private.chat_forget_senders()');
  const scheduler = createScheduler({ db, now, fetch: globalThis.fetch, log });
  let scheduling = false;

  let closed = false;
  return {
    db,
    keys,
    async setProjectUrl(url) {
      const origin = canonicalOrigin(url);
      if (origin === undefined) throw new Error(`setProjectUrl: "${url.slice(0, 80)}" is not an http(s) origin`);
      await db.query(
        `INSERT INTO vault.secrets (name, secret, description) VALUES ('project_url', $1, 'The local stand-in''s address')
         ON CONFLICT (name) DO UPDATE SET secret = excluded.secret, updated_at = now()`,
        [origin],
      );
      if (options.schedule && !scheduling && !closed) {
        scheduling = true;
        scheduler.start();
      }
    },
    runScheduledJobs: (at) => scheduler.runDue(at ?? now(), at === undefined),
    async handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (!isBackendPath(url.pathname)) return false;
      // The answer depends on the Origin: no cache may give one origin's answer to another.
      res.setHeader('Vary', 'Origin');
      if (!originAllowed(req, allowedOrigins)) {
        refuseOrigin(req, res);
        return true;
      }
      const isFunction = url.pathname.startsWith('/functions/v1/');
      const isAuth = url.pathname.startsWith('/auth/v1/');
      try {
        if (isAuth) {
          await auth.handle(req, res, url);
        } else if (isFunction) {
          await functions.handle(req, res, url, proxiedHeaders(req));
        } else if (req.method === 'OPTIONS') {
          answerPreflight(req, res);
        } else {
          // As Supabase's gateway: the key before anything else, whatever the method or table.
          const verdict = await identifyCaller(req, url, keys);
          if (!verdict.ok) refuseCaller(req, res, verdict, REST_CORS);
          else await postgrest.handle(req, res, url, proxiedHeaders(req), verdict.caller);
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
      await scheduler.stop();
      await db.close();
    },
  };
}
