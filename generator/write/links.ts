/** Every internal link and asset reference in the rendered pages must resolve (their references are collected at render). */
import type { ContentError } from '../../contracts/errors.js';

interface LinkSource {
  file: string;
  text: string;
  lineOffset: number;
}

/** Broken references, each located in the content file that most likely wrote it. */
export async function brokenLinks(
  refsByRoute: Iterable<[route: string, refs: readonly string[]]>,
  exists: (url: string) => boolean,
  sources: () => Promise<readonly LinkSource[]>,
): Promise<ContentError[]> {
  const errors: ContentError[] = [];
  const reported = new Set<string>();
  let texts: readonly LinkSource[] | undefined;
  for (const [route, refs] of refsByRoute) {
    for (const ref of refs) {
      if (exists(ref) || reported.has(ref)) continue;
      reported.add(ref);
      const origin = locate(ref, (texts ??= await sources()));
      errors.push({
        file: origin?.file ?? `page ${route}`,
        ...(origin && { line: origin.line, column: origin.column }),
        message: `link to ${ref} leads nowhere (first seen on page ${route})`,
        hint: 'internal links must name a page of this site, e.g. /book-online or /contact',
      });
    }
  }
  return errors;
}

function locate(ref: string, sources: readonly LinkSource[]) {
  for (const source of sources) {
    const lines = source.text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      // As YAML writes a link ("/contact", or after a space) and as Markdown does ([text](/contact)).
      const col = lines[i]!.search(new RegExp(`(^|[\\s"'(])${ref.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(["'\\s)#]|$)`));
      if (col >= 0) return { file: source.file, line: i + 1 + source.lineOffset, column: col + 2 };
    }
  }
  return undefined;
}
