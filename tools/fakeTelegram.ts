/**
 * A fake Telegram Bot API on 127.0.0.1 that records every call and answers like Telegram:
 * - sendMessage (a message id per message), editMessageText, answerCallbackQuery, getMe,
 *   getChatMember (the bot is an administrator of the chat unless `state.memberStatus` says
 *   otherwise), setWebhook / getWebhookInfo / deleteWebhook;
 * - Telegram's group limit: past `state.perMinute` (20) messages to one chat in a minute of the
 *   injected clock, 429 with `parameters.retry_after`, as Telegram answers a flood;
 * - `state.down`: 502 Bad Gateway to everything, as while Telegram is unreachable behind its proxy;
 * - `hold()`: the next sendMessage is held unanswered until released; if the caller goes away
 *   meanwhile (the process was stopped), the message was never taken and is not recorded, as when
 *   a request dies before Telegram has it.
 * `delivered()` lists the messages Telegram took, in order: what the office chat shows.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TelegramCall {
  method: string;
  path: string;
  contentType: string | undefined;
  body: Record<string, unknown>;
}

/** A message as the chat shows it (after edits). */
export interface ChatMessage {
  messageId: number;
  chatId: string;
  text: string;
  replyMarkup: unknown;
  /** When Telegram took it, by the fake's clock. */
  at: Date;
  edits: number;
}

/** Telegram's own limit: a text over 4096 UTF-16 units is refused. */
export const TELEGRAM_LIMIT = 4096;

const BOT_ID = 7_000_000_001;

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let data = '';
  for await (const chunk of req) data += String(chunk);
  return data ? (JSON.parse(data) as Record<string, unknown>) : {};
}

interface Held {
  release(): void;
}

export interface FakeTelegramOptions {
  /** The clock of the group limit and of the messages' times. Default: the system's. */
  now?: () => Date;
}

