/** What the load stage hands on: one content file, parsed but not yet validated. */
import type { z } from 'zod';
import type { kinds, KindName } from './kinds.js';
import type { Lang } from './languages.js';

export interface RawDoc {
  /** Path relative to the project root, posix separators. */
  file: string;
  kind: KindName;
  slug: string;
  /** The YAML text (for Markdown, the front matter only). */
  yaml: string;
  /** Lines before the YAML text starts in the file (1 for Markdown front matter after ---). */
  lineOffset: number;
  /** The parsed data; after validation, the content model's output for this kind. */
  data: unknown;
  /** Markdown body, for Markdown kinds. */
  body?: string;
  /** The language of a translated file (content/es/…); absent for the default language's. */
  lang?: Lang;
}

/** The content model's output for one kind. */
type ContentOf<K extends KindName> = z.output<(typeof kinds)[K]['schema']>;

/** What the validate stage hands on: a document whose data the content model has parsed. */
export type ValidDoc = { [K in KindName]: Omit<RawDoc, 'kind' | 'data'> & { kind: K; data: ContentOf<K> } }[KindName];

export type ValidDocOf<K extends KindName> = Extract<ValidDoc, { kind: K }>;
