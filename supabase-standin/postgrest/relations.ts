/**
 * Requests on a table or view: GET/HEAD (read), POST (insert, upsert), PATCH (update), DELETE,
 * with PostgREST's Prefer, Range and Accept semantics.
 */
import { badQuery, pgrstError, RestError } from './errors.js';
import { contentRange, shapedBody, type Answer, type JsonRows, type Plan } from './plan.js';
import { parseAccept, parseReadQuery, parseFilters, parseSelect, type Accept, type ReadQuery } from './query.js';
import type { Relation } from './schemaCache.js';
import { jsonResult, jsonToText, limitClause, orderClause, Params, quoteIdent, selectList, whereClause, type ColumnSource } from './sql.js';

/** Supabase's default "Max rows": no response carries more, whatever the query asks. */
export const MAX_ROWS = 1000;
/** Bound on $n parameters of one insert (rows x columns). */
const MAX_QUERY_PARAMS = 60_000;

export interface RequestParts {
  url: URL;
  /** Lower-case header lookup. */
  header(name: string): string | undefined;
  prefer: Map<string, string>;
}

function sourceOf(rel: Relation): ColumnSource {
  return { label: rel.name, columns: rel.columns };
}

function wantsCount(prefer: Map<string, string>): boolean {
  return prefer.has('count'); // exact, planned, estimated: the stand-in always counts exactly
}

/**
 * A read of `from` (a relation or a function call): the page as JSON, its row count and, on
 * request, the total, in one statement. Shared with set-returning functions (rpc.ts).
 */
export function readStatement(from: string, source: ColumnSource, query: ReadQuery, params: Params, opts: { count: boolean; stripNulls: boolean }): string {
  const where = whereClause(query.filters, source, params);
  const limit = Math.min(query.limit ?? MAX_ROWS, MAX_ROWS);
  const page = `SELECT ${selectList(query.select, source)} FROM ${from}${where}${orderClause(query.order, source)}${limitClause(limit, query.offset)}`;
  return `WITH _r AS (${page}) ${jsonResult('_r', opts.stripNulls, opts.count ? { totalFrom: `${from}${where}` } : {})}`;
}

/** The answer to a read: 200 or 206 (a partial page of a counted total), Content-Range, 416 past the end. */
export function readAnswer(rows: JsonRows, query: ReadQuery, accept: Accept, head: boolean): Answer {
  const total = rows.total ?? undefined;
  if (total !== undefined && query.offset > total) {
    throw new RestError(416, pgrstError('PGRST103', 'Requested range not satisfiable', `An offset of ${query.offset} was requested, but there are only ${total} rows.`), {
      'Content-Range': `*/${total}`,
    });
  }
  const shaped = shapedBody(rows, accept);
  return {
    status: total !== undefined && rows.n < total && !accept.single ? 206 : 200,
    body: head ? undefined : shaped.body,
    headers: { 'Content-Range': contentRange(query.offset, rows.n, total) },
    ...(shaped.contentType && { contentType: shaped.contentType }),
  };
}

