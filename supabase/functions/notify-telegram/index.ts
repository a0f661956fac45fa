// Supabase Edge Function entry (Deno). The request flow is in handler.ts, which Node also runs
// (local stand-in, tests); this file binds it to Deno, the project's database and Telegram.
// Secrets: supabase secrets set TELEGRAM_BOT_TOKEN=... TELEGRAM_CHAT_ID=... SITE_URL=https://www.example.com
// (SITE_URL: the message links to the lead in the staff inbox, SITE_URL/leads#lead/<kind>/<id>).
// Supabase injects SUPABASE_URL, the public keys the handler accepts and the secret keys used here.
// tests/backend/notify-telegram-deno.test.ts runs this file under Deno against the local stand-in.
import { createClient } from '@supabase/supabase-js';
import { namedKeys } from './apiKeys.ts';
import { supabaseRpc } from '../_shared/chat/database.ts';
import { createHandler } from './handler.ts';

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(handler: (req: Request) => Response | Promise<Response>): unknown;
  serve(
    options: { port: number; hostname: string; onListen(address: { hostname: string; port: number }): void },
    handler: (req: Request) => Response | Promise<Response>,
  ): unknown;
};

const env = (name: string) => Deno.env.get(name);

// The claim and the outbox's functions may be run by the service role only. A new secret key
// (sb_secret_…) keeps working after the legacy JWT keys are turned off, so it is preferred.
const serviceKey = namedKeys(env('SUPABASE_SECRET_KEYS'))[0] ?? env('SUPABASE_SERVICE_ROLE_KEY');
const supabaseUrl = env('SUPABASE_URL');
if (!supabaseUrl || !serviceKey) throw new Error('SUPABASE_URL and a service key must be set (Supabase injects them)');

const database = createClient(supabaseUrl, serviceKey, {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
});

const handler = createHandler({ env, fetch, rpc: supabaseRpc(database) });

// On Supabase the runtime chooses the address. A local run (the Deno test) names a port on
// 127.0.0.1 (0: any free one) and reads the address from the line printed once it listens.
const localPort = env('NOTIFY_TELEGRAM_LOCAL_PORT');
if (localPort === undefined) {
  Deno.serve(handler);
} else {
  Deno.serve({
    port: Number(localPort),
    hostname: '127.0.0.1',
    onListen: ({ hostname, port }) => console.log(`notify-telegram listening on http://${hostname}:${port}/`),
  }, handler);
}
