/**
 * A Markdown file's front matter and body are cut where gray-matter cuts them, though the load
 * hands gray-matter only the text up to the closing delimiter (generator/content/load.ts).
 */
import fc from 'fast-check';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { parseContent } from '../../generator/content/load.js';

/** gray-matter given the whole file, as the load gave it before. */
function whole(text: string) {
  const file = matter(text, { language: 'yaml', engines: { yaml: () => ({}) } });
  return { matter: file.matter, body: file.content };
}

function loaded(text: string) {
  const { doc, error } = parseContent('articles/a.md', 'content/articles/a.md', text);
  if (!doc) throw new Error(`not loaded: ${error?.message}`);
  return { body: doc.body };
}

describe('front matter', () => {
  it('leaves the body gray-matter leaves, whatever follows the closing delimiter', () => {
    const files = [
      '---\ntitle: A\n---\nBody\n', '---\r\ntitle: A\r\n---\r\nBody\r\n', '---\ntitle: A\n---', '---\ntitle: A\n---\n',
      '---\ntitle: A\n----\nBody', '---\ntitle: A\n--- trailing\nBody', '---\ntitle: A\n---\n\n\nBody after blank lines',
      '---\ntitle: A\n---\n---\nA rule as the first line', '---\n\n---\nEmpty front matter'
    ];
    for (const text of files) expect(loaded(text), JSON.stringify(text)).toEqual({ body: whole(text).body });
  });

  it('agrees with gray-matter on random files', () => {
    const line = fc.oneof(fc.constantFrom('---', '----', '--- x', '', '\r', 'title: A', '# c'), fc.string({ maxLength: 8 }));
    fc.assert(fc.property(fc.array(line, { maxLength: 8 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
      const text = `---${eol}${lines.join(eol)}`;
      const { doc } = parseContent('articles/a.md', 'content/articles/a.md', text);
      // Files without a closing delimiter are refused before gray-matter sees them.
      if (doc) expect(doc.body).toBe(whole(text).body);
    }), { numRuns: 2000 });
  });
});
