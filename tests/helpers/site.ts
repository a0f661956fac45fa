/** A served copy of the built site, with the embedded backend (in-memory database) in front. */
import { inject } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../generator/serve/backend.js';
import { startServer, type RequestHandler, type RunningServer } from '../../generator/serve/server.js';

export interface TestSite {
  url: string;
  dist: string;
  backend: LocalBackend;
  server: RunningServer;
  close(): Promise<void>;
}

/**
 * Forgets every submission the database's per-client limits have counted. Tests submit the forms
 * from one address (127.0.0.1), so a test that submits often calls this first (e.g. in beforeEach)
 * to start as a new visitor.
 */
export async function resetRateLimits(backend: Pick<LocalBackend, 'db'>): Promise<void> {
  await backend.db.exec('DELETE FROM private.rate_events');
}

export async function startTestSite(opts: { handlers?: RequestHandler[]; env?: Record<string, string> } = {}): Promise<TestSite> {
  const dist = inject('siteDist');
  const backend = await createLocalBackend({ dataDir: undefined, env: opts.env ?? {}, log: () => {} });
  const server = await startServer({
    distDir: dist,
    handlers: [...(opts.handlers ?? []), (req, res) => backend.handle(req, res)],
  });
  return {
    url: server.url, dist, backend, server,
    close: async () => {
      await server.close();
      await backend.close();
    },
  };
}
