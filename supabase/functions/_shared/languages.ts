/**
 * The languages the site is written in, once: the site's pages (contracts/languages.ts), the
 * forms, the leads' `lang` column (its check constraint in supabase/migrations states the same
 * list), the office chat and the inbox all read them from here. It lives beside the edge
 * functions so that `supabase functions deploy` bundles it; it imports nothing.
 */
export const LANGUAGES = ['en', 'es'] as const;
export type Lang = (typeof LANGUAGES)[number];

/** The language of a page or a lead that says none: the English site came first. */
export const DEFAULT_LANGUAGE: Lang = 'en';

/** How the office (chat, inbox, report) names each language: it calls back in it. */
export const LANGUAGE_NAMES: Record<Lang, string> = { en: 'English', es: 'Spanish' };

export const isLang = (value: unknown): value is Lang => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
