// Supabase Edge Function entry (Deno). The request flow is in handler.ts, which Node also runs
// (local stand-in, tests); this file binds it to Deno, the project's database and Telegram.
// Secrets: supabase secrets set TELEGRAM_BOT_TOKEN=... TELEGRAM_CHAT_ID=...
// Supabase injects SUPABASE_URL, the public keys the handler accepts and the secret keys used here.
import { createClient } from '@supabase/supabase-js';
import { namedKeys } from './apiKeys.ts';
import { claimArgs, claimOutcome, type ClaimLead } from './claim.ts';
import { createHandler } from './handler.ts';

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(handler: (req: Request) => Response | Promise<Response>): unknown;
};

const env = (name: string) => Deno.env.get(name);

// claim_lead_notification may be run by the service role only. A new secret key (sb_secret_…)
// keeps working after the legacy JWT keys are turned off, so it is preferred when there is one.
const serviceKey = namedKeys(env('SUPABASE_SECRET_KEYS'))[0] ?? env('SUPABASE_SERVICE_ROLE_KEY');
const supabaseUrl = env('SUPABASE_URL');
if (!supabaseUrl || !serviceKey) throw new Error('SUPABASE_URL and a service key must be set (Supabase injects them)');

const database = createClient(supabaseUrl, serviceKey, {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
});

const claim: ClaimLead = async (body, client) => {
  const { data, error } = await database.rpc('claim_lead_notification', claimArgs(body, client));
  return claimOutcome(data, error);
};

Deno.serve(createHandler({ env, fetch, claim }));
