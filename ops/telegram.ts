/**
 * The calls of Telegram's Bot API the checks make, from outside, as the edge function's bot: who
 * the bot is, whether it is still in the office chat and may post there, an alert, and the webhook
 * (registering it, reading it back). Never a lead's details: the alert says what broke and where to look.
 */
const TIMEOUT_MS = 10_000;

export interface TelegramSettings {
  token: string;
  chatId: string;
  /** Telegram's address; the tests point it at a fake on 127.0.0.1. */
  apiUrl?: string | undefined;
}

/** The bot alone, for the calls that concern no chat. */
export type BotSettings = Pick<TelegramSettings, 'token' | 'apiUrl'>;

interface Answer<T> { ok: boolean; result?: T; description?: string }

async function call<T>(t: BotSettings, method: string, body: Record<string, unknown>): Promise<T> {
  const base = (t.apiUrl?.trim() || 'https://api.telegram.org').replace(/\/+$/, '');
  let res: Response;
  try {
    res = await fetch(`${base}/bot${t.token}/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new Error(`Telegram did not answer ${method} (${err instanceof Error ? err.message : String(err)})`);
  }
  const answer = (await res.json().catch(() => ({ ok: false }))) as Answer<T>;
  if (!res.ok || !answer.ok || answer.result === undefined) {
    throw new Error(`Telegram refused ${method}: HTTP ${res.status}${answer.description ? `, ${answer.description}` : ''}`);
  }
  return answer.result;
}

/** Chat member statuses that may post in a group; in a channel only an administrator may. */
const POSTING = new Set(['creator', 'administrator', 'member']);

/** Resolves when the bot is in the chat and may send messages there; else throws why not. */
export async function checkBotCanPost(t: TelegramSettings): Promise<void> {
  const bot = await call<{ id: number; username?: string }>(t, 'getMe', {});
  const member = await call<{ status: string; can_send_messages?: boolean; can_post_messages?: boolean }>(t, 'getChatMember', { chat_id: t.chatId, user_id: bot.id });
  const restrictedButAllowed = member.status === 'restricted' && member.can_send_messages === true;
  if (!POSTING.has(member.status) && !restrictedButAllowed) {
    throw new Error(`the bot${bot.username ? ` @${bot.username}` : ''} is "${member.status}" in the office chat, so it cannot post new leads there`);
  }
}

export async function sendAlert(t: TelegramSettings, text: string): Promise<void> {
  await call(t, 'sendMessage', { chat_id: t.chatId, text, disable_web_page_preview: true });
}

/** The updates the telegram-webhook function reads: the buttons' taps and private messages (/link). */
export const WEBHOOK_UPDATES = ['callback_query', 'message'] as const;

/** Tells Telegram to send the bot's updates to `url`, with `secret` in X-Telegram-Bot-Api-Secret-Token. */
export async function setWebhook(t: BotSettings, url: string, secret: string): Promise<void> {
  await call(t, 'setWebhook', { url, secret_token: secret, allowed_updates: WEBHOOK_UPDATES, max_connections: 10 });
}

export interface WebhookInfo {
  url: string;
  pending_update_count: number;
  last_error_date?: number;
  last_error_message?: string;
  allowed_updates?: string[];
}

/** Where Telegram sends the bot's updates now (it never says the secret back). */
export async function getWebhookInfo(t: BotSettings): Promise<WebhookInfo> {
  return call<WebhookInfo>(t, 'getWebhookInfo', {});
}
