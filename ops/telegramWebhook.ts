/**
 * `npm run telegram -- webhook`: registers the telegram-webhook edge function with Telegram, so that
 * taps on the "Called back" button and private messages to the bot (/link CODE) reach it
 * (docs/going-live.md, "Registering the Telegram webhook"). `npm run telegram -- webhook-info` shows
 * what Telegram has now. Reads SUPABASE_URL, TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET from
 * the environment; never prints the token or the secret it was given.
 */
import { randomBytes } from 'node:crypto';
import { getWebhookInfo, setWebhook, WEBHOOK_UPDATES, type BotSettings } from './telegram.js';

const USAGE = `Usage: npm run telegram -- <command>
  webhook        tell Telegram to send the bot's updates to <SUPABASE_URL>/functions/v1/telegram-webhook
  webhook-info   what Telegram has registered now
Needs SUPABASE_URL, TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET (docs/going-live.md).`;

/** Telegram's rule for secret_token: 1-256 characters, letters, digits, _ and -. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;
/** Shorter secrets are allowed by Telegram but guessable; ask for at least this much. */
const MIN_SECRET_LENGTH = 32;

class TelegramCommandError extends Error {}

/** The function's address on the project: Telegram calls only https. */
/** Where the project serves the webhook function. */
export const WEBHOOK_PATH = '/functions/v1/telegram-webhook';

export function webhookUrl(supabaseUrl: string): string {
  let url: URL;
  try {
    url = new URL(supabaseUrl.trim());
  } catch {
    throw new TelegramCommandError(`SUPABASE_URL "${supabaseUrl}" is not an address; it looks like https://<project-ref>.supabase.co.`);
  }
  if (url.protocol !== 'https:') throw new TelegramCommandError('SUPABASE_URL must start with https:// (Telegram sends updates only to https addresses).');
  return `${url.origin}${WEBHOOK_PATH}`;
}

function bot(env: Record<string, string | undefined>): BotSettings {
  const token = env.TELEGRAM_BOT_TOKEN?.trim();
  if (!token) throw new TelegramCommandError('Set TELEGRAM_BOT_TOKEN to the bot token from @BotFather (docs/going-live.md, step 3).');
  return { token, apiUrl: env.TELEGRAM_API_URL };
}

async function register(env: Record<string, string | undefined>, out: (line: string) => void): Promise<void> {
  const supabaseUrl = env.SUPABASE_URL?.trim();
  if (!supabaseUrl) throw new TelegramCommandError('Set SUPABASE_URL to the project\'s address, https://<project-ref>.supabase.co (Supabase → Project Settings → API).');
  const url = webhookUrl(supabaseUrl);
  const t = bot(env);
  const secret = env.TELEGRAM_WEBHOOK_SECRET?.trim();
  if (!secret) {
    throw new TelegramCommandError([
      'Set TELEGRAM_WEBHOOK_SECRET: the secret Telegram sends with every update, so the function can refuse everyone else.',
      `A new one, made just now: ${randomBytes(32).toString('hex')}`,
      'Save it as the GitHub secret TELEGRAM_WEBHOOK_SECRET, run the Supabase workflow (it gives it to the function), then run this command again with it set.',
    ].join('\n'));
  }
  if (!SECRET_PATTERN.test(secret) || secret.length < MIN_SECRET_LENGTH) {
    throw new TelegramCommandError(`TELEGRAM_WEBHOOK_SECRET must be ${MIN_SECRET_LENGTH} to 256 letters, digits, _ or - (for example: openssl rand -hex 32).`);
  }
  await setWebhook(t, url, secret);
  const info = await getWebhookInfo(t);
  if (info.url !== url) throw new TelegramCommandError(`Telegram accepted the webhook but reports ${info.url || 'none'}: run the command again.`);
  out(`Telegram now sends the bot's ${WEBHOOK_UPDATES.join(' and ')} updates to ${url}, with the secret.`);
  out('Check it: tap "Called back" under a lead in the office chat; until your Telegram is linked you get "Not allowed".');
}

async function show(env: Record<string, string | undefined>, out: (line: string) => void): Promise<void> {
  const info = await getWebhookInfo(bot(env));
  if (!info.url) {
    out('No webhook is registered: taps on the buttons go nowhere. Run npm run telegram -- webhook.');
    return;
  }
  out(`Webhook: ${info.url}`);
  out(`Updates: ${(info.allowed_updates ?? ['all']).join(', ')}; waiting at Telegram: ${info.pending_update_count}`);
  if (info.last_error_message) {
    const when = info.last_error_date ? ` (${new Date(info.last_error_date * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC)` : '';
    out(`Last error${when}: ${info.last_error_message}`);
  }
}

export async function telegramCommand(args: string[], env: Record<string, string | undefined>, out: (line: string) => void, err: (line: string) => void = out): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === 'help' || command === '--help') {
    (command === undefined ? err : out)(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (!['webhook', 'webhook-info'].includes(command) || rest.length > 0) {
    err(`Unknown telegram command "${args.join(' ')}".\n${USAGE}`);
    return 2;
  }
  try {
    if (command === 'webhook') await register(env, out);
    else await show(env, out);
    return 0;
  } catch (e) {
    // ops/telegram.ts's errors name the method and Telegram's description, never the token.
    err(e instanceof Error ? e.message : String(e));
    return 1;
  }
}
