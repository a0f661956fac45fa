/**
 * npm run bench -- delivery: how long a lead takes from its insert to the office chat, in real time,
 * on the `npm start` stack (the stand-in with its scheduled jobs running every minute as under
 * `npm start`, the site's server, a fake Telegram that answers like Telegram: 502 while down, 429
 * past 20 messages a minute). One line per case of issue 30:
 *   browser call     the form's insert, then its call (median of 5)
 *   no call          the insert only: the next scheduled run sends it
 *   Telegram down    down for 90 s after the insert, then back: the backoff's next try sends it
 *   burst of 25      25 leads from 25 addresses in a few seconds: the last one's time (the budget is 18 a minute)
 * Takes about four minutes: it waits for the scheduler's real minutes.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { startServer } from '../serve/server.js';
import { createNodeClient } from '../staff/supabaseNode.js';
import { createLocalBackend } from '../supabase-standin/backend.js';
import { startFakeTelegram } from '../tools/fakeTelegram.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchDelivery(log: (line: string) => void = console.log): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-delivery-'));
  mkdirSync(join(dir, 'dist'));
  const telegram = await startFakeTelegram();
  const backend = await createLocalBackend({
    dataDir: join(dir, 'pglite'),
    env: { TELEGRAM_BOT_TOKEN: '42:bench', TELEGRAM_CHAT_ID: '-100', TELEGRAM_API_URL: telegram.url },
    log: () => {},
    schedule: true,
  });
  const server = await startServer({ distDir: join(dir, 'dist'), handlers: [(req, res) => backend.handle(req, res)] });
  await backend.setProjectUrl(server.url);
  let n = 0;

  /** A visitor's client from its own loopback address (the stand-in limits leads per address). */
  function visitor() {
    n++;
    const dispatcher = new Agent({ localAddress: `127.0.${10 + Math.floor(n / 250)}.${(n % 250) + 1}` });
    const viaAddress = ((input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) =>
      undiciFetch(input, { ...init, dispatcher })) as unknown as typeof fetch;
    return createNodeClient(server.url, backend.keys.anonKey, { global: { fetch: viaAddress } });
  }

  /** Stores a lead as the form does and, with `call`, makes the form's call; resolves when the insert is stored. */
  async function submit(call: boolean): Promise<{ email: string; insertedAt: number; called: Promise<unknown> }> {
    const client = visitor();
    const lead = { first_name: 'Bench', last_name: `Lead ${n}`, email: `bench-${n}@example.com`, phone: '(408) 555-0100', message: 'How long to the chat?', page: 'contact' };
    const { error } = await client.from('leads').insert(lead);
    if (error) throw new Error(`insert: ${error.message}`);
    const insertedAt = Date.now();
    const called = call
      ? client.functions.invoke('notify-telegram', { body: { firstName: lead.first_name, lastName: lead.last_name, email: lead.email, phone: lead.phone, message: lead.message, page: lead.page } })
      : Promise.resolve();
    return { email: lead.email, insertedAt, called };
  }

  /** Resolves with the ms from insert to the chat, watching the fake's chat. */
  async function arrival({ email, insertedAt }: { email: string; insertedAt: number }, limitMs = 10 * 60_000): Promise<number> {
    for (;;) {
      const message = telegram.delivered().find((m) => m.text.includes(email));
      if (message) return message.at.getTime() - insertedAt;
      if (Date.now() - insertedAt > limitMs) throw new Error(`${email} did not arrive within ${limitMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  try {
    const fast: number[] = [];
    for (let i = 0; i < 5; i++) {
      const lead = await submit(true);
      await lead.called;
      fast.push(await arrival(lead));
    }
    log(`browser call      ${median(fast).toFixed(0)} ms (median of 5)`);

    const noCall = await submit(false);
    log(`no call           ${(await arrival(noCall) / 1000).toFixed(1)} s (the next scheduled run; at most a minute)`);

    telegram.state.down = true;
    const down = await submit(true);
    await down.called;
    setTimeout(() => { telegram.state.down = false; }, 90_000).unref();
    log(`Telegram down 90 s ${(await arrival(down) / 1000).toFixed(1)} s (tries ${telegram.calls.filter((c) => String(c.body.text).includes(down.email)).length})`);

    await new Promise((resolve) => setTimeout(resolve, 61_000)); // a minute of the budget of its own
    const burst: Array<Awaited<ReturnType<typeof submit>>> = [];
    for (let i = 0; i < 25; i++) burst.push(await submit(true));
    await Promise.all(burst.map((l) => l.called));
    const times: number[] = [];
    for (const lead of burst) times.push(await arrival(lead));
    const inOrder = telegram.delivered().filter((m) => burst.some((l) => m.text.includes(l.email))).map((m) => /bench-\d+@/.exec(m.text)![0]);
    log(`burst of 25       first ${(times[0]! / 1000).toFixed(1)} s, last ${(Math.max(...times) / 1000).toFixed(1)} s; in order: ${inOrder.join() === burst.map((l) => /bench-\d+@/.exec(l.email)![0]).join()}; 429s: ${telegram.state.tooMany}`);
  } finally {
    await server.close();
    await backend.close();
    await telegram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

