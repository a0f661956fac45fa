/** A fake Telegram Bot API on 127.0.0.1 that records every sendMessage and answers like Telegram. */
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

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let data = '';
  for await (const chunk of req) data += String(chunk);
  return JSON.parse(data) as Record<string, unknown>;
}

export async function startFakeTelegram() {
  const calls: TelegramCall[] = [];
  /** Set to answer the next calls this way instead of Telegram's usual answer. */
  const state: { reply: { status: number; body: unknown } | undefined } = { reply: undefined };
  const server = createServer(async (req, res) => {
    const body = await readJson(req);
    calls.push({ method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'], body });
    const tooLong = String(body.text ?? '').length > TELEGRAM_LIMIT;
    const answer = state.reply ?? (tooLong
      ? { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: message is too long' } }
      : { status: 200, body: { ok: true, result: { message_id: calls.length } } });
    res.writeHead(answer.status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    state,
    /** Forgets the calls and the forced reply. */
    reset() {
      calls.length = 0;
      state.reply = undefined;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
