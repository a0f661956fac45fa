/**
 * What each message of the outbox (migration 20261126000000) says: a composer per kind of message
 * turns the item chat_next handed out into the Telegram calls that deliver it. Texts are built when
 * they are sent, from the database's rows, never from what a request said.
 */
import { inboxLeadUrl, inboxPageUrl, type LeadKind } from '../leadAddress.ts';
import { contactedCallbackData } from './callbackData.ts';
import { languageLine } from './language.ts';
import { reminderText, summaryText } from './officeTexts.ts';
import { buildTelegramText, fitEscaped, TELEGRAM_TEXT_LIMIT } from './telegramText.ts';

export type ChatWhat = 'lead' | 'reminder' | 'summary' | 'taken';

/** A lead as chat_next hands it out (private.chat_lead): a discount sign-up has no name or message. */
export interface ChatLead {
  kind: LeadKind;
  id: string;
  createdAt: string;
  status: string;
  firstName?: string;
  lastName?: string;
  email: string;
  phone: string;
  message?: string;
  page: string;
  /** The language it was sent in (languages.ts); the chat says so first unless it is the default. */
  lang?: string;
}

/** A lead still new, as a summary lists it. */
export interface SummaryLead {
  kind: LeadKind;
  id: string;
  createdAt: string;
  firstName?: string | null;
  lastName?: string | null;
  lang?: string | null;
}

/** One message of the outbox, as chat_next hands it out. */
export interface ChatItem {
  item: number;
  what: ChatWhat;
  attempts: number;
  createdAt: string;
  day: string | null;
  /** 'taken': who took the lead and its new status; 'summary': dueBefore, the day's closing time. */
  detail: { status?: string; by?: string; dueBefore?: string } | null;
  lead: ChatLead | null;
  /** 'taken': the ids of the lead's sent messages, to edit. */
  messageIds?: number[];
  /** 'summary': every lead still new, oldest first. */
  leads?: SummaryLead[];
}

export interface ComposeContext {
  /** The site's address (SITE_URL), for links to the inbox. */
  siteUrl: string | undefined;
  now: Date;
}

/** A Bot API call; the pump adds the chat. */
export interface ChatCall {
  method: 'sendMessage' | 'editMessageText';
  params: Record<string, unknown>;
}

export type Composer = (item: ChatItem, ctx: ComposeContext) => ChatCall[];

export interface InlineKeyboard {
  inline_keyboard: Array<Array<{ text: string; callback_data: string } | { text: string; url: string }>>;
}

/** The link to the lead in the inbox, when the site's address is known and usable. */
export function inboxUrl(ctx: ComposeContext, lead: { kind: LeadKind; id: string }): string | undefined {
  return ctx.siteUrl ? inboxLeadUrl(ctx.siteUrl, lead) : undefined;
}

/**
 * A lead message's buttons: "Called back" while nobody has taken the lead, and the inbox link.
 * Telegram refuses URL buttons to addresses it cannot open (a local http://127.0.0.1), so the link
 * is a button only for an https site; the text carries it either way.
 */
export function leadKeyboard(lead: { kind: LeadKind; id: string; status?: string }, ctx: ComposeContext): InlineKeyboard | undefined {
  const rows: InlineKeyboard['inline_keyboard'] = [];
  if (lead.status === undefined || lead.status === 'new') rows.push([{ text: '📞 Called back', callback_data: contactedCallbackData(lead) }]);
  const url = inboxUrl(ctx, lead);
  if (url?.startsWith('https://')) rows.push([{ text: 'Open in the lead inbox', url }]);
  return rows.length > 0 ? { inline_keyboard: rows } : undefined;
}

/** What a lead's status says once someone took it. */
const TAKEN_WORDS: Record<string, string> = {
  contacted: 'Called back',
  quoted: 'Quoted',
  booked: 'Booked',
  lost: 'Marked lost',
  spam: 'Marked spam',
};

