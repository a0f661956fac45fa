// Supabase Edge Function entry (Deno). The request flow is in handler.ts, which Node also runs
// (local stand-in, tests); _shared/denoEntry.ts binds it to Deno and the project's database.
// Deployed with --no-verify-jwt (.github/workflows/supabase.yml): Telegram sends no Supabase key;
// the handler refuses every request without the secret given to setWebhook (TELEGRAM_WEBHOOK_SECRET).
// Secrets: TELEGRAM_WEBHOOK_SECRET, and notify-telegram's TELEGRAM_BOT_TOKEN, TELEGRAM_CHAT_ID, SITE_URL.
// tests/backend/telegram-webhook-deno.test.ts runs this file under Deno against the local stand-in.
import { serveFunction } from '../_shared/denoEntry.ts';
import { createWebhookHandler } from './handler.ts';

serveFunction('telegram-webhook', createWebhookHandler);
