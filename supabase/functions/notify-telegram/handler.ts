/**
 * notify-telegram: runtime-neutral request handler (Deno edge function on Supabase, Node in the
 * local stand-in and in tests).
 *
 * POST {firstName, lastName, email, phone, message, page} with one of the project's public keys,
 * right after the form stored the same lead. The handler claims that stored lead (see claim.ts)
 * and only then sends it to the Telegram chat, so the function relays nothing that is not in the
 * database and sends each stored lead at most once:
 *   401 no or a wrong key · 405 not POST · 415 not JSON · 413 too large · 400 not a lead
 *   404 no matching unsent lead · 429 too many calls from this client · 502 Telegram failed
 *   503 the database could not be reached · 200 {ok:true} sent
 *   200 {ok:true, delivered:false} Telegram secrets not set
 *
 * The message links to the lead in the staff inbox when the environment has SITE_URL (the site's
 * address, a function secret). A lead claimed while TELEGRAM_BOT_TOKEN / TELEGRAM_CHAT_ID are
 * missing, or whose message Telegram then refuses, stays marked notified, so a replay cannot turn
 * the function into a way to send messages later; a refused or undeliverable message is recorded
 * (record_notification_failure) so that the inbox says "Telegram message failed".
 */
import { inboxLeadUrl } from '../_shared/leadAddress.ts';
import { clientAddress, notifyBodySchema } from '../_shared/leadRules.ts';
import { allKeysAccepted, presentedKeys, publicKeys } from './apiKeys.ts';
import { DatabaseUnavailableError, type ClaimedLead, type ClaimLead, type RecordFailure } from './claim.ts';
import { isJsonContentType } from './contentType.ts';
import { buildTelegramText } from './telegramText.ts';

const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
};

/** Largest request body accepted, in bytes (the longest valid body is well under 32 KB). */
const MAX_BODY_BYTES = 32 * 1024;
const TELEGRAM_TIMEOUT_MS = 10_000;

export interface HandlerDeps {
  /** The function's environment: TELEGRAM_*, SITE_URL, and the project's public keys (apiKeys.ts). */
  env: (name: string) => string | undefined;
  fetch: typeof fetch;
  claim: ClaimLead;
  recordFailure: RecordFailure;
  log?: (msg: string) => void;
}

export type NotifyResponseBody =
  | { ok: true; delivered?: boolean; probe?: true }
  | { ok: false; error: string; issues?: Array<{ path: string; message: string }> };

function json(status: number, body: NotifyResponseBody, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS_HEADERS, ...headers, 'Content-Type': 'application/json; charset=utf-8' },
  });
}

class BodyTooLargeError extends Error {}

