/**
 * CSV as RFC 4180 writes it (CRLF between records, a field with a comma, quote, CR or LF in quotes,
 * quotes doubled), made safe to open in a spreadsheet: a text cell starting with =, +, -, @, a tab
 * or a CR would be read as a formula, so it gets a leading apostrophe (OWASP's "CSV injection"
 * advice). Leads are typed by visitors: every text cell is hostile.
 */
import { channelLabel, KIND_LABELS, languageLabel, leadSource, STATUS_LABELS, type InboxLead } from './model.js';

export type Cell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  // A number is written by us, not typed by a visitor, and a spreadsheet reads it as a number.
  let text = typeof value === 'number' ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
  if (NEEDS_QUOTES.test(text)) text = `"${text.replace(/"/g, '""')}"`;
  return text;
}

/** Records (the first one the header) → CSV text, each record ended by CRLF. */
export function toCsv(records: readonly (readonly Cell[])[]): string {
  return records.map((record) => record.map(csvCell).join(',') + '\r\n').join('');
}

export const LEAD_CSV_HEADER = [
  'Kind', 'Received (UTC)', 'Status', 'First name', 'Last name', 'Email', 'Phone', 'Message',
  'Source page', 'First response (UTC)', 'Telegram failed (UTC)', 'Id', 'Channel', 'Campaign', 'Job value (USD)', 'Language',
] as const;

/** The exported list: one record per lead, in the list's order. */
export function leadsCsv(leads: readonly InboxLead[]): string {
  return toCsv([
    LEAD_CSV_HEADER,
    ...leads.map((lead) => [
      KIND_LABELS[lead.kind], lead.created_at, STATUS_LABELS[lead.status] ?? lead.status, lead.first_name, lead.last_name,
      lead.email, lead.phone, lead.message, leadSource(lead), lead.first_response_at, lead.notify_failed_at, lead.id,
      channelLabel(lead.channel), lead.campaign, lead.booked_value === null ? null : Number(lead.booked_value), languageLabel(lead.lang),
    ]),
  ]);
}
