/**
 * The local site as `npm start` and `npm run dev` serve it: dist/ through the static server, and,
 * without a Supabase project, the local stand-in for Supabase. The pages are answered as soon as
 * the server listens. The stand-in's database (PGlite and its migrations: seconds on a first
 * start, during which this process answers nothing else, as WebAssembly runs on its one thread)
 * is opened once the server listens (`npm start`), or when the first request for it arrives
 * (`npm run dev`: a save made meanwhile would wait for it); a request for it waits until it is open.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalBackend } from '../supabase-standin/backend.js';
import { isBackendPath } from '../supabase-standin/backendPaths.js';
import { send } from '../supabase-standin/http.js';
import { hostCheck } from './allowedHosts.js';
import { startServer, type ServerOptions } from './server.js';

export interface SiteServerOptions extends ServerOptions {
  /**
   * Opens the local stand-in, told the origins of every name the site is served by (its pages may
   * call the stand-in from any of them) and the server's own address (its scheduled jobs call the
   * edge functions there); omitted when the site uses a Supabase project.
   */
  openBackend?: (site: { allowedOrigins: string[]; url: string }) => Promise<LocalBackend>;
  /**
   * When openBackend is called: `listening` (the default, `npm start`) as soon as the server
   * listens; `requested` (`npm run dev`) when the first request for the stand-in arrives, so that
   * the editing session is not held up by a database it may never use. In that mode an open that
   * failed (the folder held by another process, say) is answered 503 and tried again by the next
   * request.
   */
  openBackendWhen?: 'listening' | 'requested';
}

export interface RunningSite {
  url: string;
  /**
   * The stand-in, settling once it is open (or could not be opened); with `openBackendWhen:
   * 'requested'`, the open under way or done (undefined before the first request for it).
   */
  backend?: Promise<LocalBackend>;
  /** Stops the server, then closes the stand-in (once it is open; one never opened is left so). */
  close(): Promise<void>;
}

export async function serveSite({ openBackend, openBackendWhen = 'listening', ...serverOptions }: SiteServerOptions): Promise<RunningSite> {
  let url: string | undefined;
  let opening: Promise<LocalBackend> | undefined;
  const open = (): Promise<LocalBackend> => {
    if (!opening) {
      const attempt = openBackend!({ allowedOrigins: siteOrigins(url!, serverOptions), url: url! });
      opening = attempt;
      // Opened on request: a failed open is not final, the next request tries again.
      if (openBackendWhen === 'requested') attempt.catch(() => { if (opening === attempt) opening = undefined; });
    }
    return opening;
  };
  const server = await startServer({ ...serverOptions, handlers: [...(serverOptions.handlers ?? []), ...(openBackend ? [whenReady(open)] : [])] });
  // Known before any request is handled (that takes a turn of the event loop; this does not).
  url = server.url;
  if (openBackend && openBackendWhen === 'listening') void open();
  return {
    url: server.url,
    get backend() {
      return opening;
    },
    async close() {
      await server.close();
      await (await opening?.catch(() => undefined))?.close();
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
 * pages are served; npm run dev at the first of them): each waits for it, so none is refused or
 * lost (a lead posted meanwhile is stored); every other request passes at once.
 */
function whenReady(backend: () => Promise<LocalBackend>): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  return async (req, res) => {
    if (!isBackendPath(new URL(req.url ?? '/', 'http://localhost').pathname)) return false;
    const ready = await backend().catch(() => undefined);
    if (!ready) {
      send(res, 503, { code: 'PGRST000', message: 'The local backend did not start; see the server output', details: null, hint: null });
      return true;
    }
    return ready.handle(req, res);
  };
}
