/**
 * Password hashes of the local Auth stand-in: scrypt (node:crypto) with a random salt per password,
 * compared in constant time. Stored as `scrypt$N$r$p$salt$hash` (base64url), so the cost can be
 * raised later without losing the accounts already there.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const KEY_BYTES = 32;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_BYTES, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** A hash of a random password: compared against when the email is unknown, so both take as long. */
let decoy: Promise<string> | undefined;

/** True if `password` matches `stored`; a missing or malformed hash never matches (after the same work). */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  const valid = parts.length === 6 && parts[0] === 'scrypt';
  const [, n, r, p, salt, hash] = valid ? parts : (await (decoy ??= hashPassword(randomBytes(16).toString('hex')))).split('$');
  const expected = Buffer.from(hash!, 'base64url');
  const key = await scrypt(password, Buffer.from(salt!, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return valid && key.length === expected.length && timingSafeEqual(key, expected);
}
