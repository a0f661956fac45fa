/**
 * The stand-in's PostgREST: POST /rest/v1/leads and /rest/v1/discount_leads with PostgREST's
 * insert semantics, request rules and error answers, as supabase-js expects them. Inserts run as
 * role anon (SET LOCAL ROLE) with the request passed to SQL the way PostgREST passes it, so grants,
 * RLS, CHECK constraints and the per-client limit triggers behave as on Supabase. Nothing can be
 * read back over HTTP. The API key was checked before (gateway.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import { isJsonContentType } from '../../supabase/functions/notify-telegram/contentType.js';
import { isPgError } from './database.js';
import { BodyTooLargeError, headerValue, readBody, send } from './http.js';

/** Tables reachable through /rest/v1 (insert only). */
const EXPOSED_TABLES = ['leads', 'discount_leads'] as const;

/** The largest valid lead is about 6 KB of JSON (30 KB if every character is escaped). */
const MAX_REQUEST_BYTES = 64 * 1024;
const MAX_QUERY_PARAMS = 60_000;

interface PostgrestErrorBody {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

function pgrstError(code: string, message: string, details: string | null = null, hint: string | null = null): PostgrestErrorBody {
  return { code, message, details, hint };
}

/** PostgREST's SQLSTATE -> HTTP status table (requests here are always anonymous). */
function pgErrorStatus(code: string): number {
  // A function may pick the status itself: SQLSTATE 'PTxyz' is answered with HTTP xyz.
  if (/^PT[1-5][0-9]{2}$/.test(code)) return Number(code.slice(2));
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

export const REST_CORS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Content-Range, Content-Location, Location, Preference-Applied',
};

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

export interface Postgrest {
  /** Answers a /rest/v1/ request; `headers` are the request's as the gateway passes them on. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, headers: Record<string, string>): Promise<void>;
}

export async function createPostgrest(db: PGlite): Promise<Postgrest> {
  // "Schema cache": the columns of each exposed table, read once after migrations.
  const columnsByTable = new Map<string, Set<string>>();
  for (const table of EXPOSED_TABLES) {
    const { rows } = await db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
      [table],
    );
    if (rows.length > 0) columnsByTable.set(table, new Set(rows.map((r) => r.column_name)));
  }

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL, requestHeaders: Record<string, string>): Promise<void> {
    let table: string;
    try {
      table = decodeURIComponent(url.pathname.slice('/rest/v1/'.length));
    } catch {
      table = url.pathname.slice('/rest/v1/'.length);
    }
    const columns = columnsByTable.get(table);
    if (!columns) {
      req.resume();
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
    const profile = headerValue(req, 'content-profile');
    if (profile !== undefined && profile !== 'public') {
      req.resume();
      send(res, 406, pgrstError('PGRST106', `Invalid schema: ${profile}`, null, 'Only the following schemas are exposed: public'), REST_CORS);
      return;
    }
    const contentType = headerValue(req, 'content-type');
    if (!isJsonContentType(contentType)) {
      req.resume();
      send(res, 415, pgrstError('PGRST107', `Content-Type not acceptable: ${contentType ?? '(none)'}`), REST_CORS);
      return;
    }

    let raw: Buffer;
    try {
      raw = await readBody(req, MAX_REQUEST_BYTES);
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
      // One transaction per request, as PostgREST: a row refused by a constraint or by the limit
      // trigger takes the whole request's rows with it.
      await db.transaction(async (tx) => {
        await tx.exec('SET LOCAL ROLE anon');
        await tx.query(`SELECT set_config('request.jwt.claims', $1, true), set_config('request.headers', $2, true)`, [
          JSON.stringify({ role: 'anon' }),
          JSON.stringify(requestHeaders),
        ]);
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

  return { handle };
}