export async function startFakeTelegram(options: FakeTelegramOptions = {}) {
  const now = options.now ?? (() => new Date());
  const calls: TelegramCall[] = [];
  const chat: ChatMessage[] = [];
  const sendTimes: number[] = [];
  let nextMessageId = 1;
  let heldWaiters: Array<(held: Held) => void> = [];
  let holdNext = 0;
  /** Set to answer the next calls this way instead of Telegram's usual answer. */
  const state: {
    reply: { status: number; body: unknown } | undefined;
    memberStatus: string;
    down: boolean;
    perMinute: number;
    /** How many 429s were answered. */
    tooMany: number;
    webhook: { url: string; secret: string | undefined; allowedUpdates: unknown; lastErrorMessage?: string; lastErrorDate?: number } | undefined;
  } = { reply: undefined, memberStatus: 'administrator', down: false, perMinute: 20, tooMany: 0, webhook: undefined };

  function answer(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  /** Telegram's flood control: 429 with the seconds until the oldest message of the minute leaves it. */
  function floodWait(): number | undefined {
    const t = now().getTime();
    while (sendTimes.length > 0 && sendTimes[0]! <= t - 60_000) sendTimes.shift();
    if (sendTimes.length < state.perMinute) return undefined;
    return Math.max(1, Math.ceil((sendTimes[0]! + 60_000 - t) / 1000));
  }

  async function respond(req: IncomingMessage, res: ServerResponse, method: string, body: Record<string, unknown>): Promise<void> {
    if (state.down) return answer(res, 502, { ok: false, error_code: 502, description: 'Bad Gateway' });
    if (state.reply) return answer(res, state.reply.status, state.reply.body);
    if (method === 'getMe') return answer(res, 200, { ok: true, result: { id: BOT_ID, is_bot: true, username: 'bayshine_leads_bot' } });
    if (method === 'getChatMember') return answer(res, 200, { ok: true, result: { status: state.memberStatus, user: { id: BOT_ID, is_bot: true } } });
    if (method === 'setWebhook') {
      state.webhook = { url: String(body.url ?? ''), secret: typeof body.secret_token === 'string' ? body.secret_token : undefined, allowedUpdates: body.allowed_updates };
      return answer(res, 200, { ok: true, result: true, description: 'Webhook was set' });
    }
    if (method === 'deleteWebhook') {
      state.webhook = undefined;
      return answer(res, 200, { ok: true, result: true });
    }
    if (method === 'getWebhookInfo') {
      const w = state.webhook;
      return answer(res, 200, {
        ok: true,
        result: {
          url: w?.url ?? '', has_custom_certificate: false, pending_update_count: 0,
          ...(w?.allowedUpdates !== undefined && { allowed_updates: w.allowedUpdates }),
          ...(w?.lastErrorMessage && { last_error_message: w.lastErrorMessage, last_error_date: w.lastErrorDate }),
        },
      });
    }
    if (method === 'answerCallbackQuery') return answer(res, 200, { ok: true, result: true });
    if (method !== 'sendMessage' && method !== 'editMessageText') return answer(res, 404, { ok: false, error_code: 404, description: 'Not Found' });

    const text = String(body.text ?? '');
    if (text.length > TELEGRAM_LIMIT) return answer(res, 400, { ok: false, error_code: 400, description: 'Bad Request: message is too long' });
    const wait = floodWait();
    if (wait !== undefined) {
      state.tooMany++;
      return answer(res, 429, { ok: false, error_code: 429, description: `Too Many Requests: retry after ${wait}`, parameters: { retry_after: wait } });
    }
    if (method === 'editMessageText') {
      const message = chat.find((m) => m.messageId === Number(body.message_id) && m.chatId === String(body.chat_id));
      if (!message) return answer(res, 400, { ok: false, error_code: 400, description: 'Bad Request: message to edit not found' });
      if (message.text === text && JSON.stringify(message.replyMarkup) === JSON.stringify(body.reply_markup)) {
        return answer(res, 400, { ok: false, error_code: 400, description: 'Bad Request: message is not modified' });
      }
      sendTimes.push(now().getTime());
      message.text = text;
      message.replyMarkup = body.reply_markup;
      message.edits++;
      return answer(res, 200, { ok: true, result: { message_id: message.messageId, text } });
    }
    if (holdNext > 0) {
      holdNext--;
      const gone = await new Promise<boolean>((resolve) => {
        const held = { release: () => resolve(false) };
        res.once('close', () => resolve(!res.writableEnded));
        for (const waiter of heldWaiters) waiter(held);
        heldWaiters = [];
      });
      if (gone) return; // the caller died before Telegram had the message: nothing was sent
    }
    sendTimes.push(now().getTime());
    const message: ChatMessage = { messageId: nextMessageId++, chatId: String(body.chat_id), text, replyMarkup: body.reply_markup, at: now(), edits: 0 };
    chat.push(message);
    return answer(res, 200, { ok: true, result: { message_id: message.messageId, chat: { id: body.chat_id }, text } });
  }

  const server = createServer(async (req, res) => {
    const body = await readJson(req);
    calls.push({ method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'], body });
    const method = (req.url ?? '').split('/').pop() ?? '';
    await respond(req, res, method, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    state,
    /** The texts sent with sendMessage (every try Telegram answered, taken or not). */
    messages: () => calls.filter((c) => c.path.endsWith('/sendMessage')).map((c) => String(c.body.text)),
    /** What the chat shows: the messages Telegram took, in order, with their edits. */
    delivered: () => chat,
    /** Holds the next sendMessage unanswered; resolves with a handle once it arrives. */
    hold(): Promise<Held> {
      holdNext++;
      return new Promise((resolve) => heldWaiters.push(resolve));
    },
    /** Forgets the calls, the chat, the forced reply and the bot's status. */
    reset() {
      calls.length = 0;
      chat.length = 0;
      sendTimes.length = 0;
      state.reply = undefined;
      state.memberStatus = 'administrator';
      state.down = false;
      state.perMinute = 20;
      state.tooMany = 0;
      state.webhook = undefined;
      holdNext = 0;
      heldWaiters = [];
    },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
