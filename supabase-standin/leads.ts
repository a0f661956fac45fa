/** `npm run leads`: prints the leads stored by the local backend (contact form and discount popup). */
import { LANGUAGE_NAMES, isLang } from '../supabase/functions/_shared/languages.js';
import { listLeads, type LeadsListing } from './database.js';

/** Single line, no terminal control characters (visitor text must not drive the terminal), at most max chars. */
function cell(value: string, max: number): string {
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  const chars = Array.from(clean);
  return chars.length <= max ? clean : `${chars.slice(0, max - 1).join('')}…`;
}

function when(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())} ${p(date.getHours())}:${p(date.getMinutes())}`;
}

function table(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((h, i) => Math.max(Array.from(h).length, ...rows.map((r) => Array.from(r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c + ' '.repeat(Math.max(0, (widths[i] ?? 0) - Array.from(c).length)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** When notify-telegram took the lead on (a message was sent, or was due while Telegram was not set up). */
function notified(date: Date | null): string {
  return date ? when(date) : 'no';
}

/** The language a lead was sent in, as the office names it (English, Spanish). */
function language(lang: string): string {
  return isLang(lang) ? LANGUAGE_NAMES[lang] : cell(lang, 10);
}

/** Formats a listing as text lines. */
function formatLeads({ leads, discountLeads }: LeadsListing): string[] {
  if (leads.length === 0 && discountLeads.length === 0) return ['No leads yet.'];
  const out: string[] = [];
  out.push(`Contact form leads (${leads.length})`);
  if (leads.length === 0) out.push('  none');
  else
    out.push(
      ...table(
        ['Received', 'Notified', 'Name', 'Email', 'Phone', 'Page', 'Language', 'Message'],
        leads.map((l) => [
          when(l.created_at),
          notified(l.notified_at),
          cell(`${l.first_name} ${l.last_name}`, 30),
          cell(l.email, 40),
          cell(l.phone, 20),
          cell(l.page, 20),
          language(l.lang),
          cell(l.message, 60),
        ]),
      ),
    );
  const long = leads.filter((l) => Array.from(cell(l.message, Infinity)).length > 60 || /[\r\n]/.test(l.message));
  if (long.length > 0) {
    out.push('', 'Full messages');
    for (const l of long) {
      out.push(`  ${when(l.created_at)}  ${cell(`${l.first_name} ${l.last_name}`, 30)} <${cell(l.email, 40)}>`);
      for (const text of l.message.split(/\r?\n/)) out.push(`    ${cell(text, 5000)}`);
    }
  }
  out.push('');
  out.push(`Discount popup sign-ups (${discountLeads.length})`);
  if (discountLeads.length === 0) out.push('  none');
  else
    out.push(
      ...table(
        ['Received', 'Notified', 'Email', 'Phone', 'Page', 'Language'],
        discountLeads.map((d) => [when(d.created_at), notified(d.notified_at), cell(d.email, 40), cell(d.phone, 20), cell(d.page, 40), language(d.lang)]),
      ),
    );
  return out;
}

/** Prints both lead tables, newest first, or "No leads yet.". Returns what was listed. */
export async function printLeads(
  dataDir = '.data/pglite',
  write: (line: string) => void = (line) => console.log(line),
): Promise<LeadsListing> {
  const listing = await listLeads(dataDir);
  for (const line of formatLeads(listing)) write(line);
  return listing;
}
