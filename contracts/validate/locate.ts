/** Source positions for a field path, computed only for files that have a problem. */
import { isMap, isNode, LineCounter, parseDocument, type Node } from 'yaml';
import type { PathSegment } from '../errors.js';

export interface Locator {
  /** Line and column of the value at path, or of the nearest parent that exists. */
  value(path: readonly PathSegment[]): { line: number; column: number };
  /** Line and column of the key `key` inside the mapping at path. */
  key(path: readonly PathSegment[], key: string): { line: number; column: number };
}

export function locator(yamlText: string, lineOffset: number): Locator {
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter, keepSourceTokens: false });
  const at = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line + lineOffset, column: pos.col };
  };
  const nodeAt = (path: readonly PathSegment[]): Node | undefined => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
      if (isNode(node) && node.range) return node;
    }
    return undefined;
  };
  return {
    value(path) {
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

