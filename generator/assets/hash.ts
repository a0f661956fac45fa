import { createHash } from 'node:crypto';

/** Short content hash for cache-busting file names. */
export function contentHash(data: string | Uint8Array, length = 10): string {
  return createHash('sha256').update(data).digest('base64url').slice(0, length).replace(/[-_]/g, 'x');
}
