/**
 * `npm run doctor -- <site URL>`: checks a deployed site and its Supabase project from outside, as
 * the owner set them up by hand from docs/going-live.md, and prints one line per check: what was
 * checked, then OK or the problem and the fix (the section of docs/going-live.md). Exit code 1 if
 * anything is wrong. The Supabase project's URL and anon key are read from the site's own scripts
 * (the forms' settings are compiled into them), so the site's URL is all it needs;
 * SUPABASE_SERVICE_ROLE_KEY, when set, adds the checks only that key can make (the scheduled delivery
 * run and what waits for the office chat among them); TELEGRAM_BOT_TOKEN adds the webhook's.
 *
 * It changes nothing, but for the test lead it says it inserts (only with the service role key,
 * marked a probe so that it never reaches the office, and deleted at once) and the one test
 * message it announces before sending it to the office chat.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { resolveConnection } from '../contracts/supabaseConnection.js';
import { CONTACT_PAGE, type LeadRow } from '../supabase/functions/_shared/leadRules.js';
import { supabaseLeadApi } from '../src/lib/leads.js';
import { createNodeClient } from '../staff/supabaseNode.js';
import { readOfficeHours } from '../supabase/functions/_shared/chat/officeHoursSource.js';
import { getWebhookInfo } from './telegram.js';
import { WEBHOOK_PATH } from './telegramWebhook.js';

const DOCS = 'https://github.com/{repo}/blob/main/docs/';

/** The doctor's test lead: valid by the forms' rules, saying what it is to anyone who reads it. */
const DOCTOR_LEAD: LeadRow = { first_name: 'Doctor', last_name: 'Check', email: 'doctor@example.com', phone: '4085550100', message: '', page: CONTACT_PAGE, landing_path: null, referrer_path: null };

/** The forms' own client, as a visitor's browser sends with it. */
const visitorApi = (url: string, anonKey: string) => supabaseLeadApi(createNodeClient(url, anonKey));

const errorText = (error: unknown) => (error as { message?: string } | null)?.message ?? String(error);
const TIMEOUT_MS = 15_000;

export interface CheckResult {
  check: string;
  ok: boolean;
  /** What is wrong (when not ok) or a note (when ok but limited). */
  detail?: string;
  /** Where the fix is described: a docs/ page and anchor. */
  fix?: string;
}

export interface DoctorOptions {
  siteUrl: string;
  serviceRoleKey?: string | undefined;
  /** Called with each result as it comes. */
  report?: (r: CheckResult) => void;
  /** Told before anything is sent (the test message). */
  announce?: (line: string) => void;
  /** The bot's token (TELEGRAM_BOT_TOKEN): adds the webhook's checks. apiUrl: a fake Telegram in tests. */
  telegram?: { token: string; apiUrl?: string | undefined } | undefined;
  /** The clock the checks of recent runs compare with. */
  now?: () => Date;
}

const FIX = {
  https: 'going-live.md#8-domain',
  headers: 'going-live.md#7-hosting-cloudflare-pages-the-default',
  siteUrl: 'going-live.md#8-domain',
  supabaseBuild: 'going-live.md#2-supabase-project-stores-the-leads',
  migrations: 'going-live.md#4-deploy-the-backend',
  signups: 'inbox.md#setting-it-up-in-production-the-owner-once',
  staff: 'inbox.md#setting-it-up-in-production-the-owner-once',
  leads: 'inbox.md#the-24-hour-promise',
  telegram: 'going-live.md#3-telegram-bot-a-message-for-every-lead',
  cms: 'editing.md#editing-in-the-browser',
  deliveryRun: 'going-live.md#4a-the-scheduled-delivery-run',
  officeHours: 'inbox.md#reminders-and-the-morning-summary',
  webhook: 'going-live.md#4b-the-telegram-webhook-the-called-back-button',
} as const;

/** How recent the scheduled run must be (it comes every minute), and how long a message may wait. */
const RUN_WITHIN_MS = 5 * 60_000;
/** A webhook error Telegram reports from longer ago than this is history, not a problem now. */
const WEBHOOK_ERROR_WITHIN_MS = 60 * 60_000;

