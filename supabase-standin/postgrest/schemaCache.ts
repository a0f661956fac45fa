/**
 * PostgREST's schema cache: what /rest/v1 exposes, read from pg_catalog. Tables and views of
 * schema public (not the stand-in's own bookkeeping table) with their columns' types and primary
 * keys, and the functions of schema public with their parameters and result shape. Identifiers in
 * SQL only ever come from here.
 */
import type { PGlite } from '@electric-sql/pglite';

export interface Column {
  /** As format_type() prints it, usable in a cast: "uuid", "timestamp with time zone", "text[]". */
  type: string;
}

export interface Relation {
  name: string;
  columns: Map<string, Column>;
  /** Primary key columns, for upserts (empty for views). */
  primaryKey: string[];
}

export interface FunctionParam {
  name: string;
  type: string;
  hasDefault: boolean;
}

export interface RoutineInfo {
  name: string;
  /** Input parameters in order. */
  params: FunctionParam[];
  returnsSet: boolean;
  /** 'void': no result; 'composite': rows with `columns`; 'scalar': a single value per row. */
  returns: 'void' | 'composite' | 'scalar';
  /** Output columns of a composite or RETURNS TABLE result (empty for scalar and void). */
  columns: Map<string, Column>;
}

export interface SchemaCache {
  relations: Map<string, Relation>;
  /** Overloads by name. */
  functions: Map<string, RoutineInfo[]>;
}

/** The stand-in's own migration bookkeeping: in public on PGlite, never exposed. */
const HIDDEN_RELATIONS = new Set(['_local_migrations']);

export async function loadSchemaCache(db: PGlite): Promise<SchemaCache> {
  const relations = new Map<string, Relation>();
  const { rows: columnRows } = await db.query<{ rel: string; col: string | null; type: string | null }>(`
    SELECT c.relname AS rel, a.attname AS col, format_type(a.atttypid, a.atttypmod) AS type
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm', 'f', 'p')
    ORDER BY c.relname, a.attnum`);
  for (const row of columnRows) {
    if (HIDDEN_RELATIONS.has(row.rel)) continue;
    let rel = relations.get(row.rel);
    if (!rel) relations.set(row.rel, (rel = { name: row.rel, columns: new Map(), primaryKey: [] }));
    if (row.col !== null && row.type !== null) rel.columns.set(row.col, { type: row.type });
  }
  const { rows: keyRows } = await db.query<{ rel: string; col: string }>(`
    SELECT c.relname AS rel, a.attname AS col
    FROM pg_index i
    JOIN pg_class c ON c.oid = i.indrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (i.indkey)
    WHERE n.nspname = 'public' AND i.indisprimary
    ORDER BY c.relname, array_position(i.indkey::int2[], a.attnum)`);
  for (const row of keyRows) relations.get(row.rel)?.primaryKey.push(row.col);

  const functions = new Map<string, RoutineInfo[]>();
  const { rows: fnRows } = await db.query<{
    name: string;
    retset: boolean;
    rettype: string;
    typtype: string;
    typrelid: number;
    nargs: number;
    ndefaults: number;
    argnames: string[] | null;
    argmodes: string[] | null;
    argtypes: string[];
    ret_columns: Array<{ name: string; type: string }> | null;
  }>(`
    SELECT p.proname AS name, p.proretset AS retset, format_type(p.prorettype, NULL) AS rettype,
           t.typtype::text AS typtype, t.typrelid::int AS typrelid, p.pronargs::int AS nargs, p.pronargdefaults::int AS ndefaults,
           p.proargnames AS argnames, p.proargmodes::text[] AS argmodes,
           ARRAY(SELECT format_type(x.oid, NULL) FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) WITH ORDINALITY AS x(oid, i) ORDER BY x.i) AS argtypes,
           (SELECT json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod)) ORDER BY a.attnum)
              FROM pg_attribute a WHERE a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped) AS ret_columns
    FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace
    JOIN pg_type t ON t.oid = p.prorettype
    WHERE n.nspname = 'public' AND p.prokind = 'f' AND p.prorettype <> 'trigger'::regtype AND p.prorettype <> 'event_trigger'::regtype`);
  for (const row of fnRows) {
    const modes = row.argmodes ?? row.argtypes.map(() => 'i');
    const names = row.argnames ?? [];
    const params: FunctionParam[] = [];
    const outColumns = new Map<string, Column>();
    row.argtypes.forEach((type, i) => {
      const mode = modes[i] ?? 'i';
      const name = names[i] ?? '';
      if (mode === 'i' || mode === 'b' || mode === 'v') params.push({ name, type, hasDefault: false });
      if (mode === 'o' || mode === 'b' || mode === 't') outColumns.set(name, { type });
    });
    // Defaults belong to the last `ndefaults` input parameters.
    params.forEach((p, i) => (p.hasDefault = i >= params.length - row.ndefaults));
    let returns: RoutineInfo['returns'] = 'scalar';
    let columns = new Map<string, Column>();
    if (row.rettype === 'void') returns = 'void';
    else if (row.typtype === 'c') {
      returns = 'composite';
      columns = new Map((row.ret_columns ?? []).map((c) => [c.name, { type: c.type }]));
    } else if (row.rettype === 'record' && outColumns.size > 0) {
      returns = 'composite';
      columns = outColumns;
    }
    const info: RoutineInfo = { name: row.name, params, returnsSet: row.retset, returns, columns };
    const list = functions.get(row.name);
    if (list) list.push(info);
    else functions.set(row.name, [info]);
  }
  return { relations, functions };
}
