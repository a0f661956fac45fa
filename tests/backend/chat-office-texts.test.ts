/** The reminder's and the morning summary's texts (supabase/functions/_shared/chat/officeTexts.ts). */
import { describe, expect, it } from 'vitest';
import { duration, reminderText, summaryText, type TextLead } from '../../supabase/functions/_shared/chat/officeTexts';
import { TELEGRAM_LIMIT } from './fakeTelegram';

const NOW = new Date('2026-11-23T17:00:00Z'); // Monday 09:00 PST
const CLOSING = new Date('2026-11-24T02:00:00Z'); // Monday 18:00 PST
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();
const quote = (firstName: string, createdAt: string): TextLead => ({
  kind: 'quote', id: crypto.randomUUID(), createdAt, firstName, lastName: 'Lopez', email: 'maria@example.com', phone: '(408) 555-0100',
});

describe('how long, in words', () => {
  it('minutes, hours, days', () => {
    expect(duration(25 * 60_000)).toBe('25 min');
    expect(duration(60 * 60_000)).toBe('1 h');
    expect(duration(185 * 60_000)).toBe('3 h 5 min');
    expect(duration(24 * 3_600_000)).toBe('1 day');
    expect(duration(52 * 3_600_000)).toBe('2 days 4 h');
    expect(duration(-5)).toBe('0 min');
  });
});

describe('the reminder', () => {
  it('says how long the lead waited, who it is, how to reach them and where it is', () => {
    const text = reminderText(quote('Maria', hoursAgo(13.25)), NOW, 'https://www.bayshinecleaning.com/leads#lead/quote/x');
    expect(text).toBe([
      '⏰ <b>Still new after 13 h 15 min</b>: nobody has called back yet.',
      'Maria Lopez (quote request)',
      '(408) 555-0100 · maria@example.com',
      '<a href="https://www.bayshinecleaning.com/leads#lead/quote/x">Open it in the lead inbox</a>',
    ].join('\n'));
  });

  it('escapes every value a visitor typed', () => {
    const text = reminderText({ ...quote('<b>Bob</b> & "Co"', hoursAgo(1)), email: 'a<i>@example.com' }, NOW);
    expect(text).toContain('&lt;b&gt;Bob&lt;/b&gt; &amp; &quot;Co&quot; Lopez (quote request)');
    expect(text).toContain('a&lt;i&gt;@example.com');
    expect(text).not.toContain('<i>');
  });

  it('a discount sign-up has no name', () => {
    const text = reminderText({ kind: 'discount', id: crypto.randomUUID(), createdAt: hoursAgo(0.5), phone: '(408) 555-0199', email: 'd@example.com' }, NOW);
    expect(text).toBe('⏰ <b>Still new after 30 min</b>: nobody has called back yet.\nA discount sign-up\n(408) 555-0199 · d@example.com');
  });
});

describe('the morning summary', () => {
  it('the overdue and the due today, oldest first; not those due later', () => {
    const text = summaryText([
      quote('Ana', hoursAgo(50)), quote('Ben', hoursAgo(16)), quote('Cy', hoursAgo(2)),
    ], CLOSING, NOW, 'https://www.bayshinecleaning.com/leads');
    expect(text).toBe([
      '☀️ <b>Good morning: 2 leads wait for a call back</b>',
      '',
      '<b>Overdue</b> (waited more than 24 hours):',
      '• Ana Lopez (quote request), waited 2 days 2 h',
      '',
      '<b>Due today</b> (their 24 hours end before closing):',
      '• Ben Lopez (quote request), 24 hours end in 8 h',
      '',
      '<a href="https://www.bayshinecleaning.com/leads">Open the lead inbox</a>',
    ].join('\n'));
  });

  it('nothing when every lead was answered since it was planned', () => {
    expect(summaryText([], CLOSING, NOW)).toBeUndefined();
    expect(summaryText([quote('Cy', hoursAgo(2))], CLOSING, NOW)).toBeUndefined();
  });

  it('fifty leads with the longest names stay within Telegram\'s limit, the rest counted', () => {
    const long = 'N'.repeat(100);
    const leads = Array.from({ length: 50 }, (_, i) => ({ ...quote(long, hoursAgo(i < 25 ? 30 + i : 20)), lastName: long }));
    const text = summaryText(leads, CLOSING, NOW)!;
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_LIMIT);
    expect(text).toContain('• and 10 more');
    expect(text).toContain('<b>Good morning: 50 leads wait for a call back</b>');
  });
});
