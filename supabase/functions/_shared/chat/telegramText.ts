/**
 * The chat message: Telegram HTML with every visitor value escaped, and short enough to be
 * accepted whatever the visitor typed.
 */
import type { NotifyBody } from '../leadRules.ts';

/**
 * Telegram refuses longer texts. It counts UTF-16 code units (an emoji is two), so JavaScript's
 * String length is the right measure; it is applied to the text as sent, entities included.
 */
export const TELEGRAM_TEXT_LIMIT = 4096;

const ELLIPSIS = '…';

/** Escapes text for Telegram's HTML parse mode. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * `value` escaped and at most `room` UTF-16 units long. A cut ends with an ellipsis and falls
 * between whole code points and whole entities, never inside a surrogate pair or an `&lt;`.
 */
export function fitEscaped(value: string, room: number): string {
  const escaped = escapeHtml(value);
  if (escaped.length <= room) return escaped;
  if (room < ELLIPSIS.length) return '';
  let kept = '';
  for (const char of value) {
    const piece = escapeHtml(char);
    if (kept.length + piece.length + ELLIPSIS.length > room) break;
    kept += piece;
  }
  return kept + ELLIPSIS;
}

/**
 * A template tag: the literal parts are kept, the values are escaped and share what the limit
 * leaves in order, so the last value (the free-text message) is the one that gets cut.
 */
function fitHtml(limit: number) {
  return (literals: TemplateStringsArray, ...values: string[]): string => {
    let room = limit - literals.join('').length;
    let text = literals[0] ?? '';
    values.forEach((value, i) => {
      const piece = fitEscaped(value, Math.max(0, room));
      room -= piece.length;
      text += piece + (literals[i + 1] ?? '');
    });
    return text;
  };
}

/**
 * The Telegram message for a lead, at most `limit` UTF-16 units, with a link to the lead in the
 * staff inbox when `inboxUrl` is given. The link comes before the visitor's values, so the room
 * they share never cuts it; the free-text message, last, is what gets cut.
 */
export function buildTelegramText(body: NotifyBody, inboxUrl?: string, limit = TELEGRAM_TEXT_LIMIT): string {
  const fit = fitHtml(limit);
  return inboxUrl === undefined
    ? fit`<b>New lead</b> from <code>${body.page}</code>

<b>Name:</b> ${body.firstName} ${body.lastName}
<b>Email:</b> ${body.email}
<b>Phone:</b> ${body.phone}

<b>Message:</b>
${body.message}`
    : fit`<b>New lead</b> from <code>${body.page}</code>
<a href="${inboxUrl}">Open it in the lead inbox</a>

<b>Name:</b> ${body.firstName} ${body.lastName}
<b>Email:</b> ${body.email}
<b>Phone:</b> ${body.phone}

<b>Message:</b>
${body.message}`;
}
