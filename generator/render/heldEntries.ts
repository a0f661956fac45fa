/**
 * What a thread keeps of the collection files it read for their cards, for the pages it makes of
 * them next (render/collectionPages.ts).
 */
/** An entry the cards' pass read, checked and found without problems. */
export interface HeldEntry { entry: unknown; card: { slug: string }; digest: string }

/**
 * The entries the cards' pass keeps for the pages' pass in the same thread (by the file as
 * messages name it), so that a file is read and parsed once: up to `maxBytes` of files, past
 * which the pages' pass reads the others again. A render worker's heap is capped, and the texts
 * of 50,000 Markdown files held at once did not fit in it.
 */
export class HeldEntries {
  private readonly entries = new Map<string, HeldEntry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** Keep the entry of a file of `size` bytes, if there is room. */
  hold(file: string, entry: HeldEntry, size: number): void {
    if (this.bytes + size > this.maxBytes) return;
    this.bytes += size;
    this.entries.set(file, entry);
  }

  /** The entry kept for the file, given up by the keeper. */
  take(file: string): HeldEntry | undefined {
    const entry = this.entries.get(file);
    if (entry) this.entries.delete(file);
    return entry;
  }
}

/** The files' bytes whose entries a thread keeps between the two passes: a quarter of a render worker's heap (10,000 files of Markdown in two workers). */
export const HELD_BYTES = 32 * 2 ** 20;
