/**
 * Whether a Content-Type header names JSON: the media type `application/json`, with optional
 * parameters (RFC 9110, section 8.3.1). `text/plain; x=json` or `multipart/form-data;
 * boundary=json` are not JSON however they are spelled, and a missing header is not either.
 * Used by the function and the local stand-in's REST gateway.
 */

export function isJsonContentType(header: string | null | undefined): boolean {
  // Split, not one regular expression: the header comes from the caller, and a pattern with
  // optional parts repeated over `;` backtracks exponentially on a header built for it.
  const [type = '', ...parameters] = (header ?? '').split(';');
  if (type.trim().toLowerCase() !== 'application/json') return false;
  for (const parameter of parameters) {
    const text = parameter.trim();
    if (text === '') continue;
    const eq = text.indexOf('=');
    if (eq <= 0) return false;
    const name = text.slice(0, eq).trim().toLowerCase();
    const raw = text.slice(eq + 1).trim();
    const value = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    // JSON is UTF-8 (RFC 8259); a body announced in another charset would be misread.
    if (name === 'charset' && value.toLowerCase() !== 'utf-8') return false;
  }
  return true;
}
