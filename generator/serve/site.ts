/**
 * The local site as `npm start` and `npm run dev` serve it: dist/ through the static server, and,
 * without a Supabase project, the local stand-in for Supabase. The pages are answered as soon as
 * the server listens; the stand-in's database is opened only then (PGlite and its migrations take
 * seconds on a first start), and a request for it waits until it is open.
 */
import type { LocalBackend } from './backend.js';
import { whenReady } from './backendPaths.js';
import { startServer, type ServerOptions } from './server.js';

export interface SiteServerOptions extends ServerOptions {
  /** Opens the local stand-in once the server listens; omitted when the site uses a Supabase project. */
  openBackend?: () => Promise<LocalBackend>;
}

export interface RunningSite {
  url: string;
  /** The stand-in, settling once it is open (or could not be opened). */
  backend?: Promise<LocalBackend>;
  /** Stops the server, then closes the stand-in (once it is open). */
  close(): Promise<void>;
}

export async function serveSite({ openBackend, ...serverOptions }: SiteServerOptions): Promise<RunningSite> {
  let open: (() => void) | undefined;
  const backend = openBackend && new Promise<LocalBackend>((resolve, reject) => {
    open = () => openBackend().then(resolve, reject);
  });
  const server = await startServer({ ...serverOptions, handlers: [...(serverOptions.handlers ?? []), ...(backend ? [whenReady(backend)] : [])] });
  open?.();
  return {
    url: server.url,
    ...(backend && { backend }),
    async close() {
      await server.close();
      await (await backend?.catch(() => undefined))?.close();
    },
  };
}
