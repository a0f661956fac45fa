/**
 * The local stand-in's secrets, as a Supabase project has them: the public anon key (the one the
 * site is built with), a service role key (full access, for `npm run staff` and the edge function)
 * and the secret that signs the users' JWTs. A persistent database keeps its own in
 * `<dataDir>/../local-keys.json` (mode 600), so sessions and scripts survive a restart; an
 * in-memory database gets fresh random ones, so no two test stacks trust each other's tokens.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface LocalKeys {
  /** The public key browsers send (apikey header); requests with it alone run as `anon`. */
  anonKey: string;
  /** The secret key that runs requests as `service_role` (bypasses RLS). Never in a browser. */
  serviceRoleKey: string;
  /** HS256 secret that signs and verifies the users' access tokens. */
  jwtSecret: string;
}

type StoredSecrets = Pick<LocalKeys, 'serviceRoleKey' | 'jwtSecret'>;

/** Where the keys of the database in `dataDir` live: beside it (.data/pglite -> .data/local-keys.json). */
export function localKeysPath(dataDir: string): string {
  return join(dirname(resolve(dataDir)), 'local-keys.json');
}

function randomSecrets(): StoredSecrets {
  return {
    // Prefixed like Supabase's new secret keys, so one is recognisable in a log or a shell history.
    serviceRoleKey: `sb_secret_local_${randomBytes(24).toString('base64url')}`,
    jwtSecret: randomBytes(48).toString('base64url'),
  };
}

function isStoredSecrets(v: unknown): v is StoredSecrets {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.serviceRoleKey === 'string' && o.serviceRoleKey.length >= 32 && typeof o.jwtSecret === 'string' && o.jwtSecret.length >= 32;
}

/**
 * The keys of the database in `dataDir` (created and stored on first use), or random ones for an
 * in-memory database (`dataDir` undefined). `anonKey` is always the one given: the build's key.
 */
export function loadLocalKeys(dataDir: string | undefined, anonKey: string): LocalKeys {
  if (dataDir === undefined) return { anonKey, ...randomSecrets() };
  const file = localKeysPath(dataDir);
  if (existsSync(file)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`${file} is not valid JSON; delete it to make new local keys (signed-in sessions end)`, { cause: err });
    }
    if (!isStoredSecrets(parsed)) throw new Error(`${file} lacks serviceRoleKey/jwtSecret; delete it to make new local keys`);
    chmodSync(file, 0o600); // a copy made with a looser mode is tightened again
    return { anonKey, serviceRoleKey: parsed.serviceRoleKey, jwtSecret: parsed.jwtSecret };
  }
  const secrets = randomSecrets();
  mkdirSync(dirname(file), { recursive: true });
  // 'wx': if another process made the file meanwhile, fail instead of replacing its keys.
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return { anonKey, ...secrets };
}
