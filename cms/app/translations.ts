/**
 * The content manager's view of the translated files: content/es/<path> is the Spanish twin of
 * content/<path> (the same file name, the same schema; contracts/languages.ts), and the articles and
 * legal pages have no twin (ENGLISH_ONLY_KINDS). One place that tells a content path's language and
 * kind, for the save check, the publish panel, the local backend and the configuration.
 */
import { ENGLISH_ONLY_KINDS, kindOf, type KindName } from '../../contracts/kinds.js';
import { DEFAULT_LANGUAGE, LANGUAGE_INFO, TRANSLATIONS, type Lang } from '../../contracts/languages.js';

/**
 * The field a new translated city or service is created with: which English file it translates.
 * Its value is the file name the entry gets (Decap's slug, cms/config.ts); it is never written into
 * the file (cms/app/format.ts), which the model would refuse.
 */
export const TWIN_FIELD = 'englishFile';

/** The widget of that field (cms/app/twinWidget.tsx): Decap's relation, asked only of a new entry. */
export const TWIN_WIDGET = 'english-twin';

/** A content file's language, kind, and path in that language's folder. */
export interface ContentPath { lang: Lang; kind: KindName; rel: string }

/**
 * A path relative to content/ ('es/cities/colma.yaml', 'cities/colma.yaml'): its language, its
 * kind and its path inside its language's folder; undefined for a file the generator does not
 * read, and for an English-only kind under a translation's folder (the build refuses it).
 */
export function contentPathOf(rel: string): ContentPath | undefined {
  for (const lang of TRANSLATIONS) {
    const prefix = `${LANGUAGE_INFO[lang].folder}/`;
    if (!rel.startsWith(prefix)) continue;
    const own = rel.slice(prefix.length);
    const kind = kindOf(own);
    return kind && !ENGLISH_ONLY_KINDS.has(kind) ? { lang, kind, rel: own } : undefined;
  }
  const kind = kindOf(rel);
  return kind && { lang: DEFAULT_LANGUAGE, kind, rel };
}

/** The same, for a repository path (content/es/cities/colma.yaml). */
export const repoPathOf = (file: string): ContentPath | undefined => (file.startsWith('content/') ? contentPathOf(file.slice('content/'.length)) : undefined);

/** The repository path of a content file of `lang`, from its path in its language's folder. */
export function fileIn(lang: Lang, rel: string): string {
  const { folder } = LANGUAGE_INFO[lang];
  return `content/${folder ? `${folder}/` : ''}${rel}`;
}

/** A translated file's English twin (content/es/cities/colma.yaml → content/cities/colma.yaml); undefined for an English file. */
export function englishTwinOf(file: string): string | undefined {
  const at = repoPathOf(file);
  return at && at.lang !== DEFAULT_LANGUAGE ? fileIn(DEFAULT_LANGUAGE, at.rel) : undefined;
}

/** The name of a translation's collection beside an English one (cities → cities-es); the English name itself for the default language. */
export const collectionIn = (lang: Lang, english: string): string => (lang === DEFAULT_LANGUAGE ? english : `${english}-${lang}`);