/**
 * The text announcing a lead: a quote request with its details, or a discount sign-up, at most
 * `limit` UTF-16 units. A lead in another language than the default starts with the line that says
 * so (language.ts), within the limit; an English lead's text is as it always was.
 */
export function leadText(lead: ChatLead, ctx: ComposeContext, limit = TELEGRAM_TEXT_LIMIT): string {
  const line = languageLine(lead);
  const details = leadDetails(lead, ctx, line === undefined ? limit : limit - line.length - 1);
  return line === undefined ? details : `${line}\n${details}`;
}

function leadDetails(lead: ChatLead, ctx: ComposeContext, limit: number): string {
  const url = inboxUrl(ctx, lead);
  if (lead.kind === 'quote') {
    return buildTelegramText(
      { firstName: lead.firstName ?? '', lastName: lead.lastName ?? '', email: lead.email, phone: lead.phone, message: lead.message ?? '', page: 'contact' as const },
      url,
      limit,
    );
  }
  const link = url === undefined ? '' : `\n<a href="${url}">Open it in the lead inbox</a>`;
  return `<b>New $25 discount sign-up</b> from <code>${fitEscaped(lead.page, 200)}</code>${link}\n\n<b>Email:</b> ${fitEscaped(lead.email, 254)}\n<b>Phone:</b> ${fitEscaped(lead.phone, 40)}`;
}

/** The line that says who took a lead. */
export function takenLine(status: string | undefined, by: string | undefined): string {
  const word = TAKEN_WORDS[status ?? ''] ?? 'Taken';
  return `✅ <b>${word}</b>${by ? ` by ${fitEscaped(by, 100)}` : ''}`;
}

const SEND = { parse_mode: 'HTML', link_preview_options: { is_disabled: true } } as const;

/** Room left for the lead's own text once a taken line is added (Telegram's limit is 4096). */
const TAKEN_ROOM = 4096 - 160;

export const COMPOSERS: Partial<Record<ChatWhat, Composer>> = {
  lead(item, ctx) {
    const lead = item.lead!;
    const keyboard = leadKeyboard(lead, ctx);
    // Someone took the lead before its message went out: the message says so from the start.
    const text = lead.status === 'new' ? leadText(lead, ctx) : `${leadText(lead, ctx, TAKEN_ROOM)}\n\n${takenLine(lead.status, undefined)}`;
    return [{ method: 'sendMessage', params: { ...SEND, text, ...(keyboard && { reply_markup: keyboard }) } }];
  },
  taken(item, ctx) {
    const lead = item.lead!;
    const text = `${leadText(lead, ctx, TAKEN_ROOM)}\n\n${takenLine(item.detail?.status, item.detail?.by)}`;
    const keyboard = leadKeyboard({ ...lead, status: item.detail?.status ?? lead.status }, ctx) ?? { inline_keyboard: [] };
    return (item.messageIds ?? []).map((messageId) => ({
      method: 'editMessageText' as const,
      params: { ...SEND, message_id: messageId, text, reply_markup: keyboard },
    }));
  },
  // A lead still new once its delay of opening hours passed (office.ts): the lead's own buttons.
  reminder(item, ctx) {
    const lead = item.lead!;
    const keyboard = leadKeyboard(lead, ctx);
    return [{ method: 'sendMessage', params: { ...SEND, text: reminderText(lead, ctx.now, inboxUrl(ctx, lead)), ...(keyboard && { reply_markup: keyboard }) } }];
  },
  // The day's summary; nothing when every lead on it was answered since it was planned.
  summary(item, ctx) {
    const dueBefore = new Date(item.detail?.dueBefore ?? ctx.now);
    const text = summaryText(item.leads ?? [], dueBefore, ctx.now, ctx.siteUrl ? inboxPageUrl(ctx.siteUrl) : undefined);
    return text === undefined ? [] : [{ method: 'sendMessage', params: { ...SEND, text } }];
  },
};