/** The body as text, refusing more than `max` bytes without reading them all. */
async function readText(req: Request, max: number): Promise<string> {
  if (Number(req.headers.get('content-length') ?? 0) > max) throw new BodyTooLargeError();
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** The going-live check's test message. */
export const TEST_MESSAGE = '✅ Test message from the going-live check (npm run doctor): the bot can post here, so new leads will arrive in this chat.';

export function createHandler(deps: HandlerDeps): (req: Request) => Promise<Response> {
  const log = deps.log ?? ((msg: string) => console.log(msg));

  /** The inbox's address of the lead, when SITE_URL is set and usable. */
  function inboxUrl(lead: ClaimedLead): string | undefined {
    const siteUrl = deps.env('SITE_URL')?.trim();
    if (!siteUrl) return undefined;
    const url = inboxLeadUrl(siteUrl, lead);
    if (url === undefined) log('[notify-telegram] SITE_URL is not an http(s) address: the message goes without a link to the inbox');
    return url;
  }

  /** Marks the lead's message as failed for the inbox; a failure to do so is logged, not answered. */
  async function recordFailure(lead: ClaimedLead): Promise<void> {
    try {
      await deps.recordFailure(lead);
    } catch (err) {
      log(`[notify-telegram] the failed message could not be recorded for the inbox: ${err instanceof Error ? err.message : 'error'}`);
    }
  }

  /** Posts `text` to the office chat; says what happened, never logs the token. */
  async function postToChat(token: string, chatId: string, text: string): Promise<'sent' | 'unreachable' | 'rejected'> {
    const apiBase = (deps.env('TELEGRAM_API_URL')?.trim() || 'https://api.telegram.org').replace(/\/+$/, '');
    let tgRes: Response;
    try {
      tgRes = await deps.fetch(`${apiBase}/bot${token}/sendMessage`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ chat_id: chatId, text, parse_mode: 'HTML', link_preview_options: { is_disabled: true } }),
        signal: AbortSignal.timeout(TELEGRAM_TIMEOUT_MS),
      });
    } catch (err) {
      // Never log the URL: it contains the bot token.
      log(`[notify-telegram] Telegram request failed: ${err instanceof Error ? err.name : 'error'}`);
      return 'unreachable';
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
      return 'rejected';
    }
    return 'sent';
  }

  /**
   * The going-live check's one announced test message (`npm run doctor` with the service role
   * key): no lead is involved, so it proves the secrets and the bot's place in the chat alone.
   */
  async function testMessage(req: Request): Promise<Response> {
    if (req.method !== 'POST') return json(405, { ok: false, error: 'Method not allowed' }, { Allow: 'POST, OPTIONS' });
    let body: unknown;
    try {
      body = JSON.parse(await readText(req, MAX_BODY_BYTES));
    } catch {
      return json(400, { ok: false, error: 'Request body must be valid JSON' });
    }
    if (typeof body !== 'object' || body === null || (body as { test?: unknown }).test !== true) {
      return json(400, { ok: false, error: 'With the service role key, only {"test": true} is accepted' });
    }
    const token = deps.env('TELEGRAM_BOT_TOKEN')?.trim();
    const chatId = deps.env('TELEGRAM_CHAT_ID')?.trim();
    if (!token || !chatId) return json(200, { ok: true, delivered: false });
    const sent = await postToChat(token, chatId, TEST_MESSAGE);
    if (sent !== 'sent') return json(502, { ok: false, error: sent === 'unreachable' ? 'Could not reach Telegram' : 'Telegram rejected the message' });
    return json(200, { ok: true, delivered: true });
  }

  return async function handle(req: Request): Promise<Response> {
    try {
      if (req.method === 'OPTIONS') {
        return new Response(null, { status: 204, headers: { ...CORS_HEADERS, 'Access-Control-Max-Age': '86400' } });
      }
      // The key first, whatever the method: a caller without one learns nothing else.
      const presented = presentedKeys((name) => req.headers.get(name));
      const serviceKey = deps.env('SUPABASE_SERVICE_ROLE_KEY')?.trim();
      if (serviceKey && (await allKeysAccepted(presented, [serviceKey]))) return await testMessage(req);
      if (!(await allKeysAccepted(presented, publicKeys(deps.env)))) {
        return json(401, { ok: false, error: 'Invalid API key' });
      }
      if (req.method !== 'POST') {
        return json(405, { ok: false, error: 'Method not allowed' }, { Allow: 'POST, OPTIONS' });
      }
      if (!isJsonContentType(req.headers.get('content-type'))) {
        return json(415, { ok: false, error: 'Content-Type must be application/json' });
      }

      let raw: string;
      try {
        raw = await readText(req, MAX_BODY_BYTES);
      } catch (err) {
        if (err instanceof BodyTooLargeError) return json(413, { ok: false, error: 'Request body too large' });
        throw err;
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

      const claimed = await deps.claim(parsed.data, clientAddress((name) => req.headers.get(name)));
      if (claimed === 'rate_limited') {
        return json(429, { ok: false, error: 'Too many notifications from this address, please try again later' });
      }
      if (claimed === 'not_found') {
        return json(404, { ok: false, error: 'No lead stored in the last minutes matches, or it was already notified' });
      }
      // A lead of the lead probe or the going-live check: the path is proven, the office is not told.
      if (claimed.probe) return json(200, { ok: true, delivered: false, probe: true });

      const token = deps.env('TELEGRAM_BOT_TOKEN')?.trim();
      const chatId = deps.env('TELEGRAM_CHAT_ID')?.trim();
      if (!token || !chatId) {
        // Names of the missing secrets only: the visitor's details stay in the database.
        const missing = [!token && 'TELEGRAM_BOT_TOKEN', !chatId && 'TELEGRAM_CHAT_ID'].filter(Boolean).join(' and ');
        log(`[notify-telegram] ${missing} not set: a new lead (page ${parsed.data.page}) is stored and marked notified, but no message was sent`);
        return json(200, { ok: true, delivered: false });
      }

      const sent = await postToChat(token, chatId, buildTelegramText(parsed.data, inboxUrl(claimed)));
      if (sent !== 'sent') {
        await recordFailure(claimed);
        return json(502, { ok: false, error: sent === 'unreachable' ? 'Could not reach Telegram' : 'Telegram rejected the message' });
      }
      return json(200, { ok: true });
    } catch (err) {
      if (err instanceof DatabaseUnavailableError) {
        // The cause only (databaseError's message names no visitor value): the lead, if stored,
        // stays unclaimed, and a later call can still send it.
        log(`[notify-telegram] ${err.message}; answered 503`);
        return json(503, { ok: false, error: 'The database is unavailable, please try again in a minute' }, { 'Retry-After': '60' });
      }
      log(`[notify-telegram] unexpected error: ${err instanceof Error ? err.message : String(err)}`);
      return json(500, { ok: false, error: 'Internal error' });
    }
  };
}
