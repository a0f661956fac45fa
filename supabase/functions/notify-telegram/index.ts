// Supabase Edge Function entry (Deno). The request flow is in handler.ts, which Node also runs
// (local stand-in, tests); _shared/denoEntry.ts binds it to Deno, the project's database and Telegram.
// Secrets: supabase secrets set TELEGRAM_BOT_TOKEN=... TELEGRAM_CHAT_ID=... SITE_URL=https://www.example.com
// (SITE_URL: the message links to the lead in the staff inbox, SITE_URL/leads#lead/<kind>/<id>).
// Supabase injects SUPABASE_URL, the public keys the handler accepts and the secret keys used here.
// tests/backend/notify-telegram-deno.test.ts runs this file under Deno against the local stand-in.
import { serveFunction } from '../_shared/denoEntry.ts';
import { createHandler } from './handler.ts';

serveFunction('notify-telegram', createHandler);
