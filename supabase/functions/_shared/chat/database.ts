/**
 * How the edge functions reach the database: one call shape (`Rpc`, a function of schema public
 * called with the service role) that the Deno entries make over supabase-js and the local stand-in
 * makes on PGlite, and what its failures mean.
 */

/** Calls public.<fn>(named args) with the service role; resolves its result. */
export type Rpc = (fn: string, args: Record<string, unknown>) => Promise<unknown>;

/** What an edge function gets, on Supabase (_shared/denoEntry.ts) and in the local stand-in. */
export interface FunctionDeps {
  /** The function's environment (its secrets and what Supabase injects). */
  env: (name: string) => string | undefined;
  fetch: typeof fetch;
  /** The database's functions, called with the service role. */
  rpc: Rpc;
  /** The clock of every decision about sending and codes; tests inject it. */
  now?: (() => Date) | undefined;
  log?: (msg: string) => void;
}

/** An error as supabase-js (PostgREST) or PGlite reports it. */
export interface DatabaseErrorLike {
  code?: unknown;
  message?: unknown;
}

/**
 * The database could not be reached or cannot serve now: the caller answers 503 (try again later),
 * not 500. Its message names the cause only, never a value of the request.
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/** The database refused the call; `code` is its SQLSTATE (or PostgREST's code). */
export class DatabaseCallError extends Error {
  override name = 'DatabaseCallError';
  constructor(message: string, readonly code: string) {
    super(message);
  }
}

/**
 * Error codes that say the database is out of reach rather than that the call was wrong:
 * PostgREST's connection errors (PGRST000 cannot connect, PGRST001 connection error, PGRST002
 * schema cache not loaded, PGRST003 no connection free in time) and Postgres' SQLSTATE classes
 * 08 (connection exception), 57P01-57P03 (shutting down, cannot connect now) and 53300 (too many
 * connections).
 */
const UNAVAILABLE_CODE = /^(PGRST00[0-3]|08[0-9A-Z]{3}|57P0[1-3]|53300)$/;

/**
 * HTTP statuses of the database's gateway that mean it is unavailable; 0 is supabase-js's status
 * when the request got no answer at all (refused, DNS, reset, timeout).
 */
const UNAVAILABLE_STATUSES = new Set([0, 502, 503, 504]);

/**
 * SQLSTATE class 22, data exception: Postgres quotes the argument it refused in the message
 * (`value "100000000000000000000" is out of range for type bigint`, `invalid input syntax for
 * type bigint: "1.5"`), which may be a visitor's or a Telegram user's value.
 */
const DATA_EXCEPTION_CODE = /^22[0-9A-Z]{3}$/;

/**
 * The error to throw for a failed call of `fn`: DatabaseUnavailableError when the database was
 * out of reach (`status` is the HTTP status supabase-js reports; undefined in-process), else
 * DatabaseCallError. Its message names no value of the call (a data exception's message, which
 * quotes one, is replaced by what it means), so it may be logged.
 */
export function databaseError(fn: string, error: DatabaseErrorLike, status?: number): Error {
  const code = typeof error.code === 'string' ? error.code : '';
  const message = DATA_EXCEPTION_CODE.test(code) ? 'an argument of the call was refused' : String(error.message ?? '').slice(0, 300);
  if (UNAVAILABLE_CODE.test(code) || (status !== undefined && UNAVAILABLE_STATUSES.has(status))) {
    const cause = status === 0 ? `no answer: ${message}` : `${status === undefined ? '' : `HTTP ${status}, `}${code || 'no code'}: ${message}`;
    return new DatabaseUnavailableError(`the database could not be reached for ${fn} (${cause})`);
  }
  return new DatabaseCallError(`${fn} failed (${code || 'no code'}): ${message}`, code);
}

/** An Rpc over a supabase-js client (the Deno entries). */
export function supabaseRpc(client: { rpc(fn: string, args: Record<string, unknown>): PromiseLike<{ data: unknown; error: DatabaseErrorLike | null; status: number }> }): Rpc {
  return async (fn, args) => {
    const { data, error, status } = await client.rpc(fn, args);
    if (error) throw databaseError(fn, error, status);
    return data;
  };
}
