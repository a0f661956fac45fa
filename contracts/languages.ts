/**
 * What the site's pages need to know about each language: where its pages and files live, how it
 * is named to browsers and search engines. The list itself is the leads' one
 * (supabase/functions/_shared/languages.ts), so a page and the lead sent from it agree.
 */
import { DEFAULT_LANGUAGE, LANGUAGES, isLang, type Lang } from '../supabase/functions/_shared/languages.js';

export { DEFAULT_LANGUAGE, LANGUAGES, isLang, type Lang };

export interface LanguageInfo {
  /** <html lang>: the language as spoken here. */
  htmlLang: string;
  /** hreflang: the language alone, so searches in it from anywhere find the page. */
  hreflang: string;
  /** og:locale. */
  ogLocale: string;
  /** Where its pages live: '' for the default language, '/es' for Spanish. */
  prefix: string;
  /** Its content files' folder in content/: '' for the default language. */
  folder: string;
}

export const LANGUAGE_INFO: Record<Lang, LanguageInfo> = {
  en: { htmlLang: 'en-US', hreflang: 'en', ogLocale: 'en_US', prefix: '', folder: '' },
  es: { htmlLang: 'es-US', hreflang: 'es', ogLocale: 'es_US', prefix: '/es', folder: 'es' },
};

/** The languages besides the default, each a folder of content/ with the twins of the English files. */
export const TRANSLATIONS: readonly Lang[] = LANGUAGES.filter((l) => l !== DEFAULT_LANGUAGE);

/** hreflang's value for the version shown to everyone else. */
export const X_DEFAULT = 'x-default';
