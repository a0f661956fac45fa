/**
 * telegram-webhook: runtime-neutral request handler (Deno edge function on Supabase, Node in the
 * local stand-in and in tests). Telegram calls it with every update of the office bot
 * (setWebhook, `npm run telegram -- webhook`); nothing else may.
 *
 *   401  no or a wrong X-Telegram-Bot-Api-Secret-Token (before the body is read)
 *   405 not POST · 415 not JSON · 413 too large · 400 not JSON at all
 *   503  the database could not be reached (Telegram delivers the update again later)
 *   200  everything else, also the updates it ignores
 *
 * What it acts on:
 * - a tap on a lead message's "Called back" button (callback_query, data contacted:<kind>:<id>):
 *   telegram_mark_contacted (migration 20261126000200) marks the lead contacted for the linked staff
 *   member, or says why not; the tapper sees the answer (answerCallbackQuery), and on success the
 *   chat's messages are sent at once (the edit that says who took the lead);
 * - in a private chat with the bot: `/link CODE` (or `/start CODE`, the bot's deep link) links the
 *   sender's Telegram account with the code the lead inbox showed them, `/unlink` undoes it,
 *   `/start` alone explains. Never a reply in a group; a code posted in a group stops working.
 * Its log lines name what happened, never a person's name, id, message or the bot token.
 */
import * as z from 'zod/mini';
import { parseContactedCallback } from '../_shared/chat/callbackData.ts';
import { DatabaseUnavailableError, type FunctionDeps } from '../_shared/chat/database.ts';
import { pumpFromEnv } from '../_shared/chat/pump.ts';
import { botFromEnv } from '../_shared/chat/telegramApi.ts';
import { readJsonBody } from '../_shared/requestBody.ts';
import { allKeysAccepted } from '../notify-telegram/apiKeys.ts';

/** The environment names TELEGRAM_WEBHOOK_SECRET (the secret_token given to setWebhook), TELEGRAM_BOT_TOKEN, TELEGRAM_CHAT_ID, TELEGRAM_API_URL, SITE_URL. */
export type WebhookDeps = FunctionDeps;

export const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/** An update is a few kilobytes; a private message of 4096 characters with its entities stays far below this. */
const MAX_BODY_BYTES = 64 * 1024;

/** What the tapper reads (answerCallbackQuery shows it for a few seconds; at most 200 characters). */
export const TAP_ANSWERS = {
  done: 'Marked contacted',
  notLinked: 'Not allowed: link your Telegram in the lead inbox first',
  replayed: 'Already handled',
  unknown: 'This lead no longer exists',
  wrongKind: 'This button does not match a lead: open it in the inbox',
} as const;

const STATUS_WORDS: Record<string, string> = { contacted: 'contacted', quoted: 'quoted', booked: 'booked', lost: 'marked lost', spam: 'marked spam' };

/** "Already contacted by Maria L." */
export const takenAnswer = (status: string, by: string) => `Already ${STATUS_WORDS[status] ?? status} by ${by}`.slice(0, 200);

/** What the bot says in a private chat. */
export const REPLIES = {
  help: 'This bot posts new leads to the office chat. To use its "Called back" button, link your Telegram: in the lead inbox (/leads) choose "Link my Telegram", then send me /link and the code it shows.',
  linked: (email: string) => `Linked. Your taps on "Called back" in the office chat now count as ${email}. Send /unlink to undo.`,
  invalidCode: 'That code is wrong, expired (a code lasts 10 minutes) or already used. Get a new one in the lead inbox: "Link my Telegram".',
  rateLimited: 'Too many tries. Wait 10 minutes, then get a new code in the lead inbox.',
  linkedToOther: 'This Telegram account is already linked to another staff member. Send /unlink first, then get a new code in the lead inbox.',
  unlinked: 'Unlinked. Your taps in the office chat no longer count for anyone.',
  notLinked: 'This Telegram account is not linked.',
} as const;

// Only the fields the function reads; everything else in an update is left alone. Telegram's ids
// are integers of at most 52 bits (chat ids negative for groups): an id that is not a safe integer
// (1.5, 1e20, past 2^53 where a JSON number no longer names one id) is no update Telegram sent, and
// would reach the database's bigint parameters as a value they refuse or as another account's id.
const id = z.int();
const user = z.object({ id, is_bot: z.optional(z.boolean()), first_name: z.optional(z.string()), last_name: z.optional(z.string()) });
const chat = z.object({ id, type: z.string() });
const updateSchema = z.object({
  update_id: id,
  callback_query: z.optional(z.object({ id: z.string(), from: user, data: z.optional(z.string()) })),
  message: z.optional(z.object({ chat, from: z.optional(user), text: z.optional(z.string()) })),
});

const COMMAND = /^\/(start|link|unlink)(?:@[A-Za-z0-9_]{1,64})?(?:\s+([\s\S]*))?$/;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' } });

const asRecord = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});

