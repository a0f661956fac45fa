/**
 * A fake Telegram Bot API on 127.0.0.1 that records every call and answers like Telegram: sendMessage,
 * and getMe / getChatMember for the checks that the bot may still post (the bot is an administrator
 * of the chat unless `state.memberStatus` says otherwise); setWebhook / getWebhookInfo (the webhook
 * it was given, in `state.webhook`), answerCallbackQuery and editMessageText for the buttons.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TelegramCall {
  method: string;
  path: string;
  contentType: string | undefined;
  body: Record<string, unknown>;
}

/** Telegram's own limit: a text over 4096 UTF-16 units is refused. */
export const TELEGRAM_LIMIT = 4096;

const BOT_ID = 7_000_000_001;

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let data = '';
  for await (const chunk of req) data += String(chunk);
  return data ? (JSON.parse(data) as Record<string, unknown>) : {};
}

export async function startFakeTelegram() {
  const calls: TelegramCall[] = [];
  /** Set to answer the next calls this way instead of Telegram's usual answer. */
  const state: { reply: { status: number; body: unknown } | undefined; memberStatus: string; webhook: Record<string, unknown> | undefined } =
    { reply: undefined, memberStatus: 'administrator', webhook: undefined };
  const server = createServer(async (req, res) => {
    const body = await readJson(req);
    calls.push({ method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'], body });
    const tooLong = String(body.text ?? '').length > TELEGRAM_LIMIT;
    const method = (req.url ?? '').split('/').pop();
    const result = method === 'getMe' ? { id: BOT_ID, is_bot: true, username: 'bayshine_leads_bot' }
      : method === 'getChatMember' ? { status: state.memberStatus, user: { id: BOT_ID, is_bot: true } }
      : method === 'setWebhook' ? (state.webhook = body, true)
      // Telegram never tells the secret_token back; it says which updates it sends.
      : method === 'getWebhookInfo' ? { url: state.webhook?.url ?? '', has_custom_certificate: false, pending_update_count: 0, ...(state.webhook && { allowed_updates: state.webhook.allowed_updates }) }
      : method === 'answerCallbackQuery' ? true
      : method === 'editMessageText' ? { message_id: body.message_id, chat: { id: body.chat_id }, text: body.text }
      : { message_id: calls.length };
    const answer = state.reply ?? (tooLong
      ? { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: message is too long' } }
      : { status: 200, body: { ok: true, result } });
    res.writeHead(answer.status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    state,
    /** The texts sent with sendMessage. */
    messages: () => calls.filter((c) => c.path.endsWith('/sendMessage')).map((c) => String(c.body.text)),
    /** The bodies of the calls of one Bot API method, e.g. 'answerCallbackQuery'. */
    callsOf: (name: string) => calls.filter((c) => c.path.endsWith(`/${name}`)).map((c) => c.body),
    /** Forgets the calls, the forced reply, the bot's status and the webhook. */
    reset() {
      calls.length = 0;
      state.reply = undefined;
      state.memberStatus = 'administrator';
      state.webhook = undefined;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
