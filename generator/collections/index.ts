/** Every collection of the site, in sitemap order: their pages come after the other pages'. */
import type { KindName } from '../../contracts/kinds.js';
import { articles } from './articles.js';
import { cities } from './cities.js';
import type { AnyCollection } from './collection.js';

export const COLLECTIONS: readonly AnyCollection[] = [cities, articles];

/** The collection whose folder holds files of this kind, if any. */
export function collectionOf(kind: KindName | undefined): AnyCollection | undefined {
  return COLLECTIONS.find((c) => c.kind === kind);
}
