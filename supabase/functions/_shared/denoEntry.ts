/**
 * What every edge function's Deno entry (index.ts) does: read the environment Supabase injects,
 * make the service role's database client, and serve the runtime-neutral handler. On Supabase the
 * runtime chooses the address; a local run (the Deno tests) sets <NAME>_LOCAL_PORT (0: any free
 * port) and reads the address from the line printed once the function listens on 127.0.0.1.
 */
import { createClient } from '@supabase/supabase-js';
import { supabaseRpc, type FunctionDeps } from './chat/database.ts';
import { namedKeys } from '../notify-telegram/apiKeys.ts';

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(handler: (req: Request) => Response | Promise<Response>): unknown;
  serve(
    options: { port: number; hostname: string; onListen(address: { hostname: string; port: number }): void },
    handler: (req: Request) => Response | Promise<Response>,
  ): unknown;
};

export function serveFunction(name: string, createHandler: (deps: FunctionDeps) => (req: Request) => Promise<Response>): void {
  const env = (variable: string) => Deno.env.get(variable);
  // A new secret key (sb_secret_…) keeps working after the legacy JWT keys are turned off, so it is preferred.
  const serviceKey = namedKeys(env('SUPABASE_SECRET_KEYS'))[0] ?? env('SUPABASE_SERVICE_ROLE_KEY');
  const supabaseUrl = env('SUPABASE_URL');
  if (!supabaseUrl || !serviceKey) throw new Error('SUPABASE_URL and a service key must be set (Supabase injects them)');
  const database = createClient(supabaseUrl, serviceKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  const handler = createHandler({ env, fetch, rpc: supabaseRpc(database) });

  const localPort = env(`${name.toUpperCase().replaceAll('-', '_')}_LOCAL_PORT`);
  if (localPort === undefined) {
    Deno.serve(handler);
  } else {
    Deno.serve({
      port: Number(localPort),
      hostname: '127.0.0.1',
      onListen: ({ hostname, port }) => console.log(`${name} listening on http://${hostname}:${port}/`),
    }, handler);
  }
}
