/**
 * The language a lead is sent in, as the forms read it (src/lib/leadSource.ts pageLanguage): the
 * page's `<html lang>` when its language subtag is one of the site's languages (languages.ts
 * isLang), else the default; and what the forms send with it (src/lib/leads.ts): `lang` in the inserted row, kept when
 * a refused attribution is dropped, and never in the notification or the webhook, whose bodies the
 * spec fixes. Stored through the stand-in: tests/backend/lead-language.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LANGUAGE, LANGUAGES } from '../../supabase/functions/_shared/languages.js';
import { submitContactLead, submitDiscountLead, type LeadApi } from '../../src/lib/leads.js';
import { currentLeadSource, pageLanguage, UNKNOWN_SOURCE, type LeadSource } from '../../src/lib/leadSource.js';

describe('pageLanguage: the language of the form\'s page', () => {
  it.each(LANGUAGES.map((lang) => [lang, lang]))('<html lang="%s"> → %s', (lang, expected) => {
    expect(pageLanguage({ lang })).toBe(expected);
  });

  // <html lang> is a BCP 47 tag: case-insensitive, a region may follow the language.
  it.each([
    ['es-US', 'es', 'with a region, as the Spanish pages are built now'],
    ['es-419', 'es', 'Latin American Spanish'],
    ['ES', 'es', 'upper case'],
    ['en-US', 'en', 'as the English pages are built'],
  ])('<html lang="%s"> → %s (%s)', (lang, expected) => {
    expect(pageLanguage({ lang })).toBe(expected);
  });

  it.each<[string | undefined, string]>([
    ['', 'no lang attribute (document.documentElement.lang is then empty)'],
    ['fr', 'a language the site is not written in'],
    ['fr-CA', 'another language with a region'],
    ['spa', 'a three-letter code'],
    ['es_ES', 'a locale, not a language tag'],
    [' es', 'a space'],
    [undefined, 'no document element'],
  ])('%j (%s) → the default language', (lang) => {
    expect(pageLanguage(lang === undefined ? undefined : { lang })).toBe(DEFAULT_LANGUAGE);
    expect(pageLanguage(null)).toBe(DEFAULT_LANGUAGE);
    expect(pageLanguage({ lang: 42 })).toBe(DEFAULT_LANGUAGE);
  });
});

/** Empty storage, as a first visit has (getItem answers null). */
const emptyStorage = () => ({ getItem: () => null }) as unknown as Storage;

describe('what a form sends', () => {
  afterEach(() => vi.unstubAllGlobals());

  function page(lang: string | undefined): void {
    vi.stubGlobal('window', { location: new URL('https://bayshine.example/es/contacto'), sessionStorage: emptyStorage(), localStorage: emptyStorage() });
    vi.stubGlobal('document', { referrer: '', documentElement: lang === undefined ? undefined : { lang } });
  }

  it('reads the language from the page as the form is sent', () => {
    page('es');
    expect(currentLeadSource().lang).toBe('es');
    page('es-US');
    expect(currentLeadSource().lang).toBe('es');
    page('en');
    expect(currentLeadSource().lang).toBe('en');
    page('fr');
    expect(currentLeadSource().lang).toBe(DEFAULT_LANGUAGE);
    page(undefined);
    expect(currentLeadSource().lang).toBe(DEFAULT_LANGUAGE);
  });

  const contact = { firstName: 'Lucía', lastName: 'Hernández', email: 'lucia@example.com', phone: '(408) 555-0133', message: 'Limpieza profunda' };
  const notification = { firstName: 'Discount', lastName: 'Popup', message: 'Signed up for $25 discount offer' };

  function fakeApi(refuseAttribution = false) {
    const calls: Array<[string, ...unknown[]]> = [];
    const api = {
      insert: async (table: string, row: Record<string, unknown>) => {
        calls.push(['insert', table, row]);
        return { error: refuseAttribution && row['last_gclid'] ? { code: '23514', message: 'check' } : null };
      },
      notify: async (body: unknown) => { calls.push(['notify', body]); return { error: null }; },
      webhook: async (url: string, payload: unknown) => { calls.push(['webhook', url, payload]); },
    } as unknown as LeadApi;
    return { api, calls };
  }

  it('a Spanish quote: lang es in the row, not in the notification', async () => {
    const { api, calls } = fakeApi();
    const source: LeadSource = { ...UNKNOWN_SOURCE, lang: 'es' };
    await expect(submitContactLead(contact, source, api)).resolves.toEqual({ ok: true });
    expect(calls[0]).toEqual(['insert', 'leads', expect.objectContaining({ page: 'contact', lang: 'es' })]);
    expect(calls[1]).toEqual(['notify', { ...contact, page: 'contact' }]);
  });

  it('a Spanish discount sign-up: lang es in the row, not in the notification or the webhook', async () => {
    const { api, calls } = fakeApi();
    await submitDiscountLead({ email: 'sam@example.com', phone: '4085550100' }, '/es', { ...UNKNOWN_SOURCE, lang: 'es' }, notification, api, 'https://hooks.example/x', () => new Date(0));
    expect(calls[0]).toEqual(['insert', 'discount_leads', expect.objectContaining({ page: '/es', lang: 'es' })]);
    expect(calls.slice(1).map((c) => JSON.stringify(c))).not.toContainEqual(expect.stringContaining('lang'));
  });

  it('sent again without a refused attribution, the lead keeps its language', async () => {
    const { api, calls } = fakeApi(true);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const source: LeadSource = { ...UNKNOWN_SOURCE, lang: 'es', last_gclid: 'Cj0', last_touch_at: '2020-01-01T00:00:00.000Z' };
    await expect(submitContactLead(contact, source, api)).resolves.toEqual({ ok: true });
    const inserts = calls.filter((c) => c[0] === 'insert').map((c) => c[2] as Record<string, unknown>);
    expect(inserts.map((r) => [r['lang'], 'last_gclid' in r])).toEqual([['es', true], ['es', false]]);
  });

  it('a source without a language (a caller other than the forms) sends none: the database stores the default', async () => {
    const { api, calls } = fakeApi();
    await submitContactLead(contact, UNKNOWN_SOURCE, api);
    expect(calls[0]![2]).not.toHaveProperty('lang');
  });
});
