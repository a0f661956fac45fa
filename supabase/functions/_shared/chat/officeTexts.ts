/**
 * The texts of a lead's reminder and of the morning summary in the office chat (issue 30):
 * Telegram HTML, every value from a visitor escaped, short enough for Telegram whatever they typed.
 * Times are said as how long ago or how soon, so no time zone is needed at send time.
 */
import { languageLine, languageMark, otherLanguagesCount } from './language.ts';
import { escapeHtml, fitEscaped } from './telegramText.ts';

/** What the texts say of a lead (compose.ts's TextLead and SummaryLead both fit; a discount sign-up has no name). */
export interface TextLead {
  kind: 'quote' | 'discount';
  id: string;
  createdAt: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  phone?: string | null;
  /** The language it was sent in (languages.ts); English (the default) when left out. */
  lang?: string | null;
}

/** How long the promise to answer lasts (the inbox's 24-hour figures). */
export const ANSWER_WITHIN_MS = 24 * 3_600_000;

/** Lines per part of the summary; the rest is counted, and is in the inbox. */
const SUMMARY_LINES = 15;
/** Room for a name in a summary line, so 30 lines stay well under Telegram's 4096. */
const NAME_ROOM = 60;

/** "25 min", "3 h 5 min", "2 days 4 h". */
export function duration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  const unit = days === 1 ? 'day' : 'days';
  return hours % 24 ? `${days} ${unit} ${hours % 24} h` : `${days} ${unit}`;
}

const waitedMs = (lead: TextLead, now: Date) => now.getTime() - Date.parse(lead.createdAt);

/** The lead in a few words: the name of a quote request, or what a discount sign-up is. */
function who(lead: TextLead): string {
  const name = [lead.firstName, lead.lastName].filter(Boolean).join(' ');
  return lead.kind === 'quote' && name ? `${fitEscaped(name, NAME_ROOM)} (quote request)` : 'A discount sign-up';
}

/**
 * The reminder of a lead still new: how long it has waited, who, and how to reach them; first, as
 * in its announcement, the language to call back in when it is not the default.
 */
export function reminderText(lead: TextLead, now: Date, inboxUrl?: string): string {
  const contact = [lead.phone, lead.email].filter((v): v is string => Boolean(v)).map(escapeHtml).join(' · ');
  const language = languageLine(lead);
  return [
    ...(language === undefined ? [] : [language]),
    `⏰ <b>Still new after ${duration(waitedMs(lead, now))}</b>: nobody has called back yet.`,
    `${who(lead)}${contact ? `\n${contact}` : ''}`,
    ...(inboxUrl ? [`<a href="${escapeHtml(inboxUrl)}">Open it in the lead inbox</a>`] : []),
  ].join('\n');
}

function lines(leads: TextLead[], line: (lead: TextLead) => string): string[] {
  const shown = leads.slice(0, SUMMARY_LINES).map((lead) => `• ${line(lead)}`);
  return leads.length > SUMMARY_LINES ? [...shown, `• and ${leads.length - SUMMARY_LINES} more`] : shown;
}

/**
 * The morning summary: the leads still new that are overdue (waited 24 hours) and those whose 24
 * hours end before `dueBefore` (the day's closing time), oldest first; undefined when none is
 * left (someone answered them since the summary was planned).
 */
export function summaryText(leads: TextLead[], dueBefore: Date, now: Date, inboxUrl?: string): string | undefined {
  const endOf = (lead: TextLead) => Date.parse(lead.createdAt) + ANSWER_WITHIN_MS;
  const overdue = leads.filter((lead) => endOf(lead) <= now.getTime());
  const dueToday = leads.filter((lead) => endOf(lead) > now.getTime() && endOf(lead) <= dueBefore.getTime());
  const count = overdue.length + dueToday.length;
  if (!count) return undefined;
  // Leads to call back in another language than the default: counted in the title, marked in their line.
  const others = otherLanguagesCount([...overdue, ...dueToday]);
  return [
    `☀️ <b>Good morning: ${count} ${count === 1 ? 'lead waits' : 'leads wait'} for a call back</b>${others ? ` (${others})` : ''}`,
    ...(overdue.length ? ['', '<b>Overdue</b> (waited more than 24 hours):',
      ...lines(overdue, (lead) => `${who(lead)}${languageMark(lead)}, waited ${duration(waitedMs(lead, now))}`)] : []),
    ...(dueToday.length ? ['', '<b>Due today</b> (their 24 hours end before closing):',
      ...lines(dueToday, (lead) => `${who(lead)}${languageMark(lead)}, 24 hours end in ${duration(endOf(lead) - now.getTime())}`)] : []),
    ...(inboxUrl ? ['', `<a href="${escapeHtml(inboxUrl)}">Open the lead inbox</a>`] : []),
  ].join('\n');
}
