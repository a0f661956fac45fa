/**
 * `npm run lead-probe`: one quote request through production exactly as a visitor's browser sends
 * it (the REST insert with the anon key, then the notification call, with the forms' own client:
 * src/lib/leads.ts), then, with the service role key, proof that it was stored and claimed for
 * notification, a check that the bot may still post to the office chat (no message sent), and the
 * lead deleted. GitHub Actions runs it every hour (.github/workflows/lead-probe.yml): a broken
 * lead path is noticed within the hour, and the traffic keeps a free Supabase project awake.
 *
 * The lead carries a one-time token the service role asked for (migration 20261125000200), so the
 * database marks it a probe: the inbox never shows it and notify-telegram sends nothing for it.
 * On failure the probe alerts the office chat when Telegram itself works, and exits 1 (GitHub then
 * emails the repository's owner: the second channel, for when Telegram is what broke).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { CONTACT_PAGE, type LeadRow, type NotifyBody } from '../supabase/functions/_shared/leadRules.js';
import { supabaseLeadApi } from '../src/lib/leads.js';
import { createNodeClient } from '../staff/supabaseNode.js';
import { checkBotCanPost, sendAlert, type TelegramSettings } from './telegram.js';

export interface ProbeSettings {
  supabaseUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  telegram: TelegramSettings;
}

/** What the probe needs from the environment (the workflow's secrets), or the names missing. */
export function probeSettings(env: Record<string, string | undefined>): ProbeSettings {
  const names = ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY', 'TELEGRAM_BOT_TOKEN', 'TELEGRAM_CHAT_ID'] as const;
  const missing = names.filter((n) => !env[n]?.trim());
  if (missing.length) throw new Error(`npm run lead-probe needs ${missing.join(', ')} (docs/going-live.md#the-hourly-lead-probe)`);
  const value = (n: (typeof names)[number]) => env[n]!.trim();
  return {
    supabaseUrl: value('SUPABASE_URL').replace(/\/+$/, ''),
    anonKey: value('SUPABASE_ANON_KEY'),
    serviceRoleKey: value('SUPABASE_SERVICE_ROLE_KEY'),
    telegram: { token: value('TELEGRAM_BOT_TOKEN'), chatId: value('TELEGRAM_CHAT_ID'), apiUrl: env.TELEGRAM_API_URL },
  };
}

/** One step's outcome, as printed: what was checked, then OK or what went wrong. */
export interface StepResult { step: string; ok: boolean; detail?: string }

const errorText = (error: unknown) => {
  if (error instanceof Error) return error.message;
  const e = error as { message?: unknown; code?: unknown } | null;
  return e && typeof e.message === 'string' ? `${e.message}${typeof e.code === 'string' ? ` (${e.code})` : ''}` : String(error);
};

/** The quote the probe sends: valid by the forms' rules, and saying what it is to anyone who reads it. */
function probeLead(token: string): LeadRow {
  return {
    first_name: 'Lead',
    last_name: 'Probe',
    email: 'lead-probe@example.com',
    phone: '(408) 555-0100',
    message: `Automated hourly check of the quote form, not a customer (lead probe ${token}).`,
    page: CONTACT_PAGE,
    landing_path: '/contact',
    referrer_path: null,
  };
}

const notifyBody = (lead: LeadRow): NotifyBody => ({
  firstName: lead.first_name, lastName: lead.last_name, email: lead.email, phone: lead.phone, message: lead.message, page: lead.page,
});

