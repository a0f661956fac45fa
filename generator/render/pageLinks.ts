/**
 * The internal URLs a build's pages reference, for the link check: each distinct list once, with
 * the first page that has it. Most pages share one list (every page of a collection links to the same pages),
 * so this stays small however many pages there are.
 */
export class PageLinks {
  /** A list kept → the first page that has it. */
  private readonly firstPage = new Map<readonly string[], string>();
  private readonly byValue = new Map<string, readonly string[]>();

  /** Record a page's URLs; returns the list kept for them (the same array for the same URLs). */
  add(route: string, refs: readonly string[]): readonly string[] {
    if (this.firstPage.has(refs)) return refs;
    const id = refs.join('\n');
    const known = this.byValue.get(id);
    if (known) return known;
    this.byValue.set(id, refs);
    this.firstPage.set(refs, route);
    return refs;
  }

  /** Each distinct list with the route of the first page that references it. */
  *lists(): Iterable<[route: string, refs: readonly string[]]> {
    for (const [refs, route] of this.firstPage) yield [route, refs];
  }
}
