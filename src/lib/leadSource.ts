/**
 * Which page brought a lead (issue 20), stored with it as `landing_path` (the first page of the
 * visit) and `referrer_path` (the page the visitor came to the form's page from). Both are pages of
 * this site by the rule the database checks (sitePathSchema in leadRules.ts), or null: never a full
 * URL, another site, a query string or a hash. And the language the lead was sent in (`lang`): the
 * language of the form's page, so the office calls back in it.
 *
 * The first page is written once per tab session by the inline font loader
 * (src/scripts/font-loader.js), the one script that runs on every page before anything else; it
 * stores `location.pathname` under LANDING_KEY, as it was, and this module judges it when a form
 * is sent. Loaded with the forms' code (src/lib/leadKit.ts), never by a page that is only read.
 */
import { DEFAULT_LANGUAGE, isLang, type Lang } from '../../supabase/functions/_shared/languages.js';
import { sitePathSchema, type AttributionColumns } from '../../supabase/functions/_shared/leadRules.js';
import { currentAttribution } from './attribution.js';
import { sessionGet } from './sessionStore.js';

/** sessionStorage key of the visit's first page (the font loader spells it out: keep both alike). */
export const LANDING_KEY = 'landing';

/** The pages of issue 20, and the marketing touches of issue 31 (src/lib/attribution.ts). */
export interface LeadSource extends AttributionColumns {
  landing_path: string | null;
  referrer_path: string | null;
  /** The language of the page the form is on (pageLanguage); left out, the database stores DEFAULT_LANGUAGE. */
  lang?: Lang;
}

/** A lead whose source is unknown. */
export const UNKNOWN_SOURCE: LeadSource = { landing_path: null, referrer_path: null };

/**
 * The path of `address` (a URL or a path) when it is a page of the site at `origin`, else null.
 * The query and hash are dropped; another origin, a protocol-relative `//host`, or a path that
 * breaks the rule (upper case, escapes, a file name, too long) give null.
 */
export function sitePath(address: string | null | undefined, origin: string): string | null {
  if (!address || origin === 'null') return null; // an opaque origin (file:) matches every other one
  let url: URL;
  try {
    url = new URL(address, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  return sitePathSchema.safeParse(url.pathname).success ? url.pathname : null;
}

/**
 * The language of a page: its `<html lang>` (document.documentElement.lang) when that names one of
 * the site's languages (languages.ts isLang), else DEFAULT_LANGUAGE. The attribute is a BCP 47 tag,
 * case-insensitive and with an optional region ('en-US' on the English pages, 'es' or 'es-US' on the
 * Spanish ones): its language subtag is what is checked, so 'es-US' and 'ES' are Spanish, while
 * 'fr', 'spa', 'es_ES' or no attribute give the default.
 */
export function pageLanguage(root: { lang?: unknown } | null | undefined = globalThis.document?.documentElement): Lang {
  const tag = typeof root?.lang === 'string' ? root.lang : '';
  const language = tag.split('-', 1)[0]!.toLowerCase();
  return isLang(language) ? language : DEFAULT_LANGUAGE;
}

/** The source of a lead sent from the current page. */
export function currentLeadSource(now: Date = new Date()): LeadSource {
  const { origin } = window.location;
  return {
    landing_path: sitePath(sessionGet(LANDING_KEY), origin),
    referrer_path: sitePath(document.referrer, origin),
    lang: pageLanguage(),
    ...currentAttribution(now),
  };
}
