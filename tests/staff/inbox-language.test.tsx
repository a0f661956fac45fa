/**
 * The lead inbox and the language a lead was sent in (staff/inbox): a lead in another language
 * than the default shows a "Spanish" badge beside its kind, readable by a screen reader as what to
 * do and with WCAG AA contrast; an English lead shows none, as before. The list filters by
 * language (the choices are languages.ts's), the CSV carries it, the RPCs get it as p_lang. The
 * whole screen in Chromium with axe: tests/browser/inbox-language.test.ts; the SQL behind the
 * filter and the report: tests/backend/lead-language.test.ts.
 */
import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_NAMES, LANGUAGES } from '../../supabase/functions/_shared/languages.js';
import { filterParams } from '../../staff/inbox/api.js';
import { leadsCsv } from '../../staff/inbox/csv.js';
import { Filters } from '../../staff/inbox/Filters.js';
import { LanguageBadge, LeadRow } from '../../staff/inbox/LeadRow.js';
import { NO_FILTERS, type InboxLead } from '../../staff/inbox/model.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const lead = (lang: InboxLead['lang']): InboxLead => ({
  kind: 'quote', id: '0b7c8f1e-1111-4222-8333-944445555666', created_at: '2026-11-23T11:00:00.000Z', status: 'new',
  first_name: 'Lucía', last_name: 'Hernández', email: 'lucia@example.com', phone: '(408) 555-0133', message: 'Limpieza profunda',
  page: 'contact', landing_path: null, referrer_path: null, notified_at: null, notify_failed_at: null, first_response_at: null,
  booked_value: null, first_channel: null, last_channel: null, channel: null, campaign: null, lang,
});
const row = (l: InboxLead) => renderToStaticMarkup(createElement(LeadRow, { lead: l, now: NOW, onStatus: () => {} }));
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('the language badge', () => {
  it('a Spanish lead: "Spanish" beside its kind, and to a screen reader what to do', () => {
    const html = row(lead('es'));
    expect(html).toContain('<span class="kind kind-quote">Quote request</span><span class="badge lang">Spanish<span class="visually-hidden">: call back in Spanish</span></span>');
    expect(text(html)).toMatch(/^Quote request Spanish : call back in Spanish 1 h ago/);
  });

  it('an English lead: no badge, the row as before', () => {
    const html = row(lead('en'));
    expect(html).not.toContain('badge lang');
    expect(html).not.toContain('Spanish');
    expect(renderToStaticMarkup(createElement(LanguageBadge, { lang: 'en' }))).toBe('');
  });

  it('every language but the default has its badge, named as languages.ts names it', () => {
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      expect(renderToStaticMarkup(createElement(LanguageBadge, { lang }))).toContain(`>${LANGUAGE_NAMES[lang]}<`);
    }
  });

  it('meets WCAG AA: its text on its background at least 4.5:1', () => {
    const css = readFileSync('staff/inbox/inbox.css', 'utf8');
    const rule = /\.badge\.lang \{([^}]*)\}/.exec(css)![1]!;
    /** A colour of the rule, a custom property of :root resolved; #rgb written as #rrggbb. */
    const colour = (value: string) => {
      const property = /^var\(--([a-z-]+)\)$/.exec(value.trim())?.[1];
      const hex = property ? new RegExp(`--${property}: (#[0-9a-f]+);`).exec(css)![1]! : value.trim();
      return hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex;
    };
    const background = colour(/background: ([^;]+);/.exec(rule)![1]!);
    const foreground = colour(/(?:^|;)\s*color: ([^;]+);/.exec(rule)![1]!);
    expect(contrast(background, foreground)).toBeGreaterThanOrEqual(4.5);
  });
});

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('the language filter', () => {
  it('offers All and each language of languages.ts by its name, labelled "Language"', () => {
    const html = renderToStaticMarkup(createElement(Filters, { filters: NO_FILTERS, onChange: () => {} }));
    expect(html).toContain('<label for="filter-lang">Language</label>');
    const select = /<select id="filter-lang">(.*?)<\/select>/.exec(html)![1]!;
    const options = [...select.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]);
    expect(options).toEqual([['', 'All'], ...LANGUAGES.map((l) => [l, LANGUAGE_NAMES[l]])]);
  });

  it('shows the chosen language and goes to the database as p_lang', () => {
    const html = renderToStaticMarkup(createElement(Filters, { filters: { ...NO_FILTERS, lang: 'es' }, onChange: () => {} }));
    expect(/<select id="filter-lang">(.*?)<\/select>/.exec(html)![1]).toContain('<option value="es" selected="">Spanish</option>');
    expect(html).toContain('Clear filters');
    expect(filterParams({ ...NO_FILTERS, lang: 'es' }).p_lang).toBe('es');
    expect(filterParams(NO_FILTERS).p_lang).toBeNull();
  });
});

describe('the CSV export', () => {
  it('has a Language column, the lead\'s language by name', () => {
    const [header, es, en] = leadsCsv([lead('es'), lead('en')]).split('\r\n').map((line) => line.split(','));
    expect(header!.at(-1)).toBe('Language');
    expect([es!.at(-1), en!.at(-1)]).toEqual(['Spanish', 'English']);
  });
});
