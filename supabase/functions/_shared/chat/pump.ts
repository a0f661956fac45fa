/**
 * Sends what the outbox holds (migration 20261126000000): takes the chat, then the due messages one
 * at a time in order of arrival, records how each went, and lets the chat go when nothing more is
 * due. Every caller runs the same pump: the browser's call right after a lead is stored, the
 * scheduled run every minute, the webhook after a tap. One sender at a time (the database's lease),
 * so the order and Telegram's budget hold whoever calls.
 *
 * Exactly once: a message is marked sent in the same breath as Telegram's answer. If the process
 * dies between Telegram taking the message and that mark, or Telegram's answer is lost on the way,
 * the lease runs out and the message is sent again: the office may then see it twice, but never
 * not at all (docs/inbox.md, "When a message comes twice").
 */
import { COMPOSERS, type ChatItem, type ComposeContext } from './compose.ts';
import type { FunctionDeps, Rpc } from './database.ts';
import { telegramFromEnv, type Telegram } from './telegramApi.ts';

export interface PumpDeps {
  rpc: Rpc;
  /** The office chat, or undefined when the Telegram secrets are not set (then nothing is sent). */
  chat: { telegram: Telegram; chatId: string } | undefined;
  now: () => Date;
  siteUrl: string | undefined;
  log: (line: string) => void;
}

/** At most this many messages per call (the budget allows 18 a minute anyway). */
const MAX_MESSAGES = 20;
/** Stop taking new messages after this long (ms, by deps.now): well within a function's time limit. */
const DEADLINE_MS = 25_000;

export interface PumpResult {
  sent: number;
  /** Why messages may still wait: another sender has the chat, Telegram asked to wait, the budget, no chat set up. */
  waiting?: 'busy' | 'paused' | 'budget' | 'not configured' | undefined;
}

type NextAnswer = ChatItem | { wait: 'paused' | 'budget'; until: string } | { lost: true } | null;

/** 400s of an edit that mean there is nothing (more) to do: the text is already so, or the message is gone. */
const EDIT_DONE = /message is not modified|message to edit not found|message can't be edited/i;

/** The pump of a function: the office chat and the site's address from its environment. */
export function pumpFromEnv(deps: FunctionDeps & { now: () => Date; log: (line: string) => void }): Promise<PumpResult> {
  return pumpChat({ rpc: deps.rpc, chat: telegramFromEnv(deps.env, deps.fetch), now: deps.now, siteUrl: deps.env('SITE_URL')?.trim() || undefined, log: deps.log });
}

export async function pumpChat(deps: PumpDeps): Promise<PumpResult> {
  if (!deps.chat) return { sent: 0, waiting: 'not configured' };
  const { telegram, chatId } = deps.chat;
  const sender = crypto.randomUUID();
  const at = () => deps.now().toISOString();
  const deadline = deps.now().getTime() + DEADLINE_MS;

  const took = (await deps.rpc('chat_take', { p_sender: sender, p_now: at() })) as { ok: boolean; reason?: 'busy' | 'paused' };
  if (!took.ok) return { sent: 0, waiting: took.reason };

  let holding = true;
  let sent = 0;
  let waiting: PumpResult['waiting'];
  try {
    while (sent < MAX_MESSAGES && deps.now().getTime() < deadline) {
      const next = (await deps.rpc('chat_next', { p_sender: sender, p_now: at() })) as NextAnswer;
      if (next === null) {
        // Let go, unless a message came in meanwhile (then the database keeps the chat for us).
        if (await deps.rpc('chat_release', { p_sender: sender, p_now: at() })) {
          holding = false;
          break;
        }
        continue;
      }
      if ('lost' in next) {
        holding = false;
        break;
      }
      if ('wait' in next) {
        waiting = next.wait;
        break;
      }
      const outcome = await deliver(next);
      if (outcome.ok) {
        await deps.rpc('chat_sent', { p_sender: sender, p_item: next.item, p_message_id: outcome.messageId ?? null, p_now: at() });
        sent++;
        continue;
      }
      deps.log(`[chat] message ${next.item} (${next.what}, try ${next.attempts}) not delivered: ${outcome.description}`);
      await deps.rpc('chat_failed', {
        p_sender: sender, p_item: next.item, p_scope: outcome.scope, p_retry_after: outcome.retryAfter ?? null,
        p_error: outcome.description, p_now: at(),
      });
      if (outcome.scope === 'chat') {
        // chat_failed let the chat go: every message waits for Telegram now.
        holding = false;
        waiting = 'paused';
        break;
      }
    }
  } finally {
    if (holding) {
      await deps.rpc('chat_release', { p_sender: sender, p_now: at() }).catch((err: unknown) => {
        deps.log(`[chat] could not let the chat go (the lease ends it): ${err instanceof Error ? err.message : 'error'}`);
      });
    }
  }
  return { sent, ...(waiting && { waiting }) };

  /** Makes the item's calls; the first sendMessage's id is the message's. */
  async function deliver(item: ChatItem): Promise<{ ok: true; messageId?: number } | { ok: false; scope: 'chat' | 'message'; retryAfter?: number; description: string }> {
    const compose = COMPOSERS[item.what];
    if (!compose || (item.what !== 'summary' && !item.lead)) return { ok: false, scope: 'message', description: `no text for a ${item.what} message` };
    const ctx: ComposeContext = { siteUrl: deps.siteUrl, now: deps.now() };
    let messageId: number | undefined;
    for (const call of compose(item, ctx)) {
      const answer = await telegram.call(call.method, { chat_id: chatId, ...call.params });
      if (answer.ok) {
        const id = (answer.result as { message_id?: unknown } | null)?.message_id;
        if (messageId === undefined && call.method === 'sendMessage' && typeof id === 'number') messageId = id;
        continue;
      }
      if (call.method === 'editMessageText' && answer.scope === 'message' && EDIT_DONE.test(answer.description)) continue;
      return answer;
    }
    return { ok: true, ...(messageId !== undefined && { messageId }) };
  }
}
