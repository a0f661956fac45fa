/**
 * PostgREST's query string, as supabase-js writes it: `select=`, horizontal filters
 * (`col=[not.]op.value`, `or=(...)`, `and=(...)`), `order=`, `limit=`, `offset=`, plus the Range
 * header, Prefer and Accept. Parsing only: names are checked against the schema cache in sql.ts.
 * What the stand-in does not support (embedding, casts, JSON paths, full-text operators) is a 400.
 */
import { badQuery, pgrstError, RestError } from './errors.js';

export type Operator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'ilike' | 'match' | 'imatch' | 'is' | 'isdistinct' | 'in';
const OPERATORS = new Set<string>(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'is', 'isdistinct', 'in']);

export type Filter =
  | { kind: 'condition'; column: string; negate: boolean; op: Exclude<Operator, 'in'>; value: string }
  | { kind: 'condition'; column: string; negate: boolean; op: 'in'; value: string[] }
  | { kind: 'logic'; op: 'and' | 'or'; negate: boolean; children: Filter[] };

export interface SelectItem {
  column: string;
  alias: string;
}

/** undefined = `*` (every column). */
export type Selection = SelectItem[] | undefined;

export interface OrderTerm {
  column: string;
  descending: boolean;
  nulls: 'first' | 'last' | undefined;
}

export interface ReadQuery {
  select: Selection;
  filters: Filter[];
  order: OrderTerm[];
  limit: number | undefined;
  offset: number;
}

/** Query parameters that are not filters (`columns`/`on_conflict` belong to inserts; apikey to the gateway). */
const RESERVED = new Set(['select', 'order', 'limit', 'offset', 'columns', 'on_conflict', 'apikey']);

/** Splits on `sep` at nesting depth 0, outside double quotes (backslash escapes inside quotes). */
export function splitTopLevel(text: string, sep = ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      current += ch;
      if (ch === '\\' && i + 1 < text.length) current += text[++i];
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    if (depth < 0) throw badQuery('"failed to parse filter"', `Unbalanced parentheses in "${text}"`);
    if (ch === sep && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  if (quoted || depth !== 0) throw badQuery('"failed to parse filter"', `Unbalanced quotes or parentheses in "${text}"`);
  parts.push(current);
  return parts;
}

function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) return text.slice(1, -1).replace(/\\(.)/g, '$1');
  return text;
}

/** A column name as written in a filter, select or order: plain or "double quoted"; JSON paths and casts refused. */
function columnName(text: string, where: string): string {
  const name = text.trim();
  if (name.startsWith('"')) {
    if (!name.endsWith('"') || name.length < 2) throw badQuery(`failed to parse ${where}`, `Unterminated quoted name: ${name}`);
    return unquote(name);
  }
  if (name === '') throw badQuery(`failed to parse ${where}`, 'Empty column name');
  if (/->|::/.test(name)) throw badQuery(`failed to parse ${where} (${name})`, 'JSON paths and casts are not supported by the local stand-in');
  if (!/^[^\s,.()"]+$/.test(name)) throw badQuery(`failed to parse ${where} (${name})`, `Unexpected characters in "${name}"`);
  return name;
}

/** `a,alias:b,"c d"` or `*`; embedded resources, aggregates and casts are refused. */
export function parseSelect(value: string | null): Selection {
  if (value === null) return undefined;
  const items = splitTopLevel(value).map((s) => s.trim());
  if (items.length === 1 && items[0] === '*') return undefined;
  const out: SelectItem[] = [];
  for (const item of items) {
    if (item === '*') return undefined; // `*,x` is the same rows as `*` without embedding
    if (/[()]/.test(item) || item.startsWith('...')) {
      throw badQuery(`failed to parse select parameter (${value})`, 'Embedding related resources and aggregates are not supported by the local stand-in');
    }
    const colon = /^((?:"[^"]*"|[^":])+):(?!:)(.+)$/.exec(item);
    const column = columnName(colon ? colon[2]! : item, 'select parameter');
    out.push({ column, alias: colon ? columnName(colon[1]!, 'select parameter') : column });
  }
  return out;
}

