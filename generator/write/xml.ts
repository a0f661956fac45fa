/** Text for XML the write stage writes by hand (the feeds, the sitemap). */

/** Characters XML 1.0 forbids (C0 controls but tab, LF, CR; U+FFFE/FFFF; lone surrogates): one makes a whole file unreadable. */
export const xmlClean = (s: string) =>
  s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '');

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text and attribute values alike, its forbidden characters dropped. */
export const xmlText = (s: string) => xmlClean(s).replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
