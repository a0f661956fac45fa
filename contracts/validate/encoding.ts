/**
 * Content files are UTF-8 text. A byte that is not UTF-8 fails like any other content error, at the
 * line and column of the first such byte: decoding it as U+FFFD would put "Col�ma" on a page. So
 * does a control character (a terminal's colour code or a bell pasted with a text): no page can
 * show it, and in HTML it is a parse error.
 */
import { lineColumn, type ContentError } from '../errors.js';

// A byte-order mark is stripped (ignoreBOM: false): editors on Windows write one, and it is not text.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** C0 controls but tab, line feed and carriage return; DEL; the C1 controls. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** The first control character in a text: where, and what to tell the editor (a file's or the CMS's). */
export function controlCharacter(text: string): { index: number; message: string; hint: string } | undefined {
  const found = CONTROL.exec(text);
  if (!found) return undefined;
  return {
    index: found.index,
    message: `control character U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}, which no page can show`,
    hint: 'delete it (it usually comes with text pasted from a terminal or another program); spaces and line breaks are fine',
  };
}

/** The file's text, or the error at its first byte that is not UTF-8 or first control character. */
export function decodeUtf8(displayFile: string, bytes: Uint8Array): { text: string; error?: undefined } | { text?: undefined; error: ContentError } {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    const bad = firstInvalidByte(bytes);
    // The bytes before the bad one are valid: decode them to count lines and characters.
    const before = decoder.decode(bytes.subarray(0, bad));
    return {
      error: {
        file: displayFile,
        ...lineColumn(before, before.length),
        message: `not valid UTF-8 (byte 0x${bytes[bad]!.toString(16).toUpperCase().padStart(2, '0')})`,
        hint: 'save the file as UTF-8 and retype the character at this position',
      },
    };
  }
  const control = controlCharacter(text);
  if (control) return { error: { file: displayFile, ...lineColumn(text, control.index), message: control.message, hint: control.hint } };
  return { text };
}

/**
 * Offset of the first byte that does not start a well-formed UTF-8 sequence (Unicode table 3-7:
 * no overlong forms, no surrogates, nothing above U+10FFFF), or bytes.length when all are valid.
 */
export function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b < 0x80) length = 1;
    else if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? low : 0x80) || c > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return bytes.length;
}