/** `(a,b,"c,d")` -> ['a', 'b', 'c,d'] */
function parseList(text: string): string[] {
  if (!text.startsWith('(') || !text.endsWith(')')) throw badQuery('"failed to parse filter"', `in. expects a list in parentheses: ${text}`);
  const inner = text.slice(1, -1);
  if (inner.trim() === '') return [];
  return splitTopLevel(inner).map((v) => unquote(v.trim()));
}

/** `[not.]op.value` applied to `column` (inside or=(...) a value may be "double quoted"). */
function parseCondition(column: string, expr: string, inLogicTree: boolean): Filter {
  let rest = expr;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf('.');
  const op = dot < 0 ? rest : rest.slice(0, dot);
  const operand = dot < 0 ? '' : rest.slice(dot + 1);
  if (!OPERATORS.has(op)) throw badQuery(`"failed to parse filter (${expr})"`, `Operator "${op}" is not supported by the local stand-in`);
  if (dot < 0) throw badQuery(`"failed to parse filter (${expr})"`, 'Missing value');
  if (op === 'in') return { kind: 'condition', column, negate, op: 'in', value: parseList(operand) };
  if (op === 'is' && !/^(null|not_null|true|false|unknown)$/i.test(operand)) {
    throw badQuery(`"failed to parse filter (${expr})"`, 'is. takes null, not_null, true, false or unknown');
  }
  return { kind: 'condition', column, negate, op: op as Exclude<Operator, 'in'>, value: op === 'is' ? operand.toLowerCase() : inLogicTree ? unquote(operand) : operand };
}

/** Nesting of and()/or() a query may use: far more than any inbox filter, far less than a stack. */
const MAX_LOGIC_DEPTH = 16;

/** One element of an `or=(...)` list: `and(...)`, `not.or(...)` or `col.[not.]op.value`. */
function parseLogicItem(item: string, depth: number): Filter {
  const text = item.trim();
  const logic = /^(not\.)?(and|or)\((.*)\)$/s.exec(text);
  if (logic) return parseLogic(logic[2] as 'and' | 'or', Boolean(logic[1]), `(${logic[3]})`, depth + 1);
  let column: string;
  let rest: string;
  if (text.startsWith('"')) {
    const end = text.indexOf('"', 1);
    if (end < 0 || text[end + 1] !== '.') throw badQuery(`"failed to parse logic tree (${text})"`);
    column = text.slice(1, end);
    rest = text.slice(end + 2);
  } else {
    const dot = text.indexOf('.');
    if (dot <= 0) throw badQuery(`"failed to parse logic tree (${text})"`);
    column = columnName(text.slice(0, dot), 'logic tree');
    rest = text.slice(dot + 1);
  }
  return parseCondition(column, rest, true);
}

function parseLogic(op: 'and' | 'or', negate: boolean, value: string, depth = 0): Filter {
  if (depth > MAX_LOGIC_DEPTH) throw badQuery('"failed to parse logic tree"', `and()/or() nested deeper than ${MAX_LOGIC_DEPTH}`);
  const text = value.trim();
  if (!text.startsWith('(') || !text.endsWith(')')) throw badQuery(`"failed to parse logic tree (${value})"`, 'Expected a list in parentheses');
  const children = splitTopLevel(text.slice(1, -1)).map((item) => parseLogicItem(item, depth));
  return { kind: 'logic', op, negate, children };
}

/** Every filter of the query string (parameters other than the reserved ones). */
export function parseFilters(params: URLSearchParams, ignore: ReadonlySet<string> = new Set()): Filter[] {
  const filters: Filter[] = [];
  for (const [key, value] of params) {
    if (RESERVED.has(key) || ignore.has(key)) continue;
    const logic = /^(not\.)?(and|or)$/.exec(key);
    if (logic) filters.push(parseLogic(logic[2] as 'and' | 'or', Boolean(logic[1]), value));
    else filters.push(parseCondition(columnName(key, 'filter'), value, false));
  }
  return filters;
}

