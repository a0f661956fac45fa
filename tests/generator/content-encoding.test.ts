/** Content files are UTF-8: anything else is a content error at the first unreadable byte. */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { build } from '../../generator/build.js';
import { checkContent } from '../../generator/build.js';
import { firstInvalidByte } from '../../contracts/validate/encoding.js';
import { ContentErrors, formatError } from '../../contracts/validate/errors.js';
import { problems, ROOT, treeDigest, useContentCopy } from '../helpers/content.js';

const HINT = '\n    hint: save the file as UTF-8 and retype the character at this position';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Replace the first occurrence of `from` in a file's bytes. */
async function patchBytes(file: string, from: string, to: Buffer) {
  const bytes = await readFile(file);
  const at = bytes.indexOf(from);
  expect(at).toBeGreaterThanOrEqual(0);
  await writeFile(file, Buffer.concat([bytes.subarray(0, at), to, bytes.subarray(at + Buffer.byteLength(from))]));
}

describe('file encoding', () => {
  const copy = useContentCopy('encoding-');
  const colma = () => path.join(copy.contentDir, 'cities/colma.yaml');

  it('refuses an invalid UTF-8 byte with file, line, column and a hint', async () => {
    await patchBytes(colma(), 'name: Colma', Buffer.from('name: Col\xffma', 'latin1'));
    expect(await problems(copy.contentDir)).toEqual([`content/cities/colma.yaml:2:10 not valid UTF-8 (byte 0xFF)${HINT}`]);
  });

  it('counts the column in characters, and finds a character cut short', async () => {
    // "Café " is five characters but six bytes; 0xC3 then "(" is a two-byte character cut short.
    await patchBytes(colma(), 'description: Small town', Buffer.concat([Buffer.from('description: Café '), Buffer.from([0xc3]), Buffer.from('( town')]));
    expect(await problems(copy.contentDir)).toEqual([`content/cities/colma.yaml:4:19 not valid UTF-8 (byte 0xC3)${HINT}`]);
  });

  it('reports the bad byte however often the content is loaded (the parse cache holds only valid files)', async () => {
    expect(await problems(copy.contentDir)).toEqual([]);
    await patchBytes(colma(), 'name: Colma', Buffer.from('name: Col\xffma', 'latin1'));
    const expected = [`content/cities/colma.yaml:2:10 not valid UTF-8 (byte 0xFF)${HINT}`];
    expect(await problems(copy.contentDir)).toEqual(expected);
    expect(await problems(copy.contentDir)).toEqual(expected);
  });

  it('refuses a control character (a bell, a terminal colour code) where it is, in YAML and Markdown alike, and keeps tabs', async () => {
    const hint = '\n    hint: delete it (it usually comes with text pasted from a terminal or another program); spaces and line breaks are fine';
    await patchBytes(colma(), 'description: Small town', Buffer.from('description: Small\x07 town'));
    expect(await problems(copy.contentDir)).toEqual([`content/cities/colma.yaml:4:19 control character U+0007, which no page can show${hint}`]);
    await patchBytes(colma(), 'Small\x07 town', Buffer.from('Small\t town'));
    expect(await problems(copy.contentDir)).toEqual([]);
    const policy = path.join(copy.contentDir, 'legal/privacy-policy.md');
    const lines = (await readFile(policy, 'utf8')).split('\n');
    const last = lines.length - 1 - [...lines].reverse().findIndex((l) => l.trim() !== '');
    lines[last] = `\x1b[31m${lines[last]}`;
    await writeFile(policy, lines.join('\n'));
    expect(await problems(copy.contentDir)).toEqual([`content/legal/privacy-policy.md:${last + 1}:1 control character U+001B, which no page can show${hint}`]);
  });

  it('accepts a UTF-8 byte-order mark, as editors write it, and reads the file as without it', async () => {
    const policy = path.join(copy.contentDir, 'legal/privacy-policy.md');
    const { model: before } = await checkContent({ root: copy.dir, contentDir: copy.contentDir });
    for (const file of [colma(), policy]) await writeFile(file, Buffer.concat([BOM, await readFile(file)]));
    const { model: after } = await checkContent({ root: copy.dir, contentDir: copy.contentDir });
    expect(after).toEqual(before);
  });

  it('fails the build and leaves the previous dist/ as it was', async () => {
    const outDir = path.join(copy.dir, 'dist');
    await build({ root: ROOT, contentDir: copy.contentDir, outDir, skipIslands: true });
    const previous = await treeDigest(outDir);
    await patchBytes(colma(), 'name: Colma', Buffer.from('name: Col\xffma', 'latin1'));
    const error = await build({ root: ROOT, contentDir: copy.contentDir, outDir, skipIslands: true }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ContentErrors);
    expect((error as ContentErrors).errors.map(formatError)).toEqual([`content/cities/colma.yaml:2:10 not valid UTF-8 (byte 0xFF)${HINT}`]);
    expect(await treeDigest(outDir)).toEqual(previous);
    expect((await readdir(copy.dir)).sort()).toEqual(['content', 'dist']);
  });
});

describe('the first byte that is not UTF-8', () => {
  it('is where the platform decoder fails: the bytes before it decode, the bytes from it start with U+FFFD', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true });
    const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
    // Mostly valid text with a few random bytes spliced in, where encoding errors hide.
    const bytes = fc.tuple(fc.string({ unit: 'binary', maxLength: 20 }), fc.uint8Array({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 20 }))
      .map(([a, b, c]) => Buffer.concat([Buffer.from(a), b, Buffer.from(c)]));
    fc.assert(
      fc.property(bytes, (b) => {
        const at = firstInvalidByte(b);
        expect(() => fatal.decode(b.subarray(0, at))).not.toThrow();
        if (at === b.length) expect(() => fatal.decode(b)).not.toThrow();
        else expect(lenient.decode(b.subarray(at)).charCodeAt(0)).toBe(0xfffd);
      }),
      { seed: 20250607, numRuns: 2000 },
    );
  });
});
