/**
 * `npm run doctor` against the `npm start` stack in-process (the built site, the local server, the
 * stand-in with the real migrations and edge function): every check passes, and each
 * misconfiguration that costs leads, injected one at a time, is named and makes it fail. Then the
 * production build under wrangler pages dev (Cloudflare's runtime, the Pages Functions included),
 * its Supabase project on another origin: every check passes there too.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { build } from '../../generator/build.js';
import { createLocalBackend, type LocalBackend } from '../../supabase-standin/backend.js';
import { startServer, type RunningServer } from '../../serve/server.js';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { runDoctor, type CheckResult, type DoctorOptions } from '../../ops/doctor.js';
import { QUOTE } from '../backend/inboxDb.js';
import { startFakeTelegram } from '../backend/fakeTelegram.js';
import { ROOT } from '../helpers/content.js';
import { resetRateLimits } from '../helpers/site.js';
import { freePort, startPagesDev, type PagesDev } from '../helpers/pagesDev.js';

let dir: string;
let dist: string;
let backend: LocalBackend;
let server: RunningServer;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
/** Set by a test: answers before the stand-in (a misconfiguration), or undefined. */
let inject: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined;

const service = () => createNodeClient(server.url, backend.keys.serviceRoleKey);
const failed = (results: CheckResult[]) => results.filter((r) => !r.ok).map((r) => r.check);
const doctor = (url = server.url, more: Partial<DoctorOptions> = {}) => runDoctor({ siteUrl: url, serviceRoleKey: backend.keys.serviceRoleKey, ...more });

/** A staff member with the authenticator app set up, as `npm run staff -- add` and a first sign-in leave one. */
async function enrolledStaff(email: string) {
  const { data } = await service().auth.admin.createUser({ email, password: 'purple-otter-42-lamp', email_confirm: true });
  await service().rpc('staff_add', { p_user_id: data.user!.id, p_email: email });
  const member = createNodeClient(server.url, backend.keys.anonKey);
  await member.auth.signInWithPassword({ email, password: 'purple-otter-42-lamp' });
  const { data: factor } = await member.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
  const code = new TOTP({ secret: Secret.fromBase32(factor!.totp.secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
  expect((await member.auth.mfa.challengeAndVerify({ factorId: factor!.id, code })).error).toBeNull();
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'doctor-'));
  dist = path.join(dir, 'dist');
  telegram = await startFakeTelegram();
  backend = await createLocalBackend({ dataDir: undefined, env: { TELEGRAM_BOT_TOKEN: '7000000001:doctor', TELEGRAM_CHAT_ID: '-100200300', TELEGRAM_API_URL: telegram.url }, log: () => {} });
  server = await startServer({
    distDir: dist,
    handlers: [async (req, res) => inject?.(req, res) || backend.handle(req, res)],
  });
  // As npm start builds it: the site's own address, the forms posting to it.
  await build({ root: ROOT, contentDir: path.join(ROOT, 'content'), outDir: dist, siteUrl: server.url });
  // pg_cron's job calls notify-telegram at the stand-in's own address, as Vault's project_url says.
  await backend.setProjectUrl(server.url);
  await enrolledStaff('owner@example.com');
}, 300_000);

// Each run of the doctor stores one test lead: every test is a new client for the per-client limits.
// The scheduled delivery run has just run, as it does every minute on a working project.
beforeEach(async () => {
  await resetRateLimits(backend);
  await backend.runScheduledJobs();
  telegram.reset();
});

