/**
 * What a PostgREST request becomes once parsed against the schema cache: SQL to run inside the
 * request's transaction (role and claims already set) and the HTTP answer made from its result.
 * Planning throws RestError for a request PostgREST would refuse; running may too, which rolls
 * the transaction back (e.g. .single() on a PATCH that touched two rows).
 */
import type { Transaction } from '@electric-sql/pglite';
import { pgrstError, RestError } from './errors.js';
import type { Accept } from './query.js';

export interface Answer {
  status: number;
  /** JSON text; undefined = no body. */
  body: string | undefined;
  headers: Record<string, string>;
  contentType?: string;
}

export interface Plan {
  /** GET and HEAD run read-only, as PostgREST runs them. */
  readOnly: boolean;
  run(tx: Transaction): Promise<Answer>;
}

/** Row of the statements built by sql.ts jsonResult(). */
export interface JsonRows {
  body: string;
  first: string | null;
  n: number;
  total?: number | null;
}

export const OBJECT_CONTENT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';

/** The body for `accept`: the array, or for .single() the one object (406 PGRST116 otherwise, rolling back). */
export function shapedBody(rows: JsonRows, accept: Accept): { body: string; contentType?: string } {
  if (!accept.single) return { body: rows.body };
  if (rows.n !== 1) {
    throw new RestError(
      406,
      pgrstError('PGRST116', 'JSON object requested, multiple (or no) rows returned', `The result contains ${rows.n} rows`),
    );
  }
  return { body: rows.first ?? 'null', contentType: OBJECT_CONTENT_TYPE };
}

/** PostgREST's Content-Range: `first-last/total`, `*` for an empty page or an unknown total. */
export function contentRange(offset: number, n: number, total: number | undefined): string {
  const range = n > 0 && total !== 0 ? `${offset}-${offset + n - 1}` : '*';
  return `${range}/${total === undefined ? '*' : total}`;
}
