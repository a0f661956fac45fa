/**
 * The internal URLs a build's pages reference, for the link check: each distinct list once, with
 * the first page that has it. Most pages share one list (every page of a collection links to the same pages),
 * so this stays small however many pages there are.
 */
export class PageLinks {
  /** A list kept → the first page that has it. */
  private readonly firstPage = new Map<readonly string[], string>();
  private readonly byValue = new Map<string, readonly string[]>();

  /**
   * Record a page's URLs; returns the list kept for them (the same array for the same URLs).
   * `cached`: a list of the page cache's index, whose lists all differ, compared by identity only
   * (joining 10,000 of them cost a warm build 0.1 s); a fresh list of the same URLs is then kept
   * twice, which only means the link check reads it twice.
   */
  add(route: string, refs: readonly string[], cached = false): readonly string[] {
    if (this.firstPage.has(refs)) return refs;
    if (cached) {
      this.firstPage.set(refs, route);
      return refs;
    }
    const id = refs.join('\n');
    const known = this.byValue.get(id);
    if (known) return known;
    this.byValue.set(id, refs);
    this.firstPage.set(refs, route);
    return refs;
  }

  /** Another build step's lists added as they are (each already kept once there): compared by identity only, as `cached` ones. */
  merge(other: PageLinks): void {
    for (const [refs, route] of other.firstPage) if (!this.firstPage.has(refs)) this.firstPage.set(refs, route);
  }

  /** Each distinct list with the route of the first page that references it. */
  *lists(): Iterable<[route: string, refs: readonly string[]]> {
    for (const [refs, route] of this.firstPage) yield [route, refs];
  }
}
