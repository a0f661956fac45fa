/**
 * A function's JSON request body, read with a size limit and checked the same way everywhere:
 * the Content-Type must name JSON (415), the body may not pass `maxBytes` (413, read no further
 * than that), and it must parse (400). Runs in Deno and Node alike.
 */
import { isJsonContentType } from '../notify-telegram/contentType.ts';

export type JsonBody = { ok: true; value: unknown } | { ok: false; status: 400 | 413 | 415; error: string };

/**
 * A request's or response's body as UTF-8 text, or undefined past `max` bytes: read no further
 * than that, so a body built to exhaust memory costs nothing.
 */
export async function boundedText(message: Request | Response, max: number): Promise<string | undefined> {
  if (Number(message.headers.get('content-length') ?? 0) > max) return undefined;
  const reader = message.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text + decoder.decode();
}

export async function readJsonBody(req: Request, maxBytes: number): Promise<JsonBody> {
  if (!isJsonContentType(req.headers.get('content-type'))) return { ok: false, status: 415, error: 'Content-Type must be application/json' };
  const raw = await boundedText(req, maxBytes);
  if (raw === undefined) return { ok: false, status: 413, error: 'Request body too large' };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false, status: 400, error: 'Request body must be valid JSON' };
  }
}
