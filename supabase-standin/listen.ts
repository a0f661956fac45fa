/**
 * The stand-in alone on a free port of 127.0.0.1, for a command that needs it while `npm start`
 * is not running (`npm run staff` talks to it through supabase-js, as to a Supabase project). It
 * answers only requests whose Host names that address (a web page reaching the port through a
 * rebound DNS name gets 421), and 404 to anything the stand-in does not serve.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalBackend } from './backend.js';
import { send } from './http.js';

export async function listenLocally(backend: LocalBackend): Promise<{ url: string; close(): Promise<void> }> {
  let host = '';
  const server = createServer((req, res) => {
    if (req.headers.host !== host) return send(res, 421, { message: 'Misdirected request' });
    backend.handle(req, res).then(
      (handled) => { if (!handled) send(res, 404, { message: 'Not found' }); },
      () => { if (!res.headersSent) send(res, 500, { message: 'Internal error' }); else res.destroy(); },
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `http://${host}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
