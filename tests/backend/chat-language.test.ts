/**
 * The office chat's texts for a lead sent in another language than the default
 * (supabase/functions/_shared/chat/language.ts): its announcement, the edit that says who took it
 * and its reminder start with "🇪🇸 Spanish — call back in Spanish"; the morning summary marks its
 * line and counts it. An English lead's texts are byte for byte what they were before languages.
 * The same texts under Deno, sent by the function: notify-telegram-deno.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGE_NAMES, LANGUAGES } from '../../supabase/functions/_shared/languages';
import { COMPOSERS, leadText, type ChatItem, type ChatLead, type ComposeContext } from '../../supabase/functions/_shared/chat/compose';
import { languageLine } from '../../supabase/functions/_shared/chat/language';
import { reminderText, summaryText, type TextLead } from '../../supabase/functions/_shared/chat/officeTexts';
import { TELEGRAM_LIMIT } from './fakeTelegram';

const SPANISH_LINE = '🇪🇸 <b>Spanish — call back in Spanish</b>';
const NOW = new Date('2026-11-23T17:00:00Z'); // Monday 09:00 PST
const CLOSING = new Date('2026-11-24T02:00:00Z');
const ID = '0b7c8f1e-1111-4222-8333-944445555666';
const ctx: ComposeContext = { siteUrl: 'https://www.bayshinecleaning.com', now: NOW };
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();

const quote = (lang?: string): ChatLead => ({
  kind: 'quote', id: ID, createdAt: hoursAgo(1), status: 'new', firstName: 'Lucía', lastName: 'Hernández',
  email: 'lucia@example.com', phone: '(408) 555-0133', message: 'Limpieza profunda, 3 recámaras.', page: 'contact', ...(lang !== undefined && { lang }),
});
const discount = (lang?: string): ChatLead => ({
  kind: 'discount', id: ID, createdAt: hoursAgo(1), status: 'new', email: 'sam@example.com', phone: '4085550100', page: '/es', ...(lang !== undefined && { lang }),
});
const item = (what: ChatItem['what'], lead: ChatLead, extra: Partial<ChatItem> = {}): ChatItem =>
  ({ item: 1, what, attempts: 1, createdAt: lead.createdAt, day: null, detail: null, lead, ...extra });

/** The texts as they were before languages (compose.ts and telegramText.ts at the previous commit). */
const ENGLISH_QUOTE = [
  '<b>New lead</b> from <code>contact</code>',
  `<a href="https://www.bayshinecleaning.com/leads#lead/quote/${ID}">Open it in the lead inbox</a>`,
  '',
  '<b>Name:</b> Lucía Hernández',
  '<b>Email:</b> lucia@example.com',
  '<b>Phone:</b> (408) 555-0133',
  '',
  '<b>Message:</b>',
  'Limpieza profunda, 3 recámaras.',
].join('\n');
const ENGLISH_DISCOUNT = [
  '<b>New $25 discount sign-up</b> from <code>/es</code>',
  `<a href="https://www.bayshinecleaning.com/leads#lead/discount/${ID}">Open it in the lead inbox</a>`,
  '',
  '<b>Email:</b> sam@example.com',
  '<b>Phone:</b> 4085550100',
].join('\n');

describe('the announcement of a lead', () => {
  it.each([['en', 'en'], ['no language (a lead read before the column)', undefined], ['a value that is none of the languages', 'fr']])(
    'in English (%s): exactly the text it always was, no language line', (_, lang) => {
      expect(leadText(quote(lang), ctx)).toBe(ENGLISH_QUOTE);
      expect(leadText(discount(lang), ctx)).toBe(ENGLISH_DISCOUNT);
      expect(COMPOSERS.lead!(item('lead', quote(lang)), ctx)[0]!.params['text']).toBe(ENGLISH_QUOTE);
    });

  it('in Spanish: the first line says to call back in Spanish, the rest is the English text', () => {
    expect(leadText(quote('es'), ctx)).toBe(`${SPANISH_LINE}\n${ENGLISH_QUOTE}`);
    expect(leadText(discount('es'), ctx)).toBe(`${SPANISH_LINE}\n${ENGLISH_DISCOUNT}`);
    const [call] = COMPOSERS.lead!(item('lead', quote('es')), ctx);
    expect(call!.params['text']).toBe(`${SPANISH_LINE}\n${ENGLISH_QUOTE}`);
    // the buttons are the lead's, whatever its language
    expect(call!.params['reply_markup']).toEqual(COMPOSERS.lead!(item('lead', quote('en')), ctx)[0]!.params['reply_markup']);
  });

  it('every language but the default has its line, named as languages.ts names it', () => {
    for (const lang of LANGUAGES) {
      const line = languageLine({ lang });
      if (lang === 'en') expect(line).toBeUndefined();
      else expect(line).toContain(`${LANGUAGE_NAMES[lang]} — call back in ${LANGUAGE_NAMES[lang]}`);
    }
  });

  it('a Spanish lead with the longest values stays within Telegram\'s limit, its language line kept whole', () => {
    const long = { ...quote('es'), firstName: '&'.repeat(100), lastName: '<'.repeat(100), phone: '>'.repeat(40), message: '"'.repeat(5000) };
    const text = leadText(long, ctx);
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_LIMIT);
    expect(text.startsWith(`${SPANISH_LINE}\n<b>New lead</b>`)).toBe(true);
    expect(text.endsWith('…')).toBe(true);
  });

  it('the edit that says who took a Spanish lead keeps its language line', () => {
    const [edit] = COMPOSERS.taken!(item('taken', quote('es'), { detail: { status: 'contacted', by: 'Ana Ruiz' }, messageIds: [42] }), ctx);
    expect(edit!.params['text']).toBe(`${SPANISH_LINE}\n${ENGLISH_QUOTE}\n\n✅ <b>Called back</b> by Ana Ruiz`);
    const [english] = COMPOSERS.taken!(item('taken', quote('en'), { detail: { status: 'contacted', by: 'Ana Ruiz' }, messageIds: [42] }), ctx);
    expect(english!.params['text']).toBe(`${ENGLISH_QUOTE}\n\n✅ <b>Called back</b> by Ana Ruiz`);
  });
});

