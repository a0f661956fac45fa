/**
 * JSON request bodies read strictly, for REST and Auth alike: the stand-in must refuse what
 * Supabase's servers refuse rather than store something else. A body is refused (BadJsonError)
 * when it is not UTF-8 (Node would turn the bytes into U+FFFD), when it is nested deeper than
 * MAX_JSON_DEPTH, when it is not JSON, or when a string holds a lone UTF-16 surrogate such as
 * "\ud800" (no character; Postgres's JSON parser refuses it too). NUL (U+0000) is valid JSON but
 * no Postgres text can hold it: containsNul finds it, and each API answers it in its own terms.
 */

/**
 * Deepest nesting of arrays and objects a body may have, the body itself being level 1. PostgREST
 * sets no bound of its own (Postgres stops at its stack limit); the site's deepest body is an
 * object holding a small jsonb value, a few levels. 100 keeps every recursive step after parsing
 * (JSON.stringify, the walks below, Postgres's JSON parser) far from a stack overflow.
 */
export const MAX_JSON_DEPTH = 100;

export class BadJsonError extends Error {}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of `raw`, refused if any byte sequence is not UTF-8 (an encoded surrogate included). */
export function decodeUtf8(raw: Uint8Array): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw new BadJsonError('the body is not valid UTF-8');
  }
}

/** True if arrays and objects in `text` nest deeper than `max` (brackets inside strings ignored). */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') {
      if (++depth > max) return true;
    } else if (ch === ']' || ch === '}') depth--;
  }
  return false;
}

/** Calls `visit` on every key and string of `value` (shallow enough to recurse: parsed by parseJsonText). */
function someString(value: unknown, visit: (s: string) => boolean): boolean {
  if (typeof value === 'string') return visit(value);
  if (Array.isArray(value)) return value.some((item) => someString(item, visit));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([key, item]) => visit(key) || someString(item, visit));
  }
  return false;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The JSON value of `text`, or BadJsonError: nested too deep, not JSON, or a lone surrogate in a string. */
export function parseJsonText(text: string): unknown {
  // Before JSON.parse: neither it nor anything after it recurses past this bound.
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new BadJsonError(`the body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new BadJsonError(err instanceof Error ? err.message : 'invalid JSON');
  }
  if (someString(value, (s) => LONE_SURROGATE.test(s))) throw new BadJsonError('a string holds a lone UTF-16 surrogate');
  return value;
}

/** True if a key or a string anywhere in `value` holds U+0000. */
export function containsNul(value: unknown): boolean {
  return someString(value, (s) => s.includes('\u0000'));
}
