/**
 * Embedded local backend for `npm start` when no SUPABASE_URL is configured.
 *
 * It answers the few Supabase endpoints the site uses, the way supabase-js expects:
 *   POST /rest/v1/leads, POST /rest/v1/discount_leads   (PostgREST insert semantics)
 *   POST /functions/v1/notify-telegram                  (the real edge-function handler)
 * backed by PGlite (Postgres in WebAssembly) with the real migrations from
 * supabase/migrations. Inserts run as role `anon` (SET LOCAL ROLE) so grants, RLS and
 * CHECK constraints behave as on Supabase. Nothing can be read back over HTTP.
 */
import { createHash } from 'node:crypto';
import { constants as fsConstants, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { createHandler } from '../../supabase/functions/notify-telegram/handler';

export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../../supabase/migrations/', import.meta.url));

/** Tables reachable through /rest/v1 (insert only). */
export const EXPOSED_TABLES = ['leads', 'discount_leads'] as const;

const MAX_REQUEST_BYTES = 1024 * 1024;
const MAX_QUERY_PARAMS = 60_000;

export interface LocalBackendOptions {
  /** PGlite data directory; undefined = in-memory database (tests). */
  dataDir?: string | undefined;
  /** Folder of *.sql migrations, applied in name order. Default: <repo>/supabase/migrations. */
  migrationsDir?: string | undefined;
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

export interface LeadRow {
  id: string;
  created_at: Date;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  message: string;
  page: string;
}

export interface DiscountLeadRow {
  id: string;
  created_at: Date;
  email: string;
  phone: string;
  page: string;
}

export interface LeadsListing {
  leads: LeadRow[];
  discountLeads: DiscountLeadRow[];
}

// ---------------------------------------------------------------------------------------------
// Database setup

/** Roles and default privileges as on Supabase (new public tables are granted to anon etc.). */
const BOOTSTRAP_SQL = `
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'anon') THEN
    CREATE ROLE anon NOLOGIN NOINHERIT;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'authenticated') THEN
    CREATE ROLE authenticated NOLOGIN NOINHERIT;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'service_role') THEN
    CREATE ROLE service_role NOLOGIN NOINHERIT BYPASSRLS;
  END IF;
END
$$;
CREATE TABLE IF NOT EXISTS public._local_migrations (
  name text PRIMARY KEY,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON TABLE public._local_migrations FROM PUBLIC, anon, authenticated;
GRANT USAGE ON SCHEMA public TO anon, authenticated, service_role;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON TABLES TO anon, authenticated, service_role;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON SEQUENCES TO anon, authenticated, service_role;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON FUNCTIONS TO anon, authenticated, service_role;
`;

/**
 * Creates the Supabase roles if missing, then applies every *.sql file of migrationsDir
 * (name order) that is not yet recorded in public._local_migrations. Returns the names applied now.
 */
export async function applyMigrations(
  db: PGlite,
  migrationsDir: string = DEFAULT_MIGRATIONS_DIR,
  log: (msg: string) => void = () => {},
): Promise<string[]> {
  if (!existsSync(migrationsDir)) throw new Error(`Migrations folder not found: ${migrationsDir}`);
  await db.exec(BOOTSTRAP_SQL);
  const done = new Map(
    (await db.query<{ name: string; checksum: string }>('SELECT name, checksum FROM public._local_migrations')).rows.map(
      (r) => [r.name, r.checksum] as const,
    ),
  );
  const files = readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const applied: string[] = [];
  for (const file of files) {
    const sql = readFileSync(join(migrationsDir, file), 'utf8');
    const checksum = createHash('sha256').update(sql).digest('hex');
    const previous = done.get(file);
    if (previous !== undefined) {
      if (previous !== checksum) {
        log(`Warning: migration ${file} changed after it was applied to the local database; not re-applied. Delete the local data folder to start over.`);
      }
      continue;
    }
    try {
      await db.transaction(async (tx) => {
        await tx.exec(sql);
        await tx.query('INSERT INTO public._local_migrations (name, checksum) VALUES ($1, $2)', [file, checksum]);
      });
    } catch (err) {
      throw new Error(`Migration ${file} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    applied.push(file);
    log(`Applied migration ${file}`);
  }
  return applied;
}

/**
 * A fresh `initdb` inside PGlite takes 3-6 s; loading a snapshot of one takes ~0.5 s. The first
 * new database dumps such a snapshot to .cache/pglite/ (keyed by the PGlite version) and later
 * new databases (tests, a first `npm start`) start from it. Existing data folders open directly.
 */
const TEMPLATE_CACHE_DIR = fileURLToPath(new URL('../../.cache/pglite/', import.meta.url));

function templatePath(): string | undefined {
  try {
    let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    for (let i = 0; i < 4; i++, dir = dirname(dir)) {
      const pkgFile = join(dir, 'package.json');
      if (!existsSync(pkgFile)) continue;
      const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === '@electric-sql/pglite' && typeof pkg.version === 'string') {
        return join(TEMPLATE_CACHE_DIR, `initdb-${pkg.version.replace(/[^0-9A-Za-z.-]/g, '_')}.tar.gz`);
      }
    }
  } catch {
    // no cache then
  }
  return undefined;
}

function isMissingOrEmptyDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/** Opens (or creates) a PGlite database; dataDir undefined = in-memory. */
export async function openDatabase(dataDir: string | undefined, log: (msg: string) => void = () => {}): Promise<PGlite> {
  const dir = dataDir === undefined ? undefined : resolve(dataDir);
  if (dir !== undefined && !isMissingOrEmptyDir(dir)) return PGlite.create({ dataDir: dir });

  const template = templatePath();
  if (template !== undefined && existsSync(template)) {
    try {
      const blob = new Blob([readFileSync(template)]);
      if (dir !== undefined) mkdirSync(dir, { recursive: true });
      return await PGlite.create(dir === undefined ? { loadDataDir: blob } : { dataDir: dir, loadDataDir: blob });
    } catch (err) {
      log(`Ignoring unusable PGlite snapshot ${template}: ${err instanceof Error ? err.message : String(err)}`);
      rmSync(template, { force: true });
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true }); // it was empty or missing before
    }
  }

  if (dir !== undefined) mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir === undefined ? {} : { dataDir: dir });
  if (template !== undefined) {
    try {
      const blob = await db.dumpDataDir('gzip');
      mkdirSync(dirname(template), { recursive: true });
      const tmp = `${template}.${process.pid}.${Date.now()}.tmp`;
      writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
      renameSync(tmp, template);
    } catch (err) {
      log(`Could not cache a PGlite snapshot: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return db;
}

// ---------------------------------------------------------------------------------------------
// PostgREST emulation helpers

interface PgErrorLike {
  code: string;
  message: string;
  detail?: string | undefined;
  hint?: string | undefined;
}

function isPgError(err: unknown): err is PgErrorLike {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((err as { code: string }).code) &&
    typeof (err as { message?: unknown }).message === 'string'
  );
}

/** PostgREST's SQLSTATE -> HTTP status table (requests here are always anonymous). */
export function pgErrorStatus(code: string): number {
  if (code === '42501') return 401; // insufficient_privilege, anonymous role
  if (code === '23503' || code === '23505' || code === '23P01') return 409;
  if (code === '25006') return 405;
  if (code === '53400') return 500;
  if (code === 'P0001') return 400;
  if (code === '42883' || code === '42P01') return 404;
  const cls = code.slice(0, 2);
  switch (cls) {
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

export interface PostgrestErrorBody {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

function pgrstError(code: string, message: string, details: string | null = null, hint: string | null = null): PostgrestErrorBody {
  return { code, message, details, hint };
}

const REST_CORS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Content-Range, Content-Location, Location, Preference-Applied',
};

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    ...(body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
    'Content-Length': String(Buffer.byteLength(payload)),
  });
  res.end(payload);
}

class BodyTooLargeError extends Error {}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > MAX_REQUEST_BYTES) tooLarge = true; // keep draining so the client gets the answer
    else chunks.push(buf);
  }
  if (tooLarge) throw new BodyTooLargeError('Request body too large');
  return Buffer.concat(chunks);
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

function parsePrefer(header: string | undefined): Map<string, string> {
  const prefs = new Map<string, string>();
  for (const part of (header ?? '').split(',')) {
    const [k, v] = part.split('=', 2).map((s) => s.trim());
    if (k) prefs.set(k.toLowerCase(), (v ?? '').toLowerCase());
  }
  return prefs;
}

/** ?columns="a","b" or a,b */
function parseColumnsParam(value: string): string[] {
  return value
    .split(',')
    .map((c) => c.trim().replace(/^"(.*)"$/, '$1').replace(/""/g, '"'))
    .filter((c) => c.length > 0);
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** JSON value -> text parameter, like PostgREST's json_populate_recordset. */
function toParam(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------------

export async function createLocalBackend(options: LocalBackendOptions = {}): Promise<LocalBackend> {
  const log = options.log ?? ((msg: string) => console.log(msg));
  const envOpt = options.env ?? process.env;
  const env = typeof envOpt === 'function' ? envOpt : (name: string) => envOpt[name];
  const fetchImpl = options.fetch ?? globalThis.fetch;

  const db = await openDatabase(options.dataDir, log);
  try {
    await applyMigrations(db, options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR, log);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }

  // "Schema cache": the columns of each exposed table, read once after migrations.
  const columnsByTable = new Map<string, Set<string>>();
  for (const table of EXPOSED_TABLES) {
    const { rows } = await db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
      [table],
    );
    if (rows.length > 0) columnsByTable.set(table, new Set(rows.map((r) => r.column_name)));
  }

  const functions = new Map<string, (req: Request) => Promise<Response>>([
    ['notify-telegram', createHandler({ env, fetch: fetchImpl, log })],
  ]);

  async function handleRest(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    let table: string;
    try {
      table = decodeURIComponent(url.pathname.slice('/rest/v1/'.length));
    } catch {
      table = url.pathname.slice('/rest/v1/'.length);
    }
    const columns = columnsByTable.get(table);
    if (!columns) {
      send(res, 404, pgrstError('PGRST205', `Could not find the table 'public.${table}' in the schema cache`), REST_CORS);
      return;
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...REST_CORS,
        'Access-Control-Allow-Methods': 'POST, OPTIONS',
        'Access-Control-Allow-Headers':
          headerValue(req, 'access-control-request-headers') ??
          'authorization, x-client-info, apikey, content-type, content-profile, accept-profile, prefer, x-retry-count',
        'Access-Control-Max-Age': '86400',
      });
      res.end();
      return;
    }
    if (req.method !== 'POST') {
      req.resume();
      send(res, 405, pgrstError('PGRST117', `Unsupported HTTP method: ${req.method ?? ''}`), { ...REST_CORS, Allow: 'POST, OPTIONS' });
      return;
    }
    const apikey = headerValue(req, 'apikey') ?? url.searchParams.get('apikey') ?? undefined;
    const bearer = /^Bearer\s+\S+/i.test(headerValue(req, 'authorization') ?? '');
    if (!apikey && !bearer) {
      req.resume();
      send(res, 401, { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' }, REST_CORS);
      return;
    }
    const profile = headerValue(req, 'content-profile');
    if (profile !== undefined && profile !== 'public') {
      req.resume();
      send(res, 406, pgrstError('PGRST106', `Invalid schema: ${profile}`, null, 'Only the following schemas are exposed: public'), REST_CORS);
      return;
    }
    const contentType = (headerValue(req, 'content-type') ?? 'application/json').toLowerCase();
    if (!contentType.includes('json')) {
      req.resume();
      send(res, 415, pgrstError('PGRST107', `Content-Type not acceptable: ${contentType}`), REST_CORS);
      return;
    }

    let raw: Buffer;
    try {
      raw = await readBody(req);
    } catch (err) {
      if (err instanceof BodyTooLargeError) {
        send(res, 413, pgrstError('PGRST413', 'Payload too large'), REST_CORS);
        return;
      }
      throw err;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      send(res, 400, pgrstError('PGRST102', 'Empty or invalid json'), REST_CORS);
      return;
    }
    const rows = Array.isArray(body) ? body : [body];
    if (!rows.every(isPlainObject)) {
      send(res, 400, pgrstError('PGRST102', 'Empty or invalid json'), REST_CORS);
      return;
    }

    const prefer = parsePrefer(headerValue(req, 'prefer'));
    const columnsParam = url.searchParams.get('columns');
    let cols: string[];
    if (columnsParam !== null) {
      cols = parseColumnsParam(columnsParam);
    } else {
      const first = rows[0];
      cols = first ? Object.keys(first) : [];
      const key = [...cols].sort().join('\u0000');
      if (rows.some((r) => Object.keys(r).sort().join('\u0000') !== key)) {
        send(res, 400, pgrstError('PGRST102', 'All object keys must match'), REST_CORS);
        return;
      }
    }
    cols = [...new Set(cols)];
    const unknown = cols.find((c) => !columns.has(c));
    if (unknown !== undefined) {
      send(res, 400, pgrstError('PGRST204', `Could not find the '${unknown}' column of '${table}' in the schema cache`), REST_CORS);
      return;
    }
    if (prefer.get('resolution') === 'merge-duplicates') {
      // An upsert needs UPDATE, which anon never has.
      send(res, 401, pgrstError('42501', `permission denied for table ${table}`), REST_CORS);
      return;
    }
    if (rows.length * Math.max(cols.length, 1) > MAX_QUERY_PARAMS) {
      send(res, 413, pgrstError('PGRST413', 'Payload too large'), REST_CORS);
      return;
    }

    const representation = prefer.get('return') === 'representation';
    const missingDefault = prefer.get('missing') === 'default';
    const params: Array<string | null> = [];
    // Identifiers come from information_schema (validated above); user values only as $n parameters.
    const statements: string[] = [];
    const target = `public.${quoteIdent(table)}`;
    const returning = representation ? ' RETURNING *' : '';
    const onConflict = prefer.get('resolution') === 'ignore-duplicates' ? ' ON CONFLICT DO NOTHING' : '';
    if (cols.length === 0) {
      for (let i = 0; i < rows.length; i++) statements.push(`INSERT INTO ${target} DEFAULT VALUES${onConflict}${returning}`);
    } else if (rows.length > 0) {
      const tuples = rows.map((row) => {
        const cells = cols.map((c) => {
          if (!Object.hasOwn(row, c)) return missingDefault ? 'DEFAULT' : 'NULL';
          params.push(toParam(row[c]));
          return `$${params.length}`;
        });
        return `(${cells.join(', ')})`;
      });
      statements.push(`INSERT INTO ${target} (${cols.map(quoteIdent).join(', ')}) VALUES ${tuples.join(', ')}${onConflict}${returning}`);
    }

    let inserted: unknown[] = [];
    let count = 0;
    try {
      await db.transaction(async (tx) => {
        await tx.exec('SET LOCAL ROLE anon');
        await tx.query(`SELECT set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ role: 'anon' })]);
        for (const sql of statements) {
          const result = await tx.query(sql, params);
          count += result.affectedRows ?? 0;
          if (representation) inserted = inserted.concat(result.rows);
        }
      });
    } catch (err) {
      if (isPgError(err)) {
        send(res, pgErrorStatus(err.code), pgrstError(err.code, err.message, err.detail ?? null, err.hint ?? null), REST_CORS);
        return;
      }
      throw err;
    }

    const headers: Record<string, string> = { ...REST_CORS };
    if (prefer.has('count')) headers['Content-Range'] = `*/${count}`;
    if (prefer.has('return')) headers['Preference-Applied'] = `return=${prefer.get('return')}`;
    if (representation) send(res, 201, inserted, headers);
    else send(res, 201, undefined, headers);
  }

  async function handleFunction(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
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
        body = await readBody(req);
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
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined) continue;
      for (const item of Array.isArray(v) ? v : [v]) headers.append(k, item);
    }
    const request = new Request(new URL(url.pathname + url.search, 'http://localhost'), {
      method,
      headers,
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

  let closed = false;
  return {
    db,
    async handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const isRest = url.pathname.startsWith('/rest/v1/');
      const isFunction = url.pathname.startsWith('/functions/v1/');
      if (!isRest && !isFunction) return false;
      try {
        if (isRest) await handleRest(req, res, url);
        else await handleFunction(req, res, url);
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

// ---------------------------------------------------------------------------------------------
// Operator read-out

/**
 * Both lead tables, newest first, read as the database owner.
 * Works while `npm start` holds the database open: it reads a throw-away copy of dataDir.
 * A data folder that does not exist yet yields empty lists (nothing is created).
 */
export async function listLeads(dataDir: string): Promise<LeadsListing> {
  const source = resolve(dataDir);
  if (!existsSync(join(source, 'PG_VERSION'))) return { leads: [], discountLeads: [] };
  const copy = mkdtempSync(join(tmpdir(), 'leads-read-'));
  let db: PGlite | undefined;
  try {
    cpSync(source, copy, { recursive: true, mode: fsConstants.COPYFILE_FICLONE });
    rmSync(join(copy, 'postmaster.pid'), { force: true });
    db = await PGlite.create({ dataDir: copy });
    const exists = async (table: string) =>
      (await db!.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [`public.${table}`])).rows[0]?.t != null;
    const leads = (await exists('leads'))
      ? (
          await db.query<LeadRow>(
            'SELECT id, created_at, first_name, last_name, email, phone, message, page FROM public.leads ORDER BY created_at DESC, id',
          )
        ).rows
      : [];
    const discountLeads = (await exists('discount_leads'))
      ? (await db.query<DiscountLeadRow>('SELECT id, created_at, email, phone, page FROM public.discount_leads ORDER BY created_at DESC, id')).rows
      : [];
    return { leads, discountLeads };
  } finally {
    await db?.close().catch(() => {});
    rmSync(copy, { recursive: true, force: true });
  }
}
