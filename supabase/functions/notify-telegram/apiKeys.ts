/**
 * Which requests carry one of the project's public keys. Supabase's gateway check (verify_jwt)
 * knows only JWTs and so cannot accept the new sb_publishable_ keys; it is off for this function
 * (.github/workflows/supabase.yml) and the function checks the key itself, with this code, in
 * production and in the local stand-in alike. The stand-in's REST gateway uses it too.
 */

type Env = (name: string) => string | undefined;

/**
 * Variables naming the keys a browser may hold: the legacy anon key (a JWT) that Supabase
 * injects into every function, and the new publishable keys, a JSON object of named keys
 * (or a single key where a self-hosted setup exports one).
 */
export const PUBLIC_KEY_VARIABLES = ['SUPABASE_ANON_KEY', 'SUPABASE_PUBLISHABLE_KEY', 'SUPABASE_PUBLISHABLE_KEYS'] as const;

/** The values of a JSON object of named keys, as Supabase injects SUPABASE_*_KEYS; [] if unusable. */
export function namedKeys(json: string | undefined): string[] {
  if (!json) return [];
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return [];
    return Object.values(parsed).filter((key): key is string => typeof key === 'string');
  } catch {
    return [];
  }
}

/** The project's public keys, as configured in the environment. */
export function publicKeys(env: Env): string[] {
  return [env('SUPABASE_ANON_KEY'), env('SUPABASE_PUBLISHABLE_KEY'), ...namedKeys(env('SUPABASE_PUBLISHABLE_KEYS'))]
    .map((key) => key?.trim() ?? '')
    .filter((key) => key !== '');
}

/**
 * The keys a request presents: its `apikey` header and its `Authorization: Bearer` token, which
 * supabase-js both sets to the client's key (an Authorization of another scheme counts as a
 * wrong key).
 */
export function presentedKeys(get: (name: string) => string | null | undefined): string[] {
  const keys: string[] = [];
  const apikey = get('apikey');
  if (apikey != null) keys.push(apikey.trim());
  const authorization = get('authorization');
  if (authorization != null) keys.push(/^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)?.[1] ?? '');
  return keys;
}

async function digest(value: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value)));
}

/** Compares fixed-length digests without stopping at the first difference. */
function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ (b[i] ?? 0);
  return difference === 0;
}

/**
 * True when at least one key is presented and every presented key is one of `accepted`.
 * Keys are compared as SHA-256 digests, every one against every accepted key, so the time taken
 * tells nothing about how much of a guess was right.
 */
export async function allKeysAccepted(presented: readonly string[], accepted: readonly string[]): Promise<boolean> {
  if (presented.length === 0) return false;
  const acceptedDigests = await Promise.all(accepted.map(digest));
  let ok = acceptedDigests.length > 0;
  for (const key of presented) {
    const keyDigest = await digest(key);
    let match = false;
    for (const candidate of acceptedDigests) match = sameDigest(keyDigest, candidate) || match;
    ok = match && ok;
  }
  return ok;
}
