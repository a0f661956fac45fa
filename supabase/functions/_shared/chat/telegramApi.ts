/**
 * The Telegram Bot API as the functions use it: one call, and what its answer means for a message
 * that is to be retried. Never logs or returns the token (it is part of the URL).
 */

export interface TelegramApiOptions {
  token: string;
  /** https://api.telegram.org, or a local fake in tests (TELEGRAM_API_URL). */
  apiBase: string;
  fetch: typeof fetch;
  timeoutMs?: number;
}

/**
 * Telegram's answer. A failure's `scope` says what waits: 'chat' when no message can get through
 * now (Telegram unreachable or failing, 429, the token or the chat wrong, the bot removed), so every
 * message waits; 'message' when Telegram refused this one message alone.
 */
export type TelegramAnswer =
  | { ok: true; result: unknown }
  | { ok: false; scope: 'chat' | 'message'; retryAfter?: number; description: string };

export interface Telegram {
  call(method: string, params: Record<string, unknown>): Promise<TelegramAnswer>;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** A Bot API answer's body as Telegram documents it. */
interface BotAnswer {
  ok?: unknown;
  result?: unknown;
  description?: unknown;
  parameters?: { retry_after?: unknown };
}

/** 400 answers that concern the chat rather than the message (Telegram's own descriptions). */
const CHAT_PROBLEM = /chat not found|not enough rights|CHAT_WRITE_FORBIDDEN|have no rights|upgraded to a supergroup|bot was kicked|PEER_ID_INVALID/i;

export function createTelegram(options: TelegramApiOptions): Telegram {
  const base = options.apiBase.replace(/\/+$/, '');
  return {
    async call(method, params) {
      let res: Response;
      try {
        res = await options.fetch(`${base}/bot${options.token}/${method}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(params),
          signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
        });
      } catch (err) {
        // The error's name only: its message may hold the URL, which holds the token.
        return { ok: false, scope: 'chat', description: `Telegram could not be reached (${err instanceof Error ? err.name : 'error'})` };
      }
      let body: BotAnswer | null;
      try {
        body = (await res.json()) as BotAnswer | null;
      } catch {
        body = null;
      }
      if (res.ok && body?.ok === true) return { ok: true, result: body.result };
      const description = `Telegram answered ${res.status}: ${typeof body?.description === 'string' ? body.description.slice(0, 200) : 'no description'}`;
      if (res.status === 429) {
        const retryAfter = Number(body?.parameters?.retry_after);
        return { ok: false, scope: 'chat', retryAfter: Number.isInteger(retryAfter) && retryAfter >= 0 && retryAfter <= 86_400 ? retryAfter : 30, description };
      }
      if (res.status === 400 && !CHAT_PROBLEM.test(description)) return { ok: false, scope: 'message', description };
      return { ok: false, scope: 'chat', description };
    },
  };
}

/** The office chat's client from the function's environment, or undefined when its secrets are not set. */
export function telegramFromEnv(env: (name: string) => string | undefined, fetchImpl: typeof fetch): { telegram: Telegram; chatId: string } | undefined {
  const chatId = env('TELEGRAM_CHAT_ID')?.trim();
  const telegram = botFromEnv(env, fetchImpl);
  return telegram && chatId ? { telegram, chatId } : undefined;
}

/** The bot alone (answering a tap needs no chat), or undefined without TELEGRAM_BOT_TOKEN. */
export function botFromEnv(env: (name: string) => string | undefined, fetchImpl: typeof fetch): Telegram | undefined {
  const token = env('TELEGRAM_BOT_TOKEN')?.trim();
  if (!token) return undefined;
  return createTelegram({ token, apiBase: env('TELEGRAM_API_URL')?.trim() || 'https://api.telegram.org', fetch: fetchImpl });
}

/** The names of the Telegram secrets that are missing (for a log line that names nothing else). */
export function missingTelegramSecrets(env: (name: string) => string | undefined): string[] {
  return ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_CHAT_ID'].filter((name) => !env(name)?.trim());
}
