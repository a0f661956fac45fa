/**
 * Which requests are the local Supabase stand-in's, and how they wait while it starts. Apart from
 * backend.ts so that the server can route to the stand-in without loading it (PGlite and the rest
 * load only when `npm start` opens the database, after the pages are served).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalBackend } from './backend.js';
import { send } from './http.js';

/** Whether the stand-in answers this path: /rest/v1/, /functions/v1/ and /auth/v1/. */
export function isBackendPath(pathname: string): boolean {
  return pathname.startsWith('/rest/v1/') || pathname.startsWith('/functions/v1/') || pathname.startsWith('/auth/v1/');
}

/**
 * The stand-in's requests while it is still starting (npm start opens the database after the
 * pages are served): each waits for it, so none is refused or lost (a lead posted meanwhile is
 * stored); every other request passes at once.
 */
export function whenReady(backend: Promise<LocalBackend>): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  return async (req, res) => {
    if (!isBackendPath(new URL(req.url ?? '/', 'http://localhost').pathname)) return false;
    const ready = await backend.catch(() => undefined);
    if (!ready) {
      send(res, 503, { code: 'PGRST000', message: 'The local backend did not start; see the server output', details: null, hint: null });
      return true;
    }
    return ready.handle(req, res);
  };
}
