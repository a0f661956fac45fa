/**
 * Which requests are the local Supabase stand-in's. Apart from backend.ts so that the server can
 * route to the stand-in without loading it (PGlite and the rest load only when `npm start` opens
 * the database, after the pages are served).
 */

/** Whether the stand-in answers this path: /rest/v1/, /functions/v1/ and /auth/v1/. */
export function isBackendPath(pathname: string): boolean {
  return pathname.startsWith('/rest/v1/') || pathname.startsWith('/functions/v1/') || pathname.startsWith('/auth/v1/');
}

