/**
 * SQL for PostgREST requests. Identifiers only from the schema cache (quoted); every value from
 * the request is a $n parameter, sent as text and cast to the column's type, as PostgREST lets
 * Postgres read its untyped literals.
 */
import { badQuery, pgrstError, RestError } from './errors.js';
import type { Filter, OrderTerm, Selection } from './query.js';
import type { Column } from './schemaCache.js';

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Collects $n parameters for one statement. */
export class Params {
  readonly values: Array<string | null> = [];
  add(value: string | null): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  /** A value compared with or assigned to a column of `type`. */
  typed(value: string | null, type: string): string {
    return `${this.add(value)}::text::${type}`;
  }
}

/** The columns something can be filtered, ordered or selected on, with the name PostgREST reports. */
export interface ColumnSource {
  /** e.g. "leads" or "function search_leads". */
  label: string;
  columns: ReadonlyMap<string, Column>;
}

function column(source: ColumnSource, name: string): Column {
  const col = source.columns.get(name);
  if (!col) {
    throw new RestError(400, pgrstError('42703', `column ${source.label}.${name} does not exist`));
  }
  return col;
}

const COMPARISON: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', isdistinct: 'IS DISTINCT FROM' };
const IS_VALUES: Record<string, string> = { null: 'NULL', not_null: 'NOT NULL', true: 'TRUE', false: 'FALSE', unknown: 'UNKNOWN' };

/** Most values an in.(...) list may hold; more is a hostile request, not a supabase-js query. */
const MAX_IN_VALUES = 1000;

function condition(filter: Filter, source: ColumnSource, params: Params): string {
  if (filter.kind === 'logic') {
    if (filter.children.length === 0) throw badQuery('"failed to parse logic tree"', 'Empty logic tree');
    const inner = filter.children.map((c) => condition(c, source, params)).join(filter.op === 'and' ? ' AND ' : ' OR ');
    return filter.negate ? `NOT (${inner})` : `(${inner})`;
  }
  const col = column(source, filter.column);
  const ident = quoteIdent(filter.column);
  let sql: string;
  switch (filter.op) {
    case 'in':
      if (filter.value.length > MAX_IN_VALUES) throw badQuery('"failed to parse filter"', `in. takes at most ${MAX_IN_VALUES} values`);
      sql = filter.value.length === 0 ? 'FALSE' : `${ident} IN (${filter.value.map((v) => params.typed(v, col.type)).join(', ')})`;
      break;
    case 'is':
      sql = `${ident} IS ${IS_VALUES[filter.value]!}`;
      break;
    case 'like':
    case 'ilike':
      // PostgREST takes * as the wildcard too (it is safe in a URL).
      sql = `${ident} ${filter.op === 'like' ? 'LIKE' : 'ILIKE'} ${params.add(filter.value.replace(/\*/g, '%'))}::text`;
      break;
    case 'match':
    case 'imatch':
      sql = `${ident} ${filter.op === 'match' ? '~' : '~*'} ${params.add(filter.value)}::text`;
      break;
    default:
      sql = `${ident} ${COMPARISON[filter.op]!} ${params.typed(filter.value, col.type)}`;
  }
  return filter.negate ? `NOT (${sql})` : sql;
}

/** ` WHERE ...` for the filters, or '' without any. */
export function whereClause(filters: readonly Filter[], source: ColumnSource, params: Params): string {
  if (filters.length === 0) return '';
  return ` WHERE ${filters.map((f) => condition(f, source, params)).join(' AND ')}`;
}

/** The select list: `*` or the named columns with their aliases. */
export function selectList(selection: Selection, source: ColumnSource): string {
  if (selection === undefined) return '*';
  if (selection.length === 0) return '';
  return selection
    .map(({ column: name, alias }) => {
      column(source, name);
      return name === alias ? quoteIdent(name) : `${quoteIdent(name)} AS ${quoteIdent(alias)}`;
    })
    .join(', ');
}

export function orderClause(order: readonly OrderTerm[], source: ColumnSource): string {
  if (order.length === 0) return '';
  return ` ORDER BY ${order
    .map((o) => {
      column(source, o.column);
      return `${quoteIdent(o.column)} ${o.descending ? 'DESC' : 'ASC'}${o.nulls ? ` NULLS ${o.nulls.toUpperCase()}` : ''}`;
    })
    .join(', ')}`;
}

export function limitClause(limit: number | undefined, offset: number): string {
  return `${limit === undefined ? '' : ` LIMIT ${limit}`}${offset > 0 ? ` OFFSET ${offset}` : ''}`;
}

/**
 * The JSON body of a result set `alias`, built by Postgres as PostgREST builds it (so timestamps,
 * numerics and json read exactly as on Supabase): the array, its first element and the row count.
 */
export function jsonResult(alias: string, stripNulls: boolean, opts: { valueExpr?: string; totalFrom?: string } = {}): string {
  const agg = `coalesce(json_agg(${opts.valueExpr ?? alias}), '[]'::json)`;
  const arr = stripNulls ? `json_strip_nulls(${agg})` : agg;
  // totalFrom: the rows before paging, counted for Prefer: count=exact.
  const total = opts.totalFrom === undefined ? '' : `, (SELECT count(*) FROM ${opts.totalFrom})::int AS total`;
  return `SELECT ${arr}::text AS body, (${arr} -> 0)::text AS first, count(*)::int AS n${total} FROM ${alias}`;
}

/** JSON value from a request body -> the text PostgREST would hand to Postgres for it. */
export function jsonToText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}
