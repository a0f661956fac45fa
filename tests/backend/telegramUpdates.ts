/** Updates as Telegram posts them to the bot's webhook (only the fields the function reads, and a few it does not). */

/** A Telegram account as an update names it. */
export type TelegramUser = { id: number; is_bot: boolean; first_name: string; last_name?: string };

let nextUpdateId = 500_000;
/** A new update id: Telegram numbers updates in order. */
export const newUpdateId = () => ++nextUpdateId;

/** A private message to the bot from `from`. */
export const privateMessage = (from: TelegramUser, text: string, id = newUpdateId()) =>
  ({ update_id: id, message: { message_id: id, date: 1, chat: { id: from.id, type: 'private', first_name: from.first_name }, from, text } });

/** A tap by `from` on a button with callback data `data` under a message in chat `chatId`. */
export const tapUpdate = (from: TelegramUser, data: string, chatId: string, id = newUpdateId()) =>
  ({ update_id: id, callback_query: { id: `cb${id}`, chat_instance: '42', from, data, message: { message_id: 1, date: 1, chat: { id: Number(chatId), type: 'supergroup' } } } });
