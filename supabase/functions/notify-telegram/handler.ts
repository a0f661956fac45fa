/**
 * notify-telegram: runtime-neutral request handler (Deno edge function on Supabase, Node in the
 * local stand-in and in tests). Three callers:
 *
 * - The visitor's browser, right after the form stored a lead: POST {firstName, lastName, email,
 *   phone, message, page} with one of the project's public keys. The handler claims that stored lead
 *   (claim.ts), then sends what the outbox holds, in order (the lead's own message among them):
 *     401 no or a wrong key · 405 not POST · 415 not JSON · 413 too large · 400 not a lead
 *     404 no matching unclaimed lead · 429 too many calls from this client
 *     503 the database could not be reached · 200 {ok:true, sent, waiting?}
 *   A message Telegram does not take now stays in the outbox: the scheduled run retries it.
 * - The scheduled run, every minute (pg_cron → pg_net, migration 20261126000000): POST {"run": true}
 *   with the run's secret from Vault (or the service role key): adds the reminders and the morning
 *   summary that are due (_shared/chat/office.ts, by the hours at SITE_URL/office-hours.json), then
 *   sends what waits. 200 {ok, sent}.
 * - The going-live check (`npm run doctor`): the service role key and {"test": true}: one test message.
 *
 * Messages link to the lead in the staff inbox when the environment has SITE_URL. Without
 * TELEGRAM_BOT_TOKEN / TELEGRAM_CHAT_ID nothing is sent and the log names the missing secrets;
 * the leads wait in the outbox until they are set (and the inbox shows every lead either way).
 */
import { DatabaseUnavailableError, type FunctionDeps } from '../_shared/chat/database.ts';
import { boundedText, readJsonBody } from '../_shared/requestBody.ts';
import { planOfficeMessages } from '../_shared/chat/office.ts';
import { readOfficeHours } from '../_shared/chat/officeHoursSource.ts';
import { pumpFromEnv, type PumpResult } from '../_shared/chat/pump.ts';
import { missingTelegramSecrets, telegramFromEnv } from '../_shared/chat/telegramApi.ts';
import { clientAddress, notifyBodySchema } from '../_shared/leadRules.ts';
import { allKeysAccepted, presentedKeys, publicKeys } from './apiKeys.ts';
import { claimLead } from './claim.ts';

const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
};

/** Largest request body accepted, in bytes (the longest valid body is well under 32 KB). */
const MAX_BODY_BYTES = 32 * 1024;

/** The environment names TELEGRAM_*, SITE_URL and the project's public keys (apiKeys.ts). */
export type HandlerDeps = FunctionDeps;

export type NotifyResponseBody =
  | { ok: true; delivered?: boolean; probe?: true; sent?: number; waiting?: PumpResult['waiting'] }
  | { ok: false; error: string; issues?: Array<{ path: string; message: string }> };

function json(status: number, body: NotifyResponseBody, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS_HEADERS, ...headers, 'Content-Type': 'application/json; charset=utf-8' },
  });
}

/** The going-live check's test message. */
export const TEST_MESSAGE = '✅ Test message from the going-live check (npm run doctor): the bot can post here, so new leads will arrive in this chat.';

/** The run secret's length (the migration makes 96 hex digits); shorter keys are not looked up. */
const RUN_SECRET_MIN_LENGTH = 64;

