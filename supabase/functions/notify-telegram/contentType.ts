/**
 * Whether a Content-Type header names JSON: the media type `application/json`, with optional
 * parameters (RFC 9110, section 8.3.1). `text/plain; x=json` or `multipart/form-data;
 * boundary=json` are not JSON however they are spelled, and a missing header is not either.
 * Used by the function and the local stand-in's REST gateway.
 */

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
const PARAMETER = `(${TOKEN})=(${TOKEN}|${QUOTED})`;
const MEDIA_TYPE = new RegExp(`^[ \\t]*(${TOKEN})/(${TOKEN})((?:[ \\t]*;[ \\t]*(?:${PARAMETER})?)*)[ \\t]*$`);
const PARAMETERS = new RegExp(PARAMETER, 'g');

export function isJsonContentType(header: string | null | undefined): boolean {
  const match = MEDIA_TYPE.exec(header ?? '');
  if (!match || `${match[1]}/${match[2]}`.toLowerCase() !== 'application/json') return false;
  for (const [, name, value] of (match[3] ?? '').matchAll(PARAMETERS)) {
    // JSON is UTF-8 (RFC 8259); a body announced in another charset would be misread.
    const unquoted = value!.startsWith('"') ? value!.slice(1, -1).replace(/\\(.)/g, '$1') : value!;
    if (name!.toLowerCase() === 'charset' && unquoted.toLowerCase() !== 'utf-8') return false;
  }
  return true;
}
