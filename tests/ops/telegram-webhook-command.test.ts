/**
 * `npm run telegram -- webhook | webhook-info` against the fake Telegram: the webhook is registered
 * at the project's function with the secret and the two kinds of updates the function reads; a
 * missing or weak secret, a missing token or an http address registers nothing, and no output ever
 * holds the token or the secret.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { telegramCommand } from '../../ops/telegramWebhook.js';
import { startFakeTelegram } from '../backend/fakeTelegram.js';

const TOKEN = '7000000001:webhook-command-token';
const SECRET = 'a'.repeat(20) + '0123456789abcdef_-XYZ';
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;

beforeAll(async () => {
  telegram = await startFakeTelegram();
});
afterAll(async () => {
  await telegram?.close();
});
beforeEach(() => telegram.reset());

async function run(args: string[], env: Record<string, string | undefined>) {
  const lines: string[] = [];
  const code = await telegramCommand(args, { TELEGRAM_API_URL: telegram.url, ...env }, (l) => lines.push(l));
  const output = lines.join('\n');
  expect(output).not.toContain(TOKEN);
  expect(output).not.toContain(SECRET);
  return { code, output };
}

const env = { SUPABASE_URL: 'https://abcdefghijklmnopqrst.supabase.co/', TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: SECRET };

describe('npm run telegram -- webhook', () => {
  it('registers the function with the secret and the updates it reads, and checks that Telegram has it', async () => {
    const { code, output } = await run(['webhook'], env);
    expect(code).toBe(0);
    expect(telegram.callsOf('setWebhook')).toEqual([{
      url: 'https://abcdefghijklmnopqrst.supabase.co/functions/v1/telegram-webhook',
      secret_token: SECRET,
      allowed_updates: ['callback_query', 'message'],
      max_connections: 10,
    }]);
    expect(telegram.calls[0]!.path).toBe(`/bot${TOKEN}/setWebhook`);
    expect(output).toContain('https://abcdefghijklmnopqrst.supabase.co/functions/v1/telegram-webhook');

    const info = await run(['webhook-info'], env);
    expect(info.code).toBe(0);
    expect(info.output).toContain('Webhook: https://abcdefghijklmnopqrst.supabase.co/functions/v1/telegram-webhook');
    expect(info.output).toContain('callback_query, message');
  });

  it('without a secret, offers a new one and registers nothing', async () => {
    const { code, output } = await run(['webhook'], { ...env, TELEGRAM_WEBHOOK_SECRET: undefined });
    expect(code).toBe(1);
    expect(output).toMatch(/A new one, made just now: [0-9a-f]{64}/);
    expect(output).toContain('GitHub secret TELEGRAM_WEBHOOK_SECRET');
    expect(telegram.calls).toEqual([]);
  });

  it.each([
    ['a short secret', { TELEGRAM_WEBHOOK_SECRET: 'short' }, /32 to 256 letters/],
    ['a secret with characters Telegram refuses', { TELEGRAM_WEBHOOK_SECRET: `${'x'.repeat(40)} !` }, /32 to 256 letters/],
    ['an http address', { SUPABASE_URL: 'http://abcdefghijklmnopqrst.supabase.co' }, /must start with https/],
    ['no project address', { SUPABASE_URL: undefined }, /Set SUPABASE_URL/],
    ['no bot token', { TELEGRAM_BOT_TOKEN: undefined }, /Set TELEGRAM_BOT_TOKEN/],
  ])('refuses %s, registering nothing', async (_what, change, message) => {
    const { code, output } = await run(['webhook'], { ...env, ...change });
    expect(code).toBe(1);
    expect(output).toMatch(message);
    expect(telegram.calls).toEqual([]);
  });

  it('says what Telegram refused, without the token', async () => {
    telegram.state.reply = { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } };
    const { code, output } = await run(['webhook'], env);
    expect(code).toBe(1);
    expect(output).toContain('Telegram refused setWebhook: HTTP 401, Unauthorized');
  });

  it('says when no webhook is registered', async () => {
    const { code, output } = await run(['webhook-info'], env);
    expect(code).toBe(0);
    expect(output).toContain('No webhook is registered');
  });
});