export function createHandler(deps: HandlerDeps): (req: Request) => Promise<Response> {
  const log = deps.log ?? ((msg: string) => console.log(msg));
  const now = deps.now ?? (() => new Date());
  /** The run's secret, read from Vault once per instance (public.chat_run_secret). */
  let runSecret: string | null | undefined;

  const pump = () => pumpFromEnv({ ...deps, now, log });

  async function isRunSecret(presented: readonly string[]): Promise<boolean> {
    if (presented.length === 0 || presented.some((key) => key.length < RUN_SECRET_MIN_LENGTH)) return false;
    if (runSecret === undefined) {
      const secret = await deps.rpc('chat_run_secret', {});
      runSecret = typeof secret === 'string' && secret.length >= RUN_SECRET_MIN_LENGTH ? secret : null;
    }
    return runSecret !== null && (await allKeysAccepted(presented, [runSecret]));
  }

  /** The scheduled run: what waits in the outbox goes out. */
  async function run(): Promise<Response> {
    await deps.rpc('chat_run_started', { p_now: now().toISOString() });
    // Reminders and the morning summary join the outbox first, by the hours the site publishes.
    const settings = await readOfficeHours(deps.env('SITE_URL'), deps.fetch);
    await planOfficeMessages({ rpc: deps.rpc, now, settings, log });
    const missing = missingTelegramSecrets(deps.env);
    if (missing.length > 0) log(`[notify-telegram] ${missing.join(' and ')} not set: messages wait in the outbox`);
    const result = await pump();
    return json(200, { ok: true, sent: result.sent, ...(result.waiting && { waiting: result.waiting }) });
  }

  /**
   * The service role's calls: the going-live check's one announced test message (`npm run doctor`
   * with the service role key: no lead is involved, so it proves the secrets and the bot's place in
   * the chat alone), or a run.
   */
  async function serviceCall(req: Request, allowed: ReadonlySet<'test' | 'run'>): Promise<Response> {
    if (req.method !== 'POST') return json(405, { ok: false, error: 'Method not allowed' }, { Allow: 'POST, OPTIONS' });
    let body: { test?: unknown; run?: unknown } | null | undefined;
    try {
      body = JSON.parse((await boundedText(req, MAX_BODY_BYTES)) ?? '');
    } catch {
      body = undefined;
    }
    if (allowed.has('run') && body?.run === true) return run();
    if (!allowed.has('test') || body?.test !== true) {
      return json(400, { ok: false, error: allowed.has('test') ? 'With the service role key, only {"test": true} or {"run": true} is accepted' : 'Only {"run": true} is accepted' });
    }
    const chat = telegramFromEnv(deps.env, deps.fetch);
    if (!chat) return json(200, { ok: true, delivered: false });
    const answer = await chat.telegram.call('sendMessage', { chat_id: chat.chatId, text: TEST_MESSAGE });
    if (!answer.ok) {
      log(`[notify-telegram] test message: ${answer.description}`);
      return json(502, { ok: false, error: answer.description.includes('could not be reached') ? 'Could not reach Telegram' : 'Telegram rejected the message' });
    }
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
      if (serviceKey && (await allKeysAccepted(presented, [serviceKey]))) return await serviceCall(req, new Set(['test', 'run']));
      if (!(await allKeysAccepted(presented, publicKeys(deps.env)))) {
        if (await isRunSecret(presented)) return await serviceCall(req, new Set(['run']));
        return json(401, { ok: false, error: 'Invalid API key' });
      }
      if (req.method !== 'POST') {
        return json(405, { ok: false, error: 'Method not allowed' }, { Allow: 'POST, OPTIONS' });
      }
      const read = await readJsonBody(req, MAX_BODY_BYTES);
      if (!read.ok) return json(read.status, { ok: false, error: read.error });
      const parsed = notifyBodySchema.safeParse(read.value);
      if (!parsed.success) {
        return json(400, {
          ok: false,
          error: 'Invalid request body',
          issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        });
      }

      const claimed = await claimLead(deps.rpc, parsed.data, clientAddress((name) => req.headers.get(name)));
      if (claimed === 'rate_limited') {
        return json(429, { ok: false, error: 'Too many notifications from this address, please try again later' });
      }
      if (claimed === 'not_found') {
        return json(404, { ok: false, error: 'No lead stored in the last minutes matches, or it was already notified' });
      }
      // A lead of the lead probe or the going-live check: the path is proven, the office is not told.
      if (claimed.probe) return json(200, { ok: true, delivered: false, probe: true });

      const missing = missingTelegramSecrets(deps.env);
      if (missing.length > 0) {
        // Names of the missing secrets only: the visitor's details stay in the database.
        log(`[notify-telegram] ${missing.join(' and ')} not set: a new lead (page ${parsed.data.page}) is stored and waits in the outbox; no message was sent`);
        return json(200, { ok: true, delivered: false });
      }
      const result = await pump();
      return json(200, { ok: true, sent: result.sent, ...(result.waiting && { waiting: result.waiting }) });
    } catch (err) {
      if (err instanceof DatabaseUnavailableError) {
        // The cause only (databaseError's message names no visitor value): the lead, if stored, is
        // in the outbox, and the scheduled run sends it.
        log(`[notify-telegram] ${err.message}; answered 503`);
        return json(503, { ok: false, error: 'The database is unavailable, please try again in a minute' }, { 'Retry-After': '60' });
      }
      log(`[notify-telegram] unexpected error: ${err instanceof Error ? err.message : String(err)}`);
      return json(500, { ok: false, error: 'Internal error' });
    }
  };
}