afterAll(async () => {
  await server?.close();
  await backend?.close();
  await telegram?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('npm run doctor on a working npm start stack', () => {
  it('passes every check, leaves no lead behind, and sends the one test message it announced', async () => {
    const results = await doctor();
    expect(failed(results)).toEqual([]);
    expect(results.length).toBeGreaterThan(20);
    expect((await service().from('leads').select('id')).data).toEqual([]);
    expect(telegram.messages()).toEqual([expect.stringContaining('Test message from the going-live check')]);
  });
});

describe('npm run doctor without the service role key', () => {
  it('passes the site\'s and the visitor\'s checks, and stores nothing (a lead the rules refuse stands in)', async () => {
    const results = await runDoctor({ siteUrl: server.url });
    expect(failed(results)).toEqual([]);
    expect(results.map((r) => r.check)).toContain('the leads table takes a visitor\'s insert and applies the forms\' rules (a blank name refused)');
    expect((await service().from('leads').select('id')).data).toEqual([]);
    expect(telegram.messages()).toEqual([]);
  });
});

describe('each misconfiguration, one at a time', () => {
  /** The doctor's failed checks while requests to paths under `prefix` get `status` and `body`. */
  const withInjected = async (prefix: string, status: number, body: unknown) => {
    inject = (req, res) => {
      if (!req.url?.startsWith(prefix)) return false;
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      return true;
    };
    try {
      return failed(await doctor());
    } finally {
      inject = undefined;
    }
  };

  it('sign-ups left on', async () => {
    expect(await withInjected('/auth/v1/settings', 200, { disable_signup: false })).toEqual(['sign-ups are off (only accounts the owner adds can sign in)']);
  });

  it('notify-telegram not deployed', async () => {
    expect(await withInjected('/functions/v1/', 404, { code: 'NOT_FOUND' })).toEqual(['notify-telegram is deployed and refuses a call without the key', 'the bot posts to the office chat (the test message was delivered)']);
  });

  it('the inbox migration not applied', async () => {
    expect(await withInjected('/rest/v1/rpc/count_leads', 404, { code: 'PGRST202', message: 'Could not find the function public.count_leads' })).toEqual(['the database has the migrations (the inbox\'s functions exist and refuse a visitor)']);
  });

  it('the public key rotated since the build', async () => {
    expect(await withInjected('/rest/v1/', 401, { message: 'Invalid API key' })).toEqual(expect.arrayContaining(['the site\'s public key is the project\'s (a key rotated since the build is refused)']));
  });

  it('a staff member who has not set up the authenticator app', async () => {
    const { data } = await service().auth.admin.createUser({ email: 'new-hire@example.com', password: 'purple-otter-42-lamp', email_confirm: true });
    await service().rpc('staff_add', { p_user_id: data.user!.id, p_email: 'new-hire@example.com' });
    try {
      expect(failed(await doctor())).toEqual(['every staff member has set up the authenticator app']);
    } finally {
      await service().rpc('staff_remove', { p_user_id: data.user!.id });
      await service().auth.admin.deleteUser(data.user!.id);
    }
  });

  /**
   * A stored quote request, made `hoursAgo` old, with its Telegram message failed or not; its
   * message in the outbox went out long ago, as the scheduled run would have sent it.
   */
  const storedLead = async (hoursAgo: number, messageFailed: boolean) => {
    const id = (await backend.db.query<{ id: string }>(
      `INSERT INTO public.leads (first_name, last_name, email, phone, message, page, created_at, notify_failed_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() - make_interval(hours => $7), CASE WHEN $8 THEN now() END) RETURNING id`,
      [QUOTE.first_name, QUOTE.last_name, QUOTE.email, QUOTE.phone, QUOTE.message, QUOTE.page, hoursAgo, messageFailed],
    )).rows[0]!.id;
    await backend.db.query("UPDATE private.chat_outbox SET sent_at = created_at WHERE quote_id = $1", [id]);
    return id;
  };

  it('a lead still new after 24 hours', async () => {
    const id = await storedLead(30, false);
    try {
      expect(failed(await doctor())).toEqual(['no lead waits more than 24 hours unanswered']);
    } finally {
      await backend.db.query('DELETE FROM public.leads WHERE id = $1', [id]);
    }
  });

  it('a lead whose Telegram message failed, still unanswered', async () => {
    const id = await storedLead(1, true);
    try {
      expect(failed(await doctor())).toEqual(['no "Telegram message failed" lead is left unanswered']);
    } finally {
      await backend.db.query('DELETE FROM public.leads WHERE id = $1', [id]);
    }
  });

  it('the bot removed from the office chat', async () => {
    telegram.state.reply = { status: 403, body: { ok: false, error_code: 403, description: 'Forbidden: bot was kicked from the group chat' } };
    expect(failed(await doctor())).toEqual(['the bot posts to the office chat (the test message was delivered)']);
  });

  it('the scheduled delivery run stopped coming (5 minutes and more since the last)', async () => {
    await backend.db.exec("UPDATE private.chat_state SET last_run_at = now() - interval '6 minutes'");
    expect(failed(await doctor())).toEqual(['the scheduled delivery run ran in the last 5 minutes']);
  });

  it('the scheduled delivery run never ran (the Vault step not done)', async () => {
    await backend.db.exec('UPDATE private.chat_state SET last_run_at = NULL');
    const results = await doctor();
    expect(failed(results)).toEqual(['the scheduled delivery run ran in the last 5 minutes']);
    expect(results.find((r) => !r.ok)).toMatchObject({ detail: expect.stringContaining('it never ran'), fix: 'going-live.md#4a-the-scheduled-delivery-run' });
  });

  it('a lead\'s message waiting for the office chat for more than 5 minutes', async () => {
    const id = await storedLead(1, false);
    await backend.db.query("UPDATE private.chat_outbox SET sent_at = NULL, last_error = 'Bad Gateway' WHERE quote_id = $1", [id]);
    try {
      const results = await doctor();
      expect(failed(results)).toEqual(['no message for the office chat waits more than 5 minutes']);
      expect(results.find((r) => !r.ok)?.detail).toMatch(/^1 waiting, the oldest for 60 min/);
    } finally {
      await backend.db.query('DELETE FROM public.leads WHERE id = $1', [id]);
    }
  });

  it('a message given up on after a day of tries (its lead since answered)', async () => {
    const id = await storedLead(30, false);
    await backend.db.query("UPDATE public.leads SET status = 'contacted' WHERE id = $1", [id]);
    await backend.db.query("UPDATE private.chat_outbox SET sent_at = NULL, gave_up_at = now() - interval '6 hours' WHERE quote_id = $1", [id]);
    try {
      expect(failed(await doctor())).toEqual(['no message for the office chat was given up on in the last week']);
    } finally {
      await backend.db.query('DELETE FROM public.leads WHERE id = $1', [id]);
    }
  });

  it('the office hours not published (a site built before the reminders)', async () => {
    expect(await withInjected('/office-hours.json', 404, {})).toEqual(['the office hours are published for the reminders (/office-hours.json)']);
  });

  it('a new table left without row-level security', async () => {
    await backend.db.exec('CREATE TABLE public.doctor_oops (id int)');
    try {
      expect(failed(await doctor())).toEqual(['the database\'s security checks find nothing (the Security Advisor\'s lints)']);
    } finally {
      await backend.db.exec('DROP TABLE public.doctor_oops');
    }
  });

  it('a site built without SUPABASE_URL on a static host (no Supabase behind it)', async () => {
    const staticOnly = await startServer({ distDir: dist });
    try {
      expect(failed(await doctor(staticOnly.url))).toEqual(expect.arrayContaining([
        'the forms\' Supabase project answers (the site built with SUPABASE_URL and SUPABASE_ANON_KEY)',
      ]));
    } finally {
      await staticOnly.close();
    }
  });

  it('a Content-Security-Policy that does not let the forms reach Supabase, and a site built for another address', async () => {
    const other = path.join(dir, 'other');
    await cp(dist, other, { recursive: true });
    const headers = await readFile(path.join(other, '_headers'), 'utf8');
    await writeFile(path.join(other, '_headers'), headers.replace(/connect-src 'self'/g, 'connect-src https://example.com'));
    const copy = await startServer({ distDir: other, handlers: [(req, res) => backend.handle(req, res)] });
    try {
      const problems = failed(await doctor(copy.url));
      expect(problems).toEqual(expect.arrayContaining([
        '/\'s policy lets the forms reach Supabase (connect-src ' + copy.url + ')',
        `/'s canonical URL is on ${copy.url}`,
        'robots.txt names the sitemap on this origin',
      ]));
    } finally {
      await copy.close();
    }
  });
});

describe('npm run doctor with the bot\'s token: the webhook', () => {
  const webhookUrl = () => `${server.url}/functions/v1/telegram-webhook`;
  /** The doctor's webhook checks that failed, with the bot's token and the fake Telegram. */
  const webhookProblems = async () =>
    (await doctor(server.url, { telegram: { token: '7000000001:doctor', apiUrl: telegram.url } }))
      .filter((r) => !r.ok && /webhook/i.test(r.check)).map((r) => `${r.check}: ${r.detail}`);
  /** Answers the unsigned call to telegram-webhook with `status`, as the deployed function would. */
  const webhookAnswers = (status: number) => {
    inject = (req, res) => {
      if (!req.url?.startsWith('/functions/v1/telegram-webhook')) return false;
      req.resume();
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ok: status !== 401 }));
      return true;
    };
  };
  afterEach(() => {
    inject = undefined;
  });

  it('registered at the project\'s telegram-webhook, no error, and the function refuses an unsigned call: nothing to report', async () => {
    telegram.state.webhook = { url: webhookUrl(), secret: 'the-webhook-secret', allowedUpdates: undefined };
    webhookAnswers(401);
    expect(await webhookProblems()).toEqual([]);
  });

  it('no webhook registered, or one registered elsewhere', async () => {
    webhookAnswers(401);
    expect(await webhookProblems()).toEqual([`Telegram sends the bot's updates to ${webhookUrl()}: no webhook is registered`]);
    telegram.state.webhook = { url: 'https://old-project.supabase.co/functions/v1/telegram-webhook', secret: 's', allowedUpdates: undefined };
    expect(await webhookProblems()).toEqual([`Telegram sends the bot's updates to ${webhookUrl()}: it sends them to https://old-project.supabase.co/functions/v1/telegram-webhook`]);
  });

  it('Telegram failed to deliver to it in the last hour (an error of yesterday is history)', async () => {
    webhookAnswers(401);
    const secondsAgo = (s: number) => Math.floor(Date.now() / 1000) - s;
    telegram.state.webhook = { url: webhookUrl(), secret: 's', allowedUpdates: undefined, lastErrorMessage: 'Wrong response from the webhook: 401 Unauthorized', lastErrorDate: secondsAgo(600) };
    expect(await webhookProblems()).toEqual(['Telegram reports no recent error delivering to the webhook: 10 min ago: Wrong response from the webhook: 401 Unauthorized']);
    telegram.state.webhook = { ...telegram.state.webhook, lastErrorDate: secondsAgo(86_400) };
    expect(await webhookProblems()).toEqual([]);
  });

  it('a webhook function that takes a call without Telegram\'s secret, or none deployed', async () => {
    telegram.state.webhook = { url: webhookUrl(), secret: 's', allowedUpdates: undefined };
    webhookAnswers(200);
    expect(await webhookProblems()).toEqual(['telegram-webhook refuses a call without Telegram\'s secret header (401): HTTP 200: set TELEGRAM_WEBHOOK_SECRET and register the webhook with it']);
    inject = undefined;
    // The stand-in's own telegram-webhook when it has one (it refuses the unsigned call), else a 404.
    const deployed = (await fetch(webhookUrl(), { method: 'POST', body: '{}' })).status !== 404;
    expect(await webhookProblems()).toEqual(deployed ? [] : ['telegram-webhook refuses a call without Telegram\'s secret header (401): HTTP 404: the function is not deployed']);
  });
});

