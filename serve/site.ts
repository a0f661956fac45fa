/**
 * The local site as `npm start` and `npm run dev` serve it: dist/ through the static server, and,
 * without a Supabase project, the local stand-in for Supabase. The pages are answered as soon as
 * the server listens; the stand-in's database is opened only then (PGlite and its migrations take
 * seconds on a first start), and a request for it waits until it is open.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalBackend } from '../supabase-standin/backend.js';
import { isBackendPath } from '../supabase-standin/backendPaths.js';
import { send } from '../supabase-standin/http.js';
import { hostCheck } from './allowedHosts.js';
import { startServer, type ServerOptions } from './server.js';

export interface SiteServerOptions extends ServerOptions {
  /**
   * Opens the local stand-in once the server listens, told the origins of every name the site is
   * served by (its pages may call the stand-in from any of them) and the server's own address (its
   * scheduled jobs call the edge functions there); omitted when the site uses a Supabase project.
   */
  openBackend?: (site: { allowedOrigins: string[]; url: string }) => Promise<LocalBackend>;
}

export interface RunningSite {
  url: string;
  /** The stand-in, settling once it is open (or could not be opened). */
  backend?: Promise<LocalBackend>;
  /** Stops the server, then closes the stand-in (once it is open). */
  close(): Promise<void>;
}

export async function serveSite({ openBackend, ...serverOptions }: SiteServerOptions): Promise<RunningSite> {
  let open: ((allowedOrigins: string[], url: string) => void) | undefined;
  const backend = openBackend && new Promise<LocalBackend>((resolve, reject) => {
    open = (allowedOrigins, url) => openBackend({ allowedOrigins, url }).then(resolve, reject);
  });
  const server = await startServer({ ...serverOptions, handlers: [...(serverOptions.handlers ?? []), ...(backend ? [whenReady(backend)] : [])] });
  open?.(siteOrigins(server.url, serverOptions), server.url);
  return {
    url: server.url,
    ...(backend && { backend }),
    async close() {
      await server.close();
      await (await backend?.catch(() => undefined))?.close();
    },
  };
}

/** `http://name:port` for each name the server answers (allowedHosts.ts), known once it listens. */
function siteOrigins(url: string, options: ServerOptions): string[] {
  const port = Number(new URL(url).port || 80);
  return hostCheck({ port, host: options.host, allowed: options.allowedHosts }).names.map((name) => `http://${name}`);
}

/**
 * The stand-in's requests while it is still starting (npm start opens the database after the
 * pages are served): each waits for it, so none is refused or lost (a lead posted meanwhile is
 * stored); every other request passes at once.
 */
function whenReady(backend: Promise<LocalBackend>): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
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
