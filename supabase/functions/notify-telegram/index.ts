// Supabase Edge Function entry (Deno). Excluded from the Node tsconfig; logic lives in handler.ts.
// Secrets: supabase secrets set TELEGRAM_BOT_TOKEN=... TELEGRAM_CHAT_ID=...
import { createHandler } from './handler.ts';

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(handler: (req: Request) => Response | Promise<Response>): unknown;
};

Deno.serve(createHandler({ env: (name) => Deno.env.get(name), fetch }));