describe('npm run doctor on the production build under Cloudflare\'s runtime (wrangler pages dev)', () => {
  let site: PagesDev;
  let prod: string;
  beforeAll(async () => {
    // As the deploy workflow builds it: its own address, the forms posting to the Supabase project
    // (here the stand-in of this file, on another origin).
    const port = await freePort();
    prod = path.join(dir, 'prod');
    await build({ root: ROOT, contentDir: path.join(ROOT, 'content'), outDir: prod, siteUrl: `http://127.0.0.1:${port}`, supabaseUrl: server.url, supabaseAnonKey: backend.keys.anonKey });
    site = await startPagesDev({ dir: prod, port, bindings: { SUPABASE_URL: server.url, GITHUB_CLIENT_ID: 'Iv1.doctor', GITHUB_CLIENT_SECRET: 'doctor-secret' } });
  }, 300_000);
  afterAll(async () => {
    await site?.close();
  });

  it('passes every check, the content manager\'s sign-in and HSTS included', async () => {
    const results = await doctor(site.url);
    expect(failed(results)).toEqual([]);
    expect(results.find((r) => r.check.startsWith('HSTS'))?.detail).toBeUndefined();
    expect(results.find((r) => r.check.startsWith('the content manager'))?.detail).toBeUndefined();
  });
});