export function createWebhookHandler(deps: WebhookDeps): (req: Request) => Promise<Response> {
  const log = deps.log ?? ((msg: string) => console.log(msg));
  const now = deps.now ?? (() => new Date());
  /** The bot, to answer a tap or a private message (the office chat is not needed for that). */
  const bot = botFromEnv(deps.env, deps.fetch);

  /** Calls Telegram; a refusal or failure is logged (Telegram's description only, never the token), never thrown. */
  async function tell(method: string, params: Record<string, unknown>): Promise<void> {
    if (!bot) {
      log(`[telegram-webhook] TELEGRAM_BOT_TOKEN is not set: ${method} not sent`);
      return;
    }
    const answer = await bot.call(method, params);
    if (!answer.ok) log(`[telegram-webhook] ${method}: ${answer.description}`);
  }

  /** Sends the chat's due messages now, so the edit that says who took the lead goes out at once. */
  const pump = () => pumpFromEnv({ ...deps, now, log });

  async function onTap(updateId: number, tap: NonNullable<z.infer<typeof updateSchema>['callback_query']>): Promise<void> {
    const lead = parseContactedCallback(tap.data);
    if (!lead) return; // not our button
    const outcome = asRecord(await deps.rpc('telegram_mark_contacted', {
      p_update_id: updateId, p_telegram_user_id: tap.from.id, p_kind: lead.kind, p_id: lead.id,
    }));
    const reason = outcome.ok === true ? 'done' : String(outcome.reason ?? 'unknown');
    log(`[telegram-webhook] "Called back" tap: ${reason}`);
    const text = reason === 'done' ? TAP_ANSWERS.done
      : reason === 'not_linked' ? TAP_ANSWERS.notLinked
      : reason === 'replayed' ? TAP_ANSWERS.replayed
      : reason === 'wrong_kind' ? TAP_ANSWERS.wrongKind
      : reason === 'taken' ? takenAnswer(String(outcome.status ?? ''), String(outcome.by ?? 'staff'))
      : TAP_ANSWERS.unknown;
    await tell('answerCallbackQuery', { callback_query_id: tap.id, text });
    if (reason !== 'done') return;
    try {
      await pump();
    } catch (err) {
      // The edit stays in the outbox; the scheduled run sends it.
      log(`[telegram-webhook] sending the chat's messages failed: ${err instanceof Error ? err.message : 'error'}; the scheduled run sends them`);
    }
  }

  async function onPrivateMessage(message: NonNullable<z.infer<typeof updateSchema>['message']>): Promise<void> {
    const from = message.from;
    const command = COMMAND.exec((message.text ?? '').trim());
    if (!from || from.is_bot || from.id !== message.chat.id || !command) return;
    const [, name, argument = ''] = command;
    const reply = (text: string) => tell('sendMessage', { chat_id: message.chat.id, text, link_preview_options: { is_disabled: true } });
    if (name === 'unlink') {
      const was = await deps.rpc('telegram_unlink_account', { p_telegram_user_id: from.id });
      log(`[telegram-webhook] /unlink: ${was === true ? 'unlinked' : 'was not linked'}`);
      await reply(was === true ? REPLIES.unlinked : REPLIES.notLinked);
      return;
    }
    const code = argument.trim();
    if (code === '') {
      await reply(REPLIES.help);
      return;
    }
    const displayName = [from.first_name, from.last_name].filter(Boolean).join(' ');
    const outcome = asRecord(await deps.rpc('telegram_link', {
      p_code: code.slice(0, 64), p_telegram_user_id: from.id, p_display_name: displayName.slice(0, 200), p_now: now().toISOString(),
    }));
    const reason = outcome.ok === true ? 'linked' : String(outcome.reason ?? 'invalid_code');
    log(`[telegram-webhook] /${name} with a code: ${reason}`);
    await reply(reason === 'linked' ? REPLIES.linked(String(outcome.email ?? 'a staff member'))
      : reason === 'rate_limited' ? REPLIES.rateLimited
      : reason === 'linked_to_other' ? REPLIES.linkedToOther
      : REPLIES.invalidCode);
  }

  /**
   * A link code posted in a group was seen by everyone there: it is dropped at once (and the bot,
   * which speaks only in private chats, says nothing), so nobody else can link with it.
   */
  async function onGroupMessage(message: NonNullable<z.infer<typeof updateSchema>['message']>): Promise<void> {
    const command = COMMAND.exec((message.text ?? '').trim());
    const code = command?.[1] === 'unlink' ? '' : (command?.[2] ?? '').trim();
    if (code === '') return;
    const dropped = await deps.rpc('telegram_drop_code', { p_code: code.slice(0, 64) });
    log(`[telegram-webhook] a link code was sent in a group: ${dropped === true ? 'dropped' : 'no such open code'}`);
  }

  return async function handle(req: Request): Promise<Response> {
    try {
      // The secret first, whatever the method: a caller without it learns nothing else.
      const secret = deps.env('TELEGRAM_WEBHOOK_SECRET')?.trim();
      const presented = req.headers.get(SECRET_HEADER);
      if (!secret) log('[telegram-webhook] TELEGRAM_WEBHOOK_SECRET is not set: every call is refused');
      if (!secret || presented === null || !(await allKeysAccepted([presented], [secret]))) {
        return json(401, { ok: false, error: 'Unauthorized' });
      }
      if (req.method !== 'POST') return json(405, { ok: false, error: 'Method not allowed' }, { Allow: 'POST' });
      const body = await readJsonBody(req, MAX_BODY_BYTES);
      if (!body.ok) return json(body.status, { ok: false, error: body.error });
      const update = updateSchema.safeParse(body.value);
      if (!update.success) {
        log('[telegram-webhook] an update of a shape it does not read: ignored');
        return json(200, { ok: true });
      }
      const { update_id: updateId, callback_query: tap, message } = update.data;
      if (tap) await onTap(updateId, tap);
      else if (message && message.chat.type === 'private') await onPrivateMessage(message);
      else if (message) await onGroupMessage(message);
      return json(200, { ok: true });
    } catch (err) {
      if (err instanceof DatabaseUnavailableError) {
        log(`[telegram-webhook] ${err.message}; answered 503`);
        return json(503, { ok: false, error: 'The database is unavailable' }, { 'Retry-After': '60' });
      }
      log(`[telegram-webhook] unexpected error: ${err instanceof Error ? err.message : 'error'}`);
      return json(500, { ok: false, error: 'Internal error' });
    }
  };
}
