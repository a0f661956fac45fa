/**
 * notify-telegram: runtime-neutral request handler (Deno edge function on Supabase,
 * Node in the local backend and in tests).
 *
 * POST {firstName, lastName, email, phone, message, page} -> Telegram sendMessage (HTML).
 * Without TELEGRAM_BOT_TOKEN / TELEGRAM_CHAT_ID it runs in "dry" mode: logs the message it
 * would send and answers 200 {ok:true, delivered:false}.
 *
 * Only imports zod (mapped to npm:zod in deno.json) so the same file runs in both runtimes.
 */
import { z } from 'zod';

export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
};

/** Largest request body accepted, in bytes (the longest valid body is well under 8 KB). */
export const MAX_BODY_BYTES = 32 * 1024;
/** Telegram rejects texts over 4096 characters; the message part is cut to stay below it. */
const MAX_MESSAGE_CHARS_IN_TELEGRAM = 3000;
const TELEGRAM_TIMEOUT_MS = 10_000;

const text = (max: number) => z.string().trim().min(1).max(max);

/** Body sent by the contact form and the discount popup (spec section 7). */
export const notifyBodySchema = z.object({
  firstName: text(100),
  lastName: text(100),
  email: z
    .string()
    .trim()
    .max(254)
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Invalid email address'),
  phone: text(40),
  message: text(5000),
  page: text(200),
});

export type NotifyBody = z.infer<typeof notifyBodySchema>;

export interface HandlerDeps {
  env: (name: string) => string | undefined;
  fetch: typeof fetch;
  log?: (msg: string) => void;
}

export type NotifyResponseBody =
  | { ok: true; delivered?: false }
  | { ok: false; error: string; issues?: Array<{ path: string; message: string }> };

/** Escape text for Telegram HTML parse mode. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function truncate(value: string, max: number): string {
  const chars = Array.from(value); // code points, never splits a surrogate pair
  return chars.length <= max ? value : `${chars.slice(0, max).join('')}…`;
}

/** The Telegram message (HTML parse mode); every user-supplied value is escaped. */
export function buildTelegramText(body: NotifyBody): string {
  const e = escapeHtml;
  return [
    `<b>New lead</b> from <code>${e(body.page)}</code>`,
    '',
    `<b>Name:</b> ${e(body.firstName)} ${e(body.lastName)}`,
    `<b>Email:</b> ${e(body.email)}`,
    `<b>Phone:</b> ${e(body.phone)}`,
    '',
    '<b>Message:</b>',
    e(truncate(body.message, MAX_MESSAGE_CHARS_IN_TELEGRAM)),
  ].join('\n');
}

function json(status: number, body: NotifyResponseBody): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS_HEADERS, 'Content-Type': 'application/json; charset=utf-8' },
  });
}

export function createHandler(deps: HandlerDeps): (req: Request) => Promise<Response> {
  const log = deps.log ?? ((msg: string) => console.log(msg));

  return async function handle(req: Request): Promise<Response> {
    try {
      if (req.method === 'OPTIONS') {
        return new Response(null, { status: 204, headers: { ...CORS_HEADERS, 'Access-Control-Max-Age': '86400' } });
      }
      if (req.method !== 'POST') {
        const res = json(405, { ok: false, error: 'Method not allowed' });
        res.headers.set('Allow', 'POST, OPTIONS');
        return res;
      }

      const raw = await req.text();
      if (new TextEncoder().encode(raw).length > MAX_BODY_BYTES) {
        return json(413, { ok: false, error: 'Request body too large' });
      }
      let input: unknown;
      try {
        input = JSON.parse(raw);
      } catch {
        return json(400, { ok: false, error: 'Request body must be valid JSON' });
      }
      const parsed = notifyBodySchema.safeParse(input);
      if (!parsed.success) {
        return json(400, {
          ok: false,
          error: 'Invalid request body',
          issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        });
      }

      const message = buildTelegramText(parsed.data);
      const token = deps.env('TELEGRAM_BOT_TOKEN')?.trim();
      const chatId = deps.env('TELEGRAM_CHAT_ID')?.trim();
      if (!token || !chatId) {
        const missing = [!token && 'TELEGRAM_BOT_TOKEN', !chatId && 'TELEGRAM_CHAT_ID'].filter(Boolean).join(', ');
        log(`[notify-telegram] ${missing} not set; not sending. Message would be:\n${message}`);
        return json(200, { ok: true, delivered: false });
      }

      const apiBase = (deps.env('TELEGRAM_API_URL')?.trim() || 'https://api.telegram.org').replace(/\/+$/, '');
      let tgRes: Response;
      try {
        tgRes = await deps.fetch(`${apiBase}/bot${token}/sendMessage`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            chat_id: chatId,
            text: message,
            parse_mode: 'HTML',
            link_preview_options: { is_disabled: true },
          }),
          signal: AbortSignal.timeout(TELEGRAM_TIMEOUT_MS),
        });
      } catch (err) {
        // Never log the URL: it contains the bot token.
        log(`[notify-telegram] Telegram request failed: ${err instanceof Error ? err.name : 'error'}`);
        return json(502, { ok: false, error: 'Could not reach Telegram' });
      }

      let tgBody: unknown = null;
      try {
        tgBody = await tgRes.json();
      } catch {
        tgBody = null;
      }
      const tgOk = typeof tgBody === 'object' && tgBody !== null && (tgBody as { ok?: unknown }).ok === true;
      if (!tgRes.ok || !tgOk) {
        const description =
          typeof tgBody === 'object' && tgBody !== null && typeof (tgBody as { description?: unknown }).description === 'string'
            ? (tgBody as { description: string }).description
            : 'no description';
        log(`[notify-telegram] Telegram answered ${tgRes.status}: ${description}`);
        return json(502, { ok: false, error: 'Telegram rejected the message' });
      }
      return json(200, { ok: true });
    } catch (err) {
      log(`[notify-telegram] unexpected error: ${err instanceof Error ? err.message : String(err)}`);
      return json(500, { ok: false, error: 'Internal error' });
    }
  };
}
