/**
 * The language a lead was sent in, as the office chat shows it (migration 20261127000000): a lead
 * in another language than the default gets a first line the office cannot miss, "🇪🇸 Spanish —
 * call back in Spanish"; an English lead gets nothing, so its messages stay as they were. The
 * languages and their names are languages.ts; only the flag beside the name is the chat's own.
 */
import { DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, isLang, type Lang } from '../languages.ts';
import { escapeHtml } from './telegramText.ts';

/** Each language's flag beside its name (the default language's is never shown: it gets no line). */
const FLAGS: Record<Lang, string> = { en: '🇺🇸', es: '🇪🇸' };

/**
 * The language of a lead as the database handed it out (private.chat_lead, chat_next's summary):
 * its `lang`, or the default for a value that is none of the languages (the column refuses those;
 * a lead read by a database without the column says none).
 */
export function leadLanguage(lead: { lang?: unknown }): Lang {
  return isLang(lead.lang) ? lead.lang : DEFAULT_LANGUAGE;
}

/**
 * The first line of a message about the lead (its announcement, the edit that says who took it,
 * its reminder): "🇪🇸 <b>Spanish — call back in Spanish</b>"; undefined in the default language.
 */
export function languageLine(lead: { lang?: unknown }): string | undefined {
  const lang = leadLanguage(lead);
  if (lang === DEFAULT_LANGUAGE) return undefined;
  const name = escapeHtml(LANGUAGE_NAMES[lang]);
  return `${FLAGS[lang]} <b>${name} — call back in ${name}</b>`;
}

/** The lead's language in a line of a list (the morning summary): " 🇪🇸 <b>Spanish</b>"; '' in the default language. */
export function languageMark(lead: { lang?: unknown }): string {
  const lang = leadLanguage(lead);
  return lang === DEFAULT_LANGUAGE ? '' : ` ${FLAGS[lang]} <b>${escapeHtml(LANGUAGE_NAMES[lang])}</b>`;
}

/** How many of `leads` are in each language other than the default, in words: "1 in Spanish"; '' when none. */
export function otherLanguagesCount(leads: ReadonlyArray<{ lang?: unknown }>): string {
  return LANGUAGES.filter((lang) => lang !== DEFAULT_LANGUAGE)
    .map((lang) => [lang, leads.filter((lead) => leadLanguage(lead) === lang).length] as const)
    .filter(([, n]) => n > 0)
    .map(([lang, n]) => `${n} in ${escapeHtml(LANGUAGE_NAMES[lang])}`)
    .join(', ');
}