export function planRead(rel: Relation, parts: RequestParts, head: boolean): Plan {
  const query = parseReadQuery(parts.url.searchParams, parts.header('range'));
  const accept = parseAccept(parts.header('accept'));
  const params = new Params();
  const sql = readStatement(`public.${quoteIdent(rel.name)}`, sourceOf(rel), query, params, { count: wantsCount(parts.prefer), stripNulls: accept.stripNulls });
  return {
    readOnly: true,
    async run(tx) {
      const { rows } = await tx.query<JsonRows>(sql, params.values);
      return readAnswer(rows[0]!, query, accept, head);
    },
  };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** ?columns="a","b" or a,b */
function parseColumnsParam(value: string): string[] {
  return value
    .split(',')
    .map((c) => c.trim().replace(/^"(.*)"$/, '$1').replace(/""/g, '"'))
    .filter((c) => c.length > 0);
}

function unknownColumn(rel: Relation, name: string): RestError {
  return new RestError(400, pgrstError('PGRST204', `Could not find the '${name}' column of '${rel.name}' in the schema cache`));
}

/** What a mutation gives back: RETURNING the selected columns for return=representation, else a row count. */
function returning(rel: Relation, parts: RequestParts): { representation: boolean; sql: string } {
  const representation = parts.prefer.get('return') === 'representation';
  if (!representation) return { representation, sql: ' RETURNING 1' };
  const list = selectList(parseSelect(parts.url.searchParams.get('select')), sourceOf(rel));
  return { representation, sql: list === '' ? ' RETURNING 1' : ` RETURNING ${list}` };
}

function preferenceApplied(prefer: Map<string, string>): Record<string, string> {
  return prefer.has('return') ? { 'Preference-Applied': `return=${prefer.get('return')}` } : {};
}

/** A mutation's answer: `status` with the rows (return=representation) or none; .single() enforced. */
function mutationAnswer(rows: JsonRows, representation: boolean, status: number, accept: Accept, parts: RequestParts): Answer {
  const shaped = shapedBody(rows, accept);
  const headers: Record<string, string> = { ...preferenceApplied(parts.prefer) };
  if (wantsCount(parts.prefer) || representation) headers['Content-Range'] = contentRange(0, rows.n, wantsCount(parts.prefer) ? rows.n : undefined);
  if (representation) return { status, body: shaped.body, headers, ...(shaped.contentType && { contentType: shaped.contentType }) };
  return { status: status === 201 ? 201 : 204, body: undefined, headers };
}

export function planInsert(rel: Relation, parts: RequestParts, body: unknown): Plan {
  const rows = Array.isArray(body) ? body : [body];
  if (!rows.every(isPlainObject)) throw new RestError(400, pgrstError('PGRST102', 'Empty or invalid json'));
  const columnsParam = parts.url.searchParams.get('columns');
  let cols: string[];
  if (columnsParam !== null) {
    cols = parseColumnsParam(columnsParam);
  } else {
    const first = rows[0];
    cols = first ? Object.keys(first) : [];
    const key = [...cols].sort().join('\u0000');
    if (rows.some((r) => Object.keys(r).sort().join('\u0000') !== key)) throw new RestError(400, pgrstError('PGRST102', 'All object keys must match'));
  }
  cols = [...new Set(cols)];
  const unknown = cols.find((c) => !rel.columns.has(c));
  if (unknown !== undefined) throw unknownColumn(rel, unknown);
  if (rows.length * Math.max(cols.length, 1) > MAX_QUERY_PARAMS) throw new RestError(413, pgrstError('PGRST413', 'Payload too large'));

  const accept = parseAccept(parts.header('accept'));
  const ret = returning(rel, parts);
  const missingDefault = parts.prefer.get('missing') === 'default';
  const resolution = parts.prefer.get('resolution');
  let onConflict = '';
  if (resolution === 'merge-duplicates' || resolution === 'ignore-duplicates') {
    const targetParam = parts.url.searchParams.get('on_conflict');
    const target = targetParam !== null ? parseColumnsParam(targetParam) : rel.primaryKey;
    const unknownTarget = target.find((c) => !rel.columns.has(c));
    if (unknownTarget !== undefined) throw unknownColumn(rel, unknownTarget);
    const targetSql = target.length > 0 ? ` (${target.map(quoteIdent).join(', ')})` : '';
    if (resolution === 'ignore-duplicates') onConflict = ` ON CONFLICT${targetSql} DO NOTHING`;
    else {
      if (target.length === 0) throw badQuery('An upsert needs a primary key or on_conflict', `'${rel.name}' has no primary key`);
      const updates = cols.filter((c) => !target.includes(c));
      onConflict = updates.length === 0
        ? ` ON CONFLICT${targetSql} DO NOTHING`
        : ` ON CONFLICT${targetSql} DO UPDATE SET ${updates.map((c) => `${quoteIdent(c)} = EXCLUDED.${quoteIdent(c)}`).join(', ')}`;
    }
  }

  const target = `public.${quoteIdent(rel.name)}`;
  const statements: Array<{ sql: string; params: Params }> = [];
  const wrap = (insert: string) => `WITH _r AS (${insert}${onConflict}${ret.sql}) ${jsonResult('_r', accept.stripNulls)}`;
  if (cols.length === 0) {
    for (let i = 0; i < rows.length; i++) statements.push({ sql: wrap(`INSERT INTO ${target} DEFAULT VALUES`), params: new Params() });
  } else if (rows.length > 0) {
    const params = new Params();
    const tuples = rows.map((row) => {
      const cells = cols.map((c) => {
        if (!Object.hasOwn(row, c)) return missingDefault ? 'DEFAULT' : 'NULL';
        return params.add(jsonToText(row[c]));
      });
      return `(${cells.join(', ')})`;
    });
    statements.push({ sql: wrap(`INSERT INTO ${target} (${cols.map(quoteIdent).join(', ')}) VALUES ${tuples.join(', ')}`), params });
  }
  return {
    readOnly: false,
    async run(tx) {
      const arrays: unknown[] = [];
      for (const { sql, params } of statements) {
        const { rows: out } = await tx.query<JsonRows>(sql, params.values);
        arrays.push(...(JSON.parse(out[0]!.body) as unknown[]));
      }
      const first = arrays.length > 0 ? JSON.stringify(arrays[0]) : null;
      return mutationAnswer({ body: JSON.stringify(arrays), first, n: arrays.length }, ret.representation, 201, accept, parts);
    },
  };
}

/** Supabase runs PostgREST with pg-safeupdate: an UPDATE or DELETE without a filter is refused. */
function requireFilter(query: ReadQuery['filters'], verb: 'UPDATE' | 'DELETE'): void {
  if (query.length === 0) throw new RestError(400, pgrstError('21000', `${verb} requires a WHERE clause`));
}

export function planUpdate(rel: Relation, parts: RequestParts, body: unknown): Plan {
  if (!isPlainObject(body)) throw new RestError(400, pgrstError('PGRST102', 'Empty or invalid json'));
  const cols = Object.keys(body);
  const unknown = cols.find((c) => !rel.columns.has(c));
  if (unknown !== undefined) throw unknownColumn(rel, unknown);
  const filters = parseFilters(parts.url.searchParams);
  requireFilter(filters, 'UPDATE');
  const accept = parseAccept(parts.header('accept'));
  const ret = returning(rel, parts);
  const params = new Params();
  const target = `public.${quoteIdent(rel.name)}`;
  // The body read as a row of the relation, as PostgREST's json_populate_record does: JSON types map to the columns' types.
  const record = `json_populate_record(NULL::${target}, ${params.add(JSON.stringify(body))}::json)`;
  const where = whereClause(filters, sourceOf(rel), params);
  const sql =
    cols.length === 0
      ? undefined
      : `WITH _r AS (UPDATE ${target} SET ${cols.map((c) => `${quoteIdent(c)} = (${record}).${quoteIdent(c)}`).join(', ')}${where}${ret.sql}) ${jsonResult('_r', accept.stripNulls)}`;
  return {
    readOnly: false,
    async run(tx) {
      // PostgREST answers an empty PATCH without touching a row.
      const rows = sql === undefined ? { body: '[]', first: null, n: 0 } : (await tx.query<JsonRows>(sql, params.values)).rows[0]!;
      return mutationAnswer(rows, ret.representation, 200, accept, parts);
    },
  };
}

export function planDelete(rel: Relation, parts: RequestParts): Plan {
  const filters = parseFilters(parts.url.searchParams);
  requireFilter(filters, 'DELETE');
  const accept = parseAccept(parts.header('accept'));
  const ret = returning(rel, parts);
  const params = new Params();
  const sql = `WITH _r AS (DELETE FROM public.${quoteIdent(rel.name)}${whereClause(filters, sourceOf(rel), params)}${ret.sql}) ${jsonResult('_r', accept.stripNulls)}`;
  return {
    readOnly: false,
    async run(tx) {
      const { rows } = await tx.query<JsonRows>(sql, params.values);
      return mutationAnswer(rows[0]!, ret.representation, 200, accept, parts);
    },
  };
}
