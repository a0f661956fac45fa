/** Source positions for a field path, computed only for files that have a problem. */
import { isMap, isNode, LineCounter, parseDocument, type Node } from 'yaml';
import type { PathSegment } from '../errors.js';

export interface Locator {
  /** Line and column of the value at path, or of the nearest parent that exists. */
  value(path: readonly PathSegment[]): { line: number; column: number };
  /** Line and column of the key `key` inside the mapping at path. */
  key(path: readonly PathSegment[], key: string): { line: number; column: number };
}

/**
 * A top-level key's value written on its own line as a plain or quoted scalar (`description: A
 * text`), where the careful parse would put it too: found by a look at the text. Hundreds of
 * warnings about one field (a description used twice) then cost no parse each. Anything else
 * (a block scalar, an anchor or tag, a key written twice) is left to the parse.
 */
function topLevelValue(yamlText: string, key: string): number | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`^${escaped}[ \\t]*:[ \\t]+(?=[^\\s|>&!#])`, 'gm');
  const first = found.exec(yamlText);
  if (!first || found.exec(yamlText)) return undefined;
  return first.index + first[0].length;
}

export function locator(yamlText: string, lineOffset: number): Locator {
  // Parsed only when a position needs it (topLevelValue answers the common case).
  let parsed: { doc: ReturnType<typeof parseDocument>; lineCounter: LineCounter } | undefined;
  const parse = () => {
    if (!parsed) {
      const lineCounter = new LineCounter();
      parsed = { doc: parseDocument(yamlText, { lineCounter, keepSourceTokens: false }), lineCounter };
    }
    return parsed;
  };
  const at = (offset: number) => {
    const pos = parse().lineCounter.linePos(offset);
    return { line: pos.line + lineOffset, column: pos.col };
  };
  const nodeAt = (path: readonly PathSegment[]): Node | undefined => {
    const { doc } = parse();
    for (let depth = path.length; depth >= 0; depth--) {
      const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
      if (isNode(node) && node.range) return node;
    }
    return undefined;
  };
  return {
    value(path) {
      const quick = path.length === 1 && typeof path[0] === 'string' ? topLevelValue(yamlText, path[0]) : undefined;
      if (quick !== undefined) {
        const before = yamlText.slice(0, quick);
        const line = before.split('\n').length;
        return { line: line + lineOffset, column: quick - before.lastIndexOf('\n') };
      }
      const node = nodeAt(path);
      return at(node?.range?.[0] ?? 0);
    },
    key(path, key) {
      const node = nodeAt(path);
      if (isMap(node)) {
        for (const pair of node.items) {
          if (isNode(pair.key) && String((pair.key as { value?: unknown }).value) === key && pair.key.range) {
            return at(pair.key.range[0]);
          }
        }
      }
      return at(node?.range?.[0] ?? 0);
    },
  };
}

