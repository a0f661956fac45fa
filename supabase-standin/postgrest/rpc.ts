/**
 * /rest/v1/rpc/<fn>: a function of schema public called with named arguments (a JSON object in a
 * POST body, or query parameters in a GET), each cast to its parameter's type. The result as
 * PostgREST gives it: a scalar as the JSON value, a single composite as an object, a set (or
 * RETURNS TABLE) as an array that takes select/filters/order/limit/count like a table; void: 204.
 */
import { pgrstError, RestError } from './errors.js';
import { contentRange, shapedBody, type JsonRows, type Plan } from './plan.js';
import { parseAccept, parseReadQuery } from './query.js';
import { readAnswer, readStatement, type RequestParts } from './relations.js';
import type { RoutineInfo } from './schemaCache.js';
import { jsonResult, jsonToText, Params, quoteIdent, type ColumnSource } from './sql.js';

/** PostgREST's 404 for a function name / argument names it does not know. */
export function functionNotFound(name: string, argNames: readonly string[]): RestError {
  const sorted = [...argNames].sort();
  return new RestError(
    404,
    pgrstError(
      'PGRST202',
      sorted.length === 0
        ? `Could not find the function public.${name} without parameters in the schema cache`
        : `Could not find the function public.${name}(${sorted.join(', ')}) in the schema cache`,
      `Searched for the function public.${name}${sorted.length === 0 ? ' without parameters' : ` with parameters ${sorted.join(', ')}`} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
    ),
  );
}

/** The overload whose parameters are exactly covered by `argNames` (every required one given, none unknown). */
export function pickOverload(overloads: readonly RoutineInfo[] | undefined, argNames: readonly string[]): RoutineInfo | undefined {
  return overloads?.find((fn) => {
    const names = new Set(fn.params.map((p) => p.name));
    return argNames.every((a) => names.has(a)) && fn.params.every((p) => p.hasDefault || argNames.includes(p.name));
  });
}

function isJsonType(type: string): boolean {
  return type === 'json' || type === 'jsonb';
}

/**
 * `"p" => <value cast to p's type>` for each argument. From a JSON body a json/jsonb parameter
 * gets the JSON value itself and an array parameter a JSON array; from a query string each value
 * is the text Postgres reads (arrays as {a,b}, as supabase-js writes them).
 */
function argumentList(fn: RoutineInfo, args: Record<string, unknown>, fromJsonBody: boolean, params: Params): string {
  return fn.params
    .filter((p) => Object.hasOwn(args, p.name))
    .map((p) => {
      const value = args[p.name];
      let expr: string;
      if (value === null || value === undefined) expr = `NULL::${p.type}`;
      else if (fromJsonBody && isJsonType(p.type)) expr = params.typed(JSON.stringify(value), p.type);
      else if (fromJsonBody && Array.isArray(value) && p.type.endsWith('[]')) {
        expr = `ARRAY(SELECT json_array_elements_text(${params.add(JSON.stringify(value))}::json))::${p.type}`;
      } else expr = params.typed(jsonToText(value), p.type);
      return `${quoteIdent(p.name)} => ${expr}`;
    })
    .join(', ');
}

export function planRpc(fn: RoutineInfo, parts: RequestParts, args: Record<string, unknown>, opts: { fromJsonBody: boolean; readOnly: boolean; head: boolean; argNames: ReadonlySet<string> }): Plan {
  const accept = parseAccept(parts.header('accept'));
  const params = new Params();
  const call = `public.${quoteIdent(fn.name)}(${argumentList(fn, args, opts.fromJsonBody, params)})`;

  if (fn.returns === 'void') {
    return {
      readOnly: opts.readOnly,
      async run(tx) {
        await tx.query(`SELECT ${call}`, params.values);
        return { status: 204, body: undefined, headers: {} };
      },
    };
  }

  if (!fn.returnsSet && fn.returns === 'scalar') {
    return {
      readOnly: opts.readOnly,
      async run(tx) {
        const { rows } = await tx.query<{ body: string }>(`SELECT to_json(${call})::text AS body`, params.values);
        return { status: 200, body: opts.head ? undefined : rows[0]!.body, headers: {} };
      },
    };
  }

  // Rows: the query string beyond the arguments selects, filters, orders and pages them.
  const query = parseReadQuery(parts.url.searchParams, parts.header('range'), opts.argNames);
  const count = parts.prefer.has('count');
  if (fn.returns === 'scalar') {
    // setof <scalar>: an array of values; nothing to filter on.
    if (query.filters.length > 0 || query.select !== undefined || query.order.length > 0) {
      throw new RestError(400, pgrstError('PGRST100', `public.${fn.name} returns scalar values: select, filters and order do not apply`));
    }
  }
  const source: ColumnSource = { label: fn.name, columns: fn.columns };
  const sql =
    fn.returns === 'scalar'
      ? `WITH _r AS (SELECT _f AS v FROM ${call} _f${query.limit === undefined ? '' : ` LIMIT ${query.limit}`}${query.offset > 0 ? ` OFFSET ${query.offset}` : ''}) ${jsonResult('_r', accept.stripNulls, { valueExpr: '_r.v', ...(count && { totalFrom: call }) })}`
      : readStatement(`${call} _f`, source, query, params, { count, stripNulls: accept.stripNulls });

  return {
    readOnly: opts.readOnly,
    async run(tx) {
      const { rows } = await tx.query<JsonRows>(sql, params.values);
      const row = rows[0]!;
      if (fn.returnsSet) return readAnswer(row, query, accept, opts.head);
      // A single composite: the object itself (PostgREST answers it as one, with or without .single()).
      const shaped = shapedBody(row, { ...accept, single: true });
      return { status: 200, body: opts.head ? undefined : shaped.body, headers: { 'Content-Range': contentRange(0, row.n, undefined) } };
    },
  };
}
