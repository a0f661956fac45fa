/**
 * The response headers of /admin, in one place: generator/write/hostFiles.ts writes them into
 * _headers (the local server and Netlify read them there) and the Cloudflare Pages Function
 * functions/admin.ts sets them (Cloudflare joins the values of two matching _headers rules, which
 * would enforce the public policy on /admin too). No Node imports: the Pages Function bundles it.
 *
 * The policy is the public one (generator/write/hostFiles.ts) relaxed only where Decap CMS needs it:
 * - script-src 'unsafe-eval': Decap validates its configuration and entries with ajv, which compiles
 *   schemas to functions; 'wasm-unsafe-eval' for its WebAssembly helpers;
 * - img-src blob: (pictures picked for upload are shown from memory) and GitHub's hosts (avatars,
 *   pictures read from the repository);
 * - connect-src https://api.github.com (the GitHub backend reads and writes through its API) and
 *   blob: (Decap reads back the pictures picked, from memory, for its draft backup);
 * - frame-src 'self' blob:: the live preview is an iframe of the admin page itself.
 * Everything else stays as strict: no other origin, no plugins, no framing of /admin by anyone.
 */
export const ADMIN_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https://avatars.githubusercontent.com https://raw.githubusercontent.com",
  "font-src 'self' data:",
  "connect-src 'self' blob: https://api.github.com",
  "frame-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

export const ADMIN_HEADERS: Record<string, string> = {
  'Content-Security-Policy': ADMIN_CSP,
  'X-Robots-Tag': 'noindex, nofollow',
  'Cache-Control': 'no-store',
};
