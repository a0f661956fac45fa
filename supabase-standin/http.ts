/** Small node:http helpers the local stand-in's parts share. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Answers with `body` as JSON (no body when undefined). */
export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    ...(body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
    'Content-Length': String(Buffer.byteLength(payload)),
  });
  res.end(payload);
}

export class BodyTooLargeError extends Error {}

/** The request body, or BodyTooLargeError past maxBytes (declared or read). */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) {
    req.resume(); // drain, so the client reads the answer instead of a reset
    throw new BodyTooLargeError('Request body too large');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > maxBytes) tooLarge = true; // keep draining so the client gets the answer
    else chunks.push(buf);
  }
  if (tooLarge) throw new BodyTooLargeError('Request body too large');
  return Buffer.concat(chunks);
}

export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Answers with an already serialised JSON text (no body when undefined, e.g. HEAD or 204). */
export function sendJsonText(res: ServerResponse, status: number, json: string | undefined, headers: Record<string, string> = {}, contentType = 'application/json; charset=utf-8'): void {
  const payload = json ?? '';
  res.writeHead(status, {
    ...headers,
    ...(json === undefined ? {} : { 'Content-Type': contentType }),
    'Content-Length': String(Buffer.byteLength(payload)),
  });
  res.end(payload);
}