async function get(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { redirect: 'manual', ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
}

const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/** The policies a response carries: several headers arrive joined by ", ", which no policy contains. */
const policiesOf = (res: Response) => (res.headers.get('content-security-policy') ?? '').split(/,\s*(?=[a-z-]+-src |default-src )/).filter(Boolean);

const directive = (policy: string, name: string) =>
  policy.split(';').map((d) => d.trim().split(/\s+/)).find(([n]) => n === name)?.slice(1) ?? [];

/** Every script a page loads, and the chunks they import, up to `limit` files. */
async function siteScripts(origin: string, html: string, limit = 40): Promise<string[]> {
  const queue = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) => new URL(m[1]!, origin).href);
  const seen = new Set<string>();
  const texts: string[] = [];
  while (queue.length && seen.size < limit) {
    const url = queue.shift()!;
    if (seen.has(url) || new URL(url).origin !== origin) continue;
    seen.add(url);
    const res = await get(url).catch(() => undefined);
    if (!res?.ok) continue;
    const text = await res.text();
    texts.push(text);
    for (const m of text.matchAll(/["'`](\.{0,2}\/[\w./-]+\.js)["'`]/g)) queue.push(new URL(m[1]!, url).href);
  }
  return texts;
}

/** The Supabase settings the forms were built with, read from the site's scripts. */
export function supabaseSettingsIn(scripts: string[]): { url: string; anonKey: string } | undefined {
  for (const text of scripts) {
    const m = /supabaseUrl:\s*["'`]([^"'`]*)["'`]\s*,\s*supabaseAnonKey:\s*["'`]([^"'`]*)["'`]/.exec(text);
    if (m) return { url: m[1]!, anonKey: m[2]! };
  }
  return undefined;
}

export async function runDoctor(opts: DoctorOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const record = (r: CheckResult) => {
    results.push(r);
    opts.report?.(r);
    return r.ok;
  };
  const check = (name: string, fix: string, ok: boolean, detail?: string) => record({ check: name, ok, ...(!ok && { fix, ...(detail && { detail }) }) });

  const site = new URL(opts.siteUrl);
  const origin = site.origin;
  // the site
  if (site.protocol !== 'https:' && isLoopback(site)) record({ check: 'the site is served over HTTPS', ok: true, detail: 'a local address: checked on the deployed site' });
  else check('the site is served over HTTPS', FIX.https, site.protocol === 'https:', `${origin} is not https`);
  const home = await get(`${origin}/`).catch((err: unknown) => err as Error);
  if (home instanceof Error || !home.ok) {
    check('the home page answers', FIX.headers, false, home instanceof Error ? home.message : `HTTP ${home.status}`);
    return results;
  }
  const hsts = home.headers.get('strict-transport-security') ?? '';
  // Browsers ignore HSTS over plain http, and local servers rightly leave it out there.
  if (!hsts && site.protocol !== 'https:' && isLoopback(site)) record({ check: 'HSTS is sent (Strict-Transport-Security, a year or more)', ok: true, detail: 'plain http on a local address: checked on the deployed site' });
  else check('HSTS is sent (Strict-Transport-Security, a year or more)', FIX.headers, Number(/max-age=(\d+)/.exec(hsts)?.[1] ?? 0) >= 31_536_000, hsts ? `max-age too short: ${hsts}` : 'no Strict-Transport-Security header: _headers was not applied');

  const contact = await get(`${origin}/contact`);
  const contactHtml = await contact.text();
  const scripts = await siteScripts(origin, contactHtml);
  const built = supabaseSettingsIn(scripts);
  // The forms' rule: without a project URL they post to the page's own origin (npm start answers it).
  const supabase = built && resolveConnection({ supabaseUrl: built.url, supabaseAnonKey: built.anonKey }, origin);
  const supabaseOrigin = supabase ? new URL(supabase.url).origin : origin;
  const answers = supabase && (await get(`${supabase.url}/auth/v1/settings`, { headers: { apikey: supabase.key } }).catch(() => undefined));
  const settings = answers?.ok ? ((await answers.json().catch(() => undefined)) as { disable_signup?: boolean } | undefined) : undefined;
  check('the forms\' Supabase project answers (the site built with SUPABASE_URL and SUPABASE_ANON_KEY)', FIX.supabaseBuild, typeof settings?.disable_signup === 'boolean',
    !built ? 'no Supabase settings found in the site\'s scripts' : !built.url ? 'the forms post to the site\'s own address, which a static host does not answer: build with SUPABASE_URL and SUPABASE_ANON_KEY set' : `${supabaseOrigin} answers ${answers ? `HTTP ${answers.status}` : 'nothing'}: is the project paused?`);

  for (const [page, res, html] of [['/', home, await home.text()], ['/contact', contact, contactHtml]] as const) {
    const policies = policiesOf(res);
    const meta = /<meta[^>]+http-equiv="content-security-policy"/i.test(html);
    check(`${page} has exactly one Content-Security-Policy`, FIX.headers, policies.length === 1 && !meta, `${policies.length} policy header(s)${meta ? ' and a <meta> policy' : ''}`);
    const connect = policies[0] ? directive(policies[0], 'connect-src') : [];
    check(`${page}'s policy lets the forms reach Supabase (connect-src ${supabaseOrigin})`, FIX.headers, supabaseOrigin === origin ? connect.includes("'self'") : connect.includes(supabaseOrigin), `connect-src is "${connect.join(' ')}"`);
    const canonical = /<link[^>]+rel="canonical"[^>]+href="([^"]+)"/.exec(html)?.[1];
    check(`${page}'s canonical URL is on ${origin}`, FIX.siteUrl, Boolean(canonical?.startsWith(`${origin}/`)), `canonical is ${canonical ?? 'missing'}: build with SITE_URL=${origin}`);
  }

  const robots = await get(`${origin}/robots.txt`).then((r) => r.text()).catch(() => '');
  check('robots.txt names the sitemap on this origin', FIX.siteUrl, robots.includes(`Sitemap: ${origin}/sitemap.xml`), `robots.txt says "${/Sitemap: (\S+)/.exec(robots)?.[1] ?? 'no sitemap'}"`);
  const sitemap = await get(`${origin}/sitemap.xml`).then((r) => r.text()).catch(() => '');
  const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  const foreign = locs.filter((l) => !l.startsWith(`${origin}/`));
  check('the sitemap lists pages of this origin only', FIX.siteUrl, locs.length > 0 && foreign.length === 0, locs.length ? `${foreign.length} of ${locs.length} addresses elsewhere, e.g. ${foreign[0]}` : 'no sitemap.xml');

  for (const page of ['/leads', '/admin']) {
    const res = await get(`${origin}${page}`);
    const robotsHeader = res.headers.get('x-robots-tag') ?? '';
    const cache = res.headers.get('cache-control') ?? '';
    check(`${page} is never indexed or cached (noindex, no-store)`, FIX.headers, res.ok && robotsHeader.includes('noindex') && cache.includes('no-store'), `HTTP ${res.status}, X-Robots-Tag "${robotsHeader}", Cache-Control "${cache}"`);
  }
  // What the scheduled run reads before it plans reminders, read the same way.
  const hours = await readOfficeHours(origin, fetch, TIMEOUT_MS);
  check('the office hours are published for the reminders (/office-hours.json)', FIX.officeHours, Boolean(hours.hours), `${hours.error}: build and deploy the site again`);

  const missing = await get(`${origin}/doctor-${Date.now().toString(36)}-no-such-page`);
  const missingHtml = await missing.text();
  check('a missing page answers 404 with the site\'s 404 page', FIX.headers, missing.status === 404 && /404/.test(missingHtml), `HTTP ${missing.status}`);

  // Supabase, with the anon key the site was built with
  if (supabase && settings) await supabaseChecks(supabase.url, supabase.key, settings, opts.serviceRoleKey, check, opts.announce ?? (() => {}), opts.now ?? (() => new Date()));
  if (supabase && opts.telegram) await webhookChecks(supabase.url, opts.telegram, check, opts.now ?? (() => new Date()));

  // the content manager's GitHub sign-in (Cloudflare Pages Function)
  const auth = await get(`${origin}/api/auth`).catch(() => undefined);
  const location = auth?.headers.get('location') ?? '';
  // npm start has no Cloudflare Pages Functions (wrangler pages dev and Cloudflare have them).
  if (auth?.status === 404 && isLoopback(site)) {
    record({ check: 'the content manager\'s sign-in is set up (/api/auth leads to GitHub)', ok: true, detail: 'no Pages Functions on this local server: checked on the deployed site' });
    return results;
  }
  check('the content manager\'s sign-in is set up (/api/auth leads to GitHub)', FIX.cms, auth?.status === 302 && location.startsWith('https://github.com/login/oauth/authorize'), auth ? `HTTP ${auth.status}: set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET in the Pages project` : 'no answer');
  return results;
}

type Check = (name: string, fix: string, ok: boolean, detail?: string) => boolean;

async function supabaseChecks(
  url: string, anonKey: string, settings: { disable_signup?: boolean }, serviceRoleKey: string | undefined, check: Check, announce: (line: string) => void,
  now: () => Date,
): Promise<void> {
  const headers = { apikey: anonKey, Authorization: `Bearer ${anonKey}`, 'Content-Type': 'application/json' };
  // An inbox function answers a visitor 401/403 when the migrations are applied, 404 when not.
  const rpc = await get(`${url}/rest/v1/rpc/count_leads`, { method: 'POST', headers, body: '{}' }).catch(() => undefined);
  const rpcCode = rpc && ((await rpc.json().catch(() => ({}))) as { code?: string; message?: string });
  check('the site\'s public key is the project\'s (a key rotated since the build is refused)', FIX.supabaseBuild, Boolean(rpc) && !(rpc!.status === 401 && rpcCode?.code !== '42501'), `HTTP ${rpc?.status} ${rpcCode?.message ?? ''}: build and deploy again with the current SUPABASE_ANON_KEY`);
  check('the database has the migrations (the inbox\'s functions exist and refuse a visitor)', FIX.migrations, (rpc?.status === 401 || rpc?.status === 403) && rpcCode?.code === '42501', rpc ? `HTTP ${rpc.status}${rpc.status === 404 ? ': apply supabase/migrations' : ''}` : 'no answer: is the project paused?');

  const read = await get(`${url}/rest/v1/leads?select=id&limit=1`, { headers }).catch(() => undefined);
  const readRows = read?.ok ? ((await read.json()) as unknown[]) : [];
  check('a visitor reads no lead back', FIX.migrations, Boolean(read) && readRows.length === 0, `HTTP ${read?.status}: ${readRows.length} rows readable with the public key`);
  if (serviceRoleKey) {
    await testLead(url, anonKey, createNodeClient(url, serviceRoleKey), check);
  } else {
    // Without the service role key a stored lead could not be kept from the office: a lead the
    // rules refuse shows the table, its grant and its rules instead.
    const { error } = await visitorApi(url, anonKey).insert('leads', { ...DOCTOR_LEAD, first_name: ' ' });
    const code = (error as { code?: string } | null)?.code;
    check('the leads table takes a visitor\'s insert and applies the forms\' rules (a blank name refused)', FIX.migrations, code === '23514', error ? errorText(error) : 'a blank name was stored');
  }

  check('sign-ups are off (only accounts the owner adds can sign in)', FIX.signups, settings.disable_signup === true, 'Authentication → Sign In / Providers → turn off "Allow new users to sign up"');

  const keyless = await get(`${url}/functions/v1/notify-telegram`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }).catch(() => undefined);
  check('notify-telegram is deployed and refuses a call without the key', FIX.migrations, keyless?.status === 401, keyless ? `HTTP ${keyless.status}${keyless.status === 404 ? ': the function is not deployed' : ''}` : 'no answer');

  if (!serviceRoleKey) return;
  const service = createNodeClient(url, serviceRoleKey);
  const staff = await service.rpc('staff_list');
  const members = (staff.data ?? []) as { user_id: string; email: string }[];
  check('at least one staff member can use the lead inbox', FIX.staff, !staff.error && members.length > 0, staff.error ? staff.error.message : 'nobody: npm run staff -- add <email>');
  const unenrolled: string[] = [];
  for (const m of members) {
    const { data } = await service.auth.admin.mfa.listFactors({ userId: m.user_id });
    if (!data?.factors.some((f) => f.factor_type === 'totp' && f.status === 'verified')) unenrolled.push(m.email);
  }
  check('every staff member has set up the authenticator app', FIX.staff, unenrolled.length === 0, `not yet: ${unenrolled.join(', ')} (they set it up at their first sign-in)`);
  /** New leads of both tables that `narrow` picks (the probe's never count: they are deleted at once). */
  const newLeads = async (narrow: (q: ReturnType<typeof countNew>) => ReturnType<typeof countNew>) =>
    (await Promise.all(['leads', 'discount_leads'].map(async (t) => (await narrow(countNew(t))).count ?? 0))).reduce((a, b) => a + b, 0);
  const countNew = (table: string) => service.from(table).select('id', { count: 'exact', head: true }).eq('status', 'new');
  const overdue = await newLeads((q) => q.lt('created_at', new Date(Date.now() - 24 * 3600_000).toISOString()));
  check('no lead waits more than 24 hours unanswered', FIX.leads, overdue === 0, `${overdue} still new after 24 hours: answer them in the inbox at /leads`);
  const failed = await newLeads((q) => q.not('notify_failed_at', 'is', null));
  check('no "Telegram message failed" lead is left unanswered', FIX.telegram, failed === 0, `${failed} new lead(s) whose Telegram message failed: check the bot (step 3), then answer them at /leads`);
  const lints = await service.rpc('security_findings');
  const findings = ((lints.data ?? []) as { lint: string; object: string }[]).map((f) => `${f.lint} on ${f.object}`);
  check('the database\'s security checks find nothing (the Security Advisor\'s lints)', FIX.migrations, !lints.error && findings.length === 0, lints.error ? `${lints.error.message}: apply supabase/migrations` : findings.join('; '));

  await deliveryChecks(service, check, now());

  // The one announced message: through the edge function, with its own Telegram secrets.
  announce('Sending one test message to the office chat through the bot (notify-telegram)…');
  const test = await get(`${url}/functions/v1/notify-telegram`, {
    method: 'POST',
    headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}`, 'Content-Type': 'application/json' },
    body: '{"test":true}',
  }).catch(() => undefined);
  const answer = test ? ((await test.json().catch(() => ({}))) as { ok?: boolean; delivered?: boolean; error?: string }) : {};
  check('the bot posts to the office chat (the test message was delivered)', FIX.telegram, test?.status === 200 && answer.delivered === true,
    !test ? 'no answer from notify-telegram' : test.status === 200 ? 'the function has no TELEGRAM_BOT_TOKEN / TELEGRAM_CHAT_ID secrets' : `HTTP ${test.status} ${answer.error ?? ''}: is the bot still in the chat?`);
}

/** How the office chat's delivery stands (public.chat_delivery_status, migration 20261126000000). */
interface DeliveryStatus {
  lastRunAt: string | null;
  pausedUntil: string | null;
  lastError: string | null;
  waiting: number;
  oldestWaitingSince: string | null;
  gaveUpLastWeek: number;
}

const ago = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`);

/** The scheduled delivery run comes, and nothing waits for the office chat or was given up on. */
async function deliveryChecks(service: SupabaseClient, check: Check, now: Date): Promise<void> {
  const { data, error } = await service.rpc('chat_delivery_status', { p_now: now.toISOString() });
  const status = data as DeliveryStatus | null;
  if (error || !status) {
    check('the scheduled delivery run ran in the last 5 minutes', FIX.migrations, false, `${error?.message ?? 'no answer'}: apply supabase/migrations`);
    return;
  }
  const sinceRun = status.lastRunAt ? now.getTime() - Date.parse(status.lastRunAt) : undefined;
  check('the scheduled delivery run ran in the last 5 minutes', FIX.deliveryRun, sinceRun !== undefined && sinceRun <= RUN_WITHIN_MS,
    sinceRun === undefined ? 'it never ran: set the project\'s address in Vault (the one SQL step)' : `its last run was ${ago(sinceRun)} ago: is pg_cron's job "lead-delivery" active, and does Vault hold project_url?`);
  const waitingFor = status.oldestWaitingSince ? now.getTime() - Date.parse(status.oldestWaitingSince) : 0;
  check('no message for the office chat waits more than 5 minutes', FIX.telegram, waitingFor <= RUN_WITHIN_MS,
    `${status.waiting} waiting, the oldest for ${ago(waitingFor)}${status.pausedUntil ? `, Telegram asked to wait until ${status.pausedUntil}` : ''}${status.lastError ? `, last error: ${status.lastError}` : ''}`);
  check('no message for the office chat was given up on in the last week', FIX.telegram, status.gaveUpLastWeek === 0,
    `${status.gaveUpLastWeek} given up on after a day of tries: answer those leads at /leads (they show "Telegram message failed"), then check the bot`);
}

/**
 * The webhook that lets staff answer from the chat: Telegram sends the bot's updates to the
 * project's telegram-webhook function, has had no recent trouble doing so, and the function
 * refuses a call without Telegram's secret header (401), which proves it requires one.
 */
async function webhookChecks(supabaseUrl: string, telegram: { token: string; apiUrl?: string | undefined }, check: Check, now: () => Date): Promise<void> {
  const expected = `${supabaseUrl.replace(/\/+$/, '')}${WEBHOOK_PATH}`;
  const info = await getWebhookInfo(telegram).catch((err: unknown) => err as Error);
  if (info instanceof Error) {
    check(`Telegram sends the bot's updates to ${expected}`, FIX.webhook, false, info.message);
  } else {
    check(`Telegram sends the bot's updates to ${expected}`, FIX.webhook, info.url === expected, info.url ? `it sends them to ${info.url}` : 'no webhook is registered');
    const errorAge = info.last_error_date ? now().getTime() - info.last_error_date * 1000 : undefined;
    check('Telegram reports no recent error delivering to the webhook', FIX.webhook, errorAge === undefined || errorAge > WEBHOOK_ERROR_WITHIN_MS,
      `${ago(errorAge ?? 0)} ago: ${info.last_error_message ?? 'no description'}`);
  }
  const unsigned = await get(expected, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }).catch(() => undefined);
  check('telegram-webhook refuses a call without Telegram\'s secret header (401)', FIX.webhook, unsigned?.status === 401,
    !unsigned ? 'no answer' : unsigned.status === 404 ? 'HTTP 404: the function is not deployed' : `HTTP ${unsigned.status}: set TELEGRAM_WEBHOOK_SECRET and register the webhook with it`);
}

/** The test lead: a probe (the service role issues its token), inserted as a visitor, then deleted. */
async function testLead(url: string, anonKey: string, service: SupabaseClient, check: Check): Promise<void> {
  const token = await service.rpc('issue_probe_token');
  if (token.error) {
    check('the database has the lead probe\'s migration (issue_probe_token)', FIX.migrations, false, token.error.message);
    return;
  }
  const message = `Test lead of npm run doctor, not a customer (lead probe ${String(token.data)}).`;
  const { error } = await visitorApi(url, anonKey).insert('leads', { ...DOCTOR_LEAD, message });
  const stored = await service.from('leads').select('id, probe').eq('message', message);
  const rows = (stored.data ?? []) as { id: string; probe: boolean }[];
  if (rows.length) await service.from('leads').delete().in('id', rows.map((r) => r.id));
  check('a visitor may store a quote request (test lead inserted, kept from the office, deleted)', FIX.migrations, !error && rows.length === 1 && rows[0]!.probe, `${error ? errorText(error) : 'no error'}, stored ${rows.length}`);
}

/** The command: `npm run doctor -- https://www.example.com`. */
export async function doctorCommand(args: string[], env: Record<string, string | undefined>, out: (line: string) => void): Promise<number> {
  const siteUrl = args[0];
  if (!siteUrl || !/^https?:\/\/[^\s/]+/.test(siteUrl)) {
    out('Usage: npm run doctor -- https://www.your-site.com   (SUPABASE_SERVICE_ROLE_KEY set adds the staff, lead, database and delivery checks; TELEGRAM_BOT_TOKEN the webhook\'s)');
    return 2;
  }
  const docs = DOCS.replace('{repo}', env.CMS_GITHUB_REPO ?? env.GITHUB_REPOSITORY ?? 'OWNER/REPO');
  const serviceRoleKey = env.SUPABASE_SERVICE_ROLE_KEY?.trim() || undefined;
  out(`Checking ${siteUrl}${serviceRoleKey ? ' and its Supabase project with the service role key (one test lead is inserted and deleted, one test message is sent to the office chat)' : ' (set SUPABASE_SERVICE_ROLE_KEY for the staff, lead, database and Telegram checks)'}:`);
  const token = env.TELEGRAM_BOT_TOKEN?.trim();
  const results = await runDoctor({
    siteUrl,
    serviceRoleKey,
    telegram: token ? { token, apiUrl: env.TELEGRAM_API_URL } : undefined,
    report: (r) => out(r.ok ? `OK    ${r.check}${r.detail ? ` (${r.detail})` : ''}` : `FAIL  ${r.check}: ${r.detail ?? 'no'}. Fix: ${docs}${r.fix}`),
    announce: (line) => out(`      ${line}`),
  });
  const failed = results.filter((r) => !r.ok).length;
  out(failed ? `${failed} of ${results.length} checks failed.` : `All ${results.length} checks passed.`);
  return failed ? 1 : 0;
}