export function parseOrder(value: string | null): OrderTerm[] {
  if (value === null || value.trim() === '') return [];
  return splitTopLevel(value).map((term) => {
    const parts = term.trim().split('.');
    const modifiers = parts.slice(1);
    let column = parts[0]!;
    // A quoted name may contain dots: put it back together.
    if (column.startsWith('"') && !column.endsWith('"')) {
      const end = modifiers.findIndex((m) => m.endsWith('"'));
      if (end < 0) throw badQuery(`failed to parse order (${value})`);
      column = [column, ...modifiers.splice(0, end + 1)].join('.');
    }
    const out: OrderTerm = { column: columnName(column, 'order'), descending: false, nulls: undefined };
    for (const m of modifiers) {
      if (m === 'asc') out.descending = false;
      else if (m === 'desc') out.descending = true;
      else if (m === 'nullsfirst') out.nulls = 'first';
      else if (m === 'nullslast') out.nulls = 'last';
      else throw badQuery(`failed to parse order (${value})`, `Unknown modifier "${m}"`);
    }
    return out;
  });
}

function nonNegativeInt(value: string | null, name: string): number | undefined {
  if (value === null) return undefined;
  if (!/^\d{1,15}$/.test(value.trim())) throw badQuery(`failed to parse ${name} parameter (${value})`);
  return Number(value.trim());
}

/**
 * limit/offset from the query string, narrowed by a `Range: a-b` header as PostgREST does
 * (the intersection of both); 416 when the header is unusable.
 */
function parseRange(params: URLSearchParams, rangeHeader: string | undefined): { limit: number | undefined; offset: number } {
  let offset = nonNegativeInt(params.get('offset'), 'offset') ?? 0;
  let limit = nonNegativeInt(params.get('limit'), 'limit');
  if (rangeHeader !== undefined && rangeHeader.trim() !== '') {
    const m = /^\s*(?:items=)?(\d{1,15})-(\d{0,15})\s*$/.exec(rangeHeader);
    if (!m || (m[2] !== '' && Number(m[2]) < Number(m[1]))) {
      throw new RestError(416, pgrstError('PGRST103', 'Requested range not satisfiable', `Unusable Range header: ${rangeHeader}`));
    }
    const from = Number(m[1]);
    const to = m[2] === '' ? undefined : Number(m[2]);
    // Query range [offset, offset+limit) within the header's [from, to].
    const start = Math.max(from, offset);
    const endExclusive = Math.min(to === undefined ? Infinity : to + 1, limit === undefined ? Infinity : offset + limit);
    offset = start;
    limit = endExclusive === Infinity ? undefined : Math.max(0, endExclusive - start);
  }
  return { limit, offset };
}

export function parseReadQuery(params: URLSearchParams, rangeHeader: string | undefined, ignore?: ReadonlySet<string>): ReadQuery {
  return {
    select: parseSelect(params.get('select')),
    filters: parseFilters(params, ignore),
    order: parseOrder(params.get('order')),
    ...parseRange(params, rangeHeader),
  };
}

export function parsePrefer(header: string | undefined): Map<string, string> {
  const prefs = new Map<string, string>();
  for (const part of (header ?? '').split(',')) {
    const [k, v] = part.split('=', 2).map((s) => s.trim());
    if (k) prefs.set(k.toLowerCase(), (v ?? '').toLowerCase());
  }
  return prefs;
}

export interface Accept {
  /** application/vnd.pgrst.object+json: exactly one row, as an object (.single()). */
  single: boolean;
  /** `;nulls=stripped`: null members left out. */
  stripNulls: boolean;
}

const ARRAY_TYPES = new Set(['*/*', 'application/*', 'application/json', 'application/vnd.pgrst.array+json']);

/** The result shape the Accept header asks for; 406 for a media type the stand-in cannot produce. */
export function parseAccept(header: string | undefined): Accept {
  if (header === undefined || header.trim() === '') return { single: false, stripNulls: false };
  for (const range of header.split(',')) {
    const [type = '', ...params] = range.split(';').map((s) => s.trim().toLowerCase());
    const stripNulls = params.includes('nulls=stripped');
    if (type === 'application/vnd.pgrst.object+json' || type === 'application/vnd.pgrst.object') return { single: true, stripNulls };
    if (ARRAY_TYPES.has(type)) return { single: false, stripNulls };
  }
  throw new RestError(406, pgrstError('PGRST107', `None of these media types are available: ${header}`));
}
