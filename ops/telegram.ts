/**
 * The calls of Telegram's Bot API the checks make, from outside, as the edge function's bot:
 * who the bot is, whether it is still in the office chat and may post there, where its webhook
 * points, and an alert. Never a lead's details: the alert says what broke and where to look.
 */
const TIMEOUT_MS = 10_000;

export interface TelegramSettings {
  token: string;
  chatId: string;
  /** Telegram's address; the tests point it at a fake on 127.0.0.1. */
  apiUrl?: string | undefined;
}

interface Answer<T> { ok: boolean; result?: T; description?: string }

async function call<T>(t: Pick<TelegramSettings, 'token' | 'apiUrl'>, method: string, body: Record<string, unknown>): Promise<T> {
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

/** What Telegram knows of the bot's webhook (getWebhookInfo): where it sends updates, and its last failure. */
export interface WebhookInfo {
  url: string;
  pending_update_count?: number;
  last_error_date?: number;
  last_error_message?: string;
}

export async function webhookInfo(t: Pick<TelegramSettings, 'token' | 'apiUrl'>): Promise<WebhookInfo> {
  return call<WebhookInfo>(t, 'getWebhookInfo', {});
}