const textLead = (firstName: string, createdAt: string, lang?: string): TextLead => ({
  kind: 'quote', id: crypto.randomUUID(), createdAt, firstName, lastName: 'Lopez', email: 'maria@example.com', phone: '(408) 555-0100', ...(lang !== undefined && { lang }),
});

describe('the reminder and the morning summary', () => {
  it('a Spanish lead\'s reminder starts with its language line; an English one is as it was', () => {
    const url = 'https://www.bayshinecleaning.com/leads#lead/quote/x';
    const english = [
      '⏰ <b>Still new after 13 h 15 min</b>: nobody has called back yet.',
      'Maria Lopez (quote request)',
      '(408) 555-0100 · maria@example.com',
      '<a href="https://www.bayshinecleaning.com/leads#lead/quote/x">Open it in the lead inbox</a>',
    ].join('\n');
    expect(reminderText(textLead('Maria', hoursAgo(13.25), 'en'), NOW, url)).toBe(english);
    expect(reminderText(textLead('Maria', hoursAgo(13.25), 'es'), NOW, url)).toBe(`${SPANISH_LINE}\n${english}`);
    const reminder = COMPOSERS.reminder!(item('reminder', quote('es')), ctx)[0]!.params['text'] as string;
    expect(reminder.split('\n')[0]).toBe(SPANISH_LINE);
  });

  it('the summary counts the Spanish leads in its title and marks their lines', () => {
    const text = summaryText([
      textLead('Ana', hoursAgo(50), 'es'), textLead('Ben', hoursAgo(16), 'en'), textLead('Cruz', hoursAgo(17), 'es'), textLead('Cy', hoursAgo(2), 'es'),
    ], CLOSING, NOW, 'https://www.bayshinecleaning.com/leads');
    expect(text).toBe([
      '☀️ <b>Good morning: 3 leads wait for a call back</b> (2 in Spanish)',
      '',
      '<b>Overdue</b> (waited more than 24 hours):',
      '• Ana Lopez (quote request) 🇪🇸 <b>Spanish</b>, waited 2 days 2 h',
      '',
      '<b>Due today</b> (their 24 hours end before closing):',
      '• Ben Lopez (quote request), 24 hours end in 8 h',
      '• Cruz Lopez (quote request) 🇪🇸 <b>Spanish</b>, 24 hours end in 7 h',
      '',
      '<a href="https://www.bayshinecleaning.com/leads">Open the lead inbox</a>',
    ].join('\n'));
  });

  it('a summary of English leads only says nothing of languages', () => {
    const text = summaryText([textLead('Ana', hoursAgo(50), 'en'), textLead('Ben', hoursAgo(16))], CLOSING, NOW)!;
    expect(text.split('\n')[0]).toBe('☀️ <b>Good morning: 2 leads wait for a call back</b>');
    expect(text).not.toContain('Spanish');
  });

  it('fifty Spanish leads with the longest names stay within Telegram\'s limit', () => {
    const long = 'Ñ'.repeat(100);
    const leads = Array.from({ length: 50 }, (_, i) => ({ ...textLead(long, hoursAgo(i < 25 ? 30 + i * 10 : 20), 'es'), lastName: long }));
    const text = summaryText(leads, CLOSING, NOW)!;
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_LIMIT);
    expect(text.split('\n')[0]).toBe('☀️ <b>Good morning: 50 leads wait for a call back</b> (50 in Spanish)');
  });
});