export async function runLeadProbe(settings: ProbeSettings, report: (r: StepResult) => void = () => {}): Promise<StepResult[]> {
  const results: StepResult[] = [];
  const record = (r: StepResult) => { results.push(r); report(r); return r.ok; };
  const service = createNodeClient(settings.supabaseUrl, settings.serviceRoleKey);
  const visitor = supabaseLeadApi(createNodeClient(settings.supabaseUrl, settings.anonKey));
  let storedId: string | undefined;
  try {
    const token = await service.rpc('issue_probe_token');
    if (!record({ step: 'the database answers and has the probe migration', ok: !token.error && typeof token.data === 'string', ...(token.error && { detail: errorText(token.error) }) })) return results;
    const lead = probeLead(token.data as string);

    const inserted = await visitor.insert('leads', lead);
    if (!record({ step: 'a visitor\'s quote request is stored (REST insert with the anon key)', ok: !inserted.error, ...(inserted.error ? { detail: errorText(inserted.error) } : {}) })) return results;
    storedId = await storedLeadId(service, lead);

    const notified = await notify(settings, notifyBody(lead));
    record({ step: 'notify-telegram claims it (the call the form makes next)', ok: notified.ok, ...(notified.detail && { detail: notified.detail }) });

    const stored = storedId ? await service.from('leads').select('probe, notified_at').eq('id', storedId).single() : undefined;
    const claimed = stored?.data as { probe: boolean; notified_at: string | null } | null | undefined;
    record({
      step: 'the lead is in the database, marked a probe and claimed for notification',
      ok: Boolean(claimed?.probe && claimed.notified_at),
      ...(!claimed?.probe || !claimed.notified_at ? { detail: storedId ? `stored, but probe=${claimed?.probe} notified_at=${claimed?.notified_at ?? null}` : 'not found with the service role key' } : {}),
    });
  } catch (err) {
    record({ step: 'the lead path', ok: false, detail: errorText(err) });
  } finally {
    if (storedId) {
      const { error } = await service.from('leads').delete().eq('id', storedId);
      record({ step: 'the probe\'s lead is deleted', ok: !error, ...(error && { detail: errorText(error) }) });
    }
  }
  await checkBotCanPost(settings.telegram).then(
    () => record({ step: 'the bot may post to the office chat (getChatMember; nothing sent)', ok: true }),
    (err: unknown) => record({ step: 'the bot may post to the office chat (getChatMember; nothing sent)', ok: false, detail: errorText(err) }),
  );
  return results;
}

/** The probe lead's id, read back with the service role (a visitor cannot read it). */
async function storedLeadId(service: SupabaseClient, lead: LeadRow): Promise<string | undefined> {
  const { data } = await service.from('leads').select('id').eq('message', lead.message).limit(1);
  return (data?.[0] as { id?: string } | undefined)?.id;
}

/** The notification call as the form makes it, with its answer read (the form ignores it). */
async function notify(settings: ProbeSettings, body: NotifyBody): Promise<{ ok: boolean; detail?: string }> {
  let res: Response;
  try {
    res = await fetch(`${settings.supabaseUrl}/functions/v1/notify-telegram`, {
      method: 'POST',
      headers: { apikey: settings.anonKey, Authorization: `Bearer ${settings.anonKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    return { ok: false, detail: `no answer (${errorText(err)})` };
  }
  const answer = (await res.json().catch(() => ({}))) as { ok?: boolean; probe?: boolean; error?: string };
  if (res.status === 200 && answer.ok && answer.probe) return { ok: true };
  return { ok: false, detail: `HTTP ${res.status}${answer.error ? `: ${answer.error}` : ''}${res.status === 200 && !answer.probe ? ' (the deployed function does not know probe leads: deploy it again)' : ''}` };
}

/** The command: prints a line per step, alerts the office chat on failure, exit code 1 if anything failed. */
export async function leadProbeCommand(env: Record<string, string | undefined>, out: (line: string) => void): Promise<number> {
  const settings = probeSettings(env);
  const results = await runLeadProbe(settings, (r) => out(`${r.ok ? 'OK  ' : 'FAIL'} ${r.step}${r.detail ? `: ${r.detail}` : ''}`));
  const failed = results.filter((r) => !r.ok);
  if (!failed.length) return 0;
  const telegramBroken = failed.some((r) => r.step.startsWith('the bot may post'));
  if (!telegramBroken) {
    const text = `⚠️ The hourly lead probe failed: ${failed.map((r) => `${r.step}${r.detail ? ` (${r.detail})` : ''}`).join('; ')}. Quote requests may not be reaching you. What to check: docs/going-live.md, "The hourly lead probe".`;
    await sendAlert(settings.telegram, text).then(
      () => out('Alert sent to the office chat.'),
      (err: unknown) => out(`Could not alert the office chat: ${errorText(err)}`),
    );
  } else {
    out('Telegram is what failed, so no alert was sent there; the failed workflow run emails the repository owner.');
  }
  return 1;
}
