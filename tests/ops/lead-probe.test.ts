/**
 * `npm run lead-probe` against the `npm start` stack in-process (the stand-in with the real
 * migrations and edge function, a fake Telegram): it passes and leaves nothing behind; with the
 * database stopped, or the function answering 500, it fails and alerts the office chat; with
 * Telegram refusing, it fails without an alert there. And the probe's mark: only a token the
 * service role issued makes a lead a probe, and a probe lead never reaches staff.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { createLocalBackend, type LocalBackend } from '../../supabase-standin/backend.js';
import { startServer, type RunningServer } from '../../serve/server.js';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { leadProbeCommand, runLeadProbe, type ProbeSettings } from '../../ops/leadProbe.js';
import { useLocalStack } from '../backend/stack.js';
import { as, insertAsOwner, openInboxDb, QUOTE } from '../backend/inboxDb.js';

const TOKEN = '7000000001:probe-test-token';
const CHAT = '-1001234567890';
const stack = useLocalStack({ telegramToken: TOKEN, telegramChatId: CHAT });

const settingsFor = (url: string, backend: LocalBackend = stack.backend): ProbeSettings => ({
  supabaseUrl: url,
  anonKey: backend.keys.anonKey,
  serviceRoleKey: backend.keys.serviceRoleKey,
  telegram: { token: TOKEN, chatId: CHAT, apiUrl: stack.telegram.url },
});
const envFor = (s: ProbeSettings) => ({
  SUPABASE_URL: s.supabaseUrl, SUPABASE_ANON_KEY: s.anonKey, SUPABASE_SERVICE_ROLE_KEY: s.serviceRoleKey,
  TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_CHAT_ID: CHAT, TELEGRAM_API_URL: stack.telegram.url,
});
const service = () => createNodeClient(stack.server.url, stack.backend.keys.serviceRoleKey);

async function probe(settings: ProbeSettings) {
  const lines: string[] = [];
  const code = await leadProbeCommand(envFor(settings), (line) => lines.push(line));
  return { code, lines, output: lines.join('\n') };
}

/** A server in front of `target` that answers the edge function with 500 and passes everything else. */
async function brokenFunctionProxy(target: string): Promise<Server & { url: string }> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/functions/v1/')) {
      req.resume();
      res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"error":"boom"}');
      return;
    }
    const upstream = request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: { ...req.headers, host: to.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(server, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

describe('npm run lead-probe', () => {
  it('passes on a working stack: stored, marked, claimed, the bot may post; no message sent, nothing left', async () => {
    const run = await probe(settingsFor(stack.server.url));
    expect(run.output).not.toContain('FAIL');
    expect(run.code).toBe(0);
    expect(run.lines.filter((l) => l.startsWith('OK'))).toHaveLength(6);
    expect(stack.telegram.messages()).toEqual([]);
    expect(stack.telegram.calls.map((c) => c.path.split('/').pop())).toEqual(['getMe', 'getChatMember']);
    const left = await service().from('leads').select('id').eq('email', 'lead-probe@example.com');
    expect(left.data).toEqual([]);
    const { rows } = await stack.backend.db.query("SELECT 1 FROM public.lead_events WHERE action = 'deleted'");
    expect(rows).toEqual([]);
  });

  it('fails and alerts the office chat when the function answers 500, and still deletes its lead', async () => {
    const proxy = await brokenFunctionProxy(stack.server.url);
    try {
      const run = await probe(settingsFor(proxy.url));
      expect(run.code).toBe(1);
      expect(run.output).toMatch(/FAIL notify-telegram claims it.*HTTP 500/);
      expect(stack.telegram.messages()).toHaveLength(1);
      expect(stack.telegram.messages()[0]).toMatch(/lead probe failed: notify-telegram claims it/);
      expect((await service().from('leads').select('id').eq('email', 'lead-probe@example.com')).data).toEqual([]);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('fails without an alert there when Telegram refuses the bot (removed from the chat, or the API refusing)', async () => {
    stack.telegram.state.memberStatus = 'left';
    const removed = await probe(settingsFor(stack.server.url));
    expect(removed.code).toBe(1);
    expect(removed.output).toMatch(/FAIL the bot may post to the office chat.*"left"/);
    stack.telegram.reset();
    stack.telegram.state.reply = { status: 403, body: { ok: false, error_code: 403, description: 'Forbidden: bot was kicked from the supergroup chat' } };
    const refused = await probe(settingsFor(stack.server.url));
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/FAIL the bot may post.*bot was kicked/);
    expect(refused.output).toContain('no alert was sent there');
    expect(stack.telegram.calls.filter((c) => c.path.endsWith('/sendMessage'))).toEqual([]);
  });

  describe('with the database stopped', () => {
    let backend: LocalBackend;
    let server: RunningServer;
    beforeAll(async () => {
      backend = await createLocalBackend({ dataDir: undefined, env: {}, log: () => {} });
      server = await startServer({ distDir: stack.dir, handlers: [(req, res) => backend.handle(req, res)] });
      await backend.db.close();
    });
    afterAll(async () => {
      await server?.close();
    });

    it('fails at the first step and alerts the office chat', async () => {
      const run = await probe(settingsFor(server.url, backend));
      expect(run.code).toBe(1);
      expect(run.lines[0]).toMatch(/^FAIL the database answers/);
      expect(stack.telegram.messages()).toEqual([expect.stringMatching(/lead probe failed: the database answers/)]);
    });
  });
});

describe('the probe mark', () => {
  it('comes only from a token the service role issued, once: a visitor can neither set it nor copy it', async () => {
    const anon = createNodeClient(stack.server.url, stack.backend.keys.anonKey);
    const forced = await anon.from('leads').insert({ ...QUOTE, email: 'forced@example.com', probe: true });
    expect(forced.error?.code).toBe('42501');

    const { data: token } = await service().rpc('issue_probe_token');
    const withToken = (email: string, t: string) => anon.from('leads').insert({ ...QUOTE, email, message: `Hello (lead probe ${t})` });
    expect((await withToken('guessed@example.com', crypto.randomUUID())).error).toBeNull();
    expect((await withToken('first@example.com', token as string)).error).toBeNull();
    expect((await withToken('copied@example.com', token as string)).error).toBeNull();
    const { data } = await service().from('leads').select('email, probe').in('email', ['guessed@example.com', 'first@example.com', 'copied@example.com']).order('email');
    expect(data).toEqual([
      { email: 'copied@example.com', probe: false },
      { email: 'first@example.com', probe: true },
      { email: 'guessed@example.com', probe: false },
    ]);
    expect((await anon.rpc('issue_probe_token')).error).not.toBeNull();
  });

  it('sends no Telegram message for a probe lead, and one for a real lead that only looks like one', async () => {
    const anon = createNodeClient(stack.server.url, stack.backend.keys.anonKey);
    const { data: token } = await service().rpc('issue_probe_token');
    const probeLead = { ...QUOTE, email: 'marked@example.com', message: `Check (lead probe ${token as string})` };
    const lookalike = { ...QUOTE, email: 'lookalike@example.com', message: `Check (lead probe ${crypto.randomUUID()})` };
    for (const lead of [probeLead, lookalike]) {
      expect((await anon.from('leads').insert(lead)).error).toBeNull();
      const { data } = await anon.functions.invoke('notify-telegram', {
        body: { firstName: lead.first_name, lastName: lead.last_name, email: lead.email, phone: lead.phone, message: lead.message, page: lead.page },
      });
      expect(data).toMatchObject(lead === probeLead ? { ok: true, probe: true } : { ok: true });
    }
    // (The chat may also get earlier tests' leads, which the outbox sends along: every stored lead is announced.)
    const about = (email: string) => stack.telegram.delivered().filter((m) => m.text.includes(email));
    expect(about('marked@example.com')).toEqual([]);
    expect(about('lookalike@example.com')).toHaveLength(1);
  });
});

describe('what staff see of a probe lead', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await openInboxDb();
    await insertAsOwner(db, 'leads', { ...QUOTE, email: 'real@example.com' });
    await insertAsOwner(db, 'leads', { ...QUOTE, email: 'probe@example.com', probe: true, created_at: new Date(Date.now() - 30 * 3600_000) });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('nothing: not in the list, the counts, the 24-hour figures, the weekly chart or the export', async () => {
    const emails = await as(db, 'staff@aal2', async (tx) => (await tx.query<{ email: string }>('SELECT email FROM public.inbox_leads')).rows.map((r) => r.email));
    expect(emails).toEqual(['real@example.com']);
    const search = await as(db, 'staff@aal2', async (tx) => (await tx.query<{ email: string }>("SELECT email FROM public.search_leads(null, null, null, null, null, 100, 0)")).rows);
    expect(search.map((r) => r.email)).toEqual(['real@example.com']);
    const count = await as(db, 'staff@aal2', async (tx) => (await tx.query<{ n: number }>('SELECT public.count_leads(null, null, null, null, null) AS n')).rows[0]!.n);
    expect(Number(count)).toBe(1);
    const stats = await as(db, 'staff@aal2', async (tx) => (await tx.query<{ s: { new: number; overdue: number; weeks: { total: number }[] } }>('SELECT public.inbox_stats() AS s')).rows[0]!.s);
    expect(stats.new).toBe(1);
    expect(stats.overdue).toBe(0);
    expect(stats.weeks.reduce((n, w) => n + w.total, 0)).toBe(1);
  });
});
