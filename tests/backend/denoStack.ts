/**
 * An edge function as Supabase runs it, for the Deno tests: its index.ts under Deno, talking to the
 * local stand-in (in memory, served on 127.0.0.1) with the service role key, and to a fake Telegram;
 * plus a second copy whose database nothing answers (port 1), for the 503 paths.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../serve/server';
import { createLocalBackend, type LocalBackend } from '../../supabase-standin/backend';
import { startDenoFunction, type DenoFunction } from '../helpers/deno';
import { startFakeTelegram } from './fakeTelegram';

export interface DenoStack {
  telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
  backend: LocalBackend;
  server: RunningServer;
  /** The function with the stand-in as its database. */
  fn: DenoFunction;
  /** The function with a database that nothing answers. */
  cutOff: DenoFunction;
  close(): Promise<void>;
}

/**
 * `env`: the owner's secrets beside what Supabase injects (the project's URL and keys) and the
 * office chat (`token`, `chatId`, the fake's address); `standInChat`: the stand-in's own functions
 * send to the same chat too.
 */
export async function startDenoStack(name: string, opts: { token: string; chatId: string; env?: Record<string, string>; standInChat?: boolean }): Promise<DenoStack> {
  const dir = await mkdtemp(path.join(tmpdir(), `${name}-deno-`));
  const telegram = await startFakeTelegram();
  const chat = { TELEGRAM_BOT_TOKEN: opts.token, TELEGRAM_CHAT_ID: opts.chatId, TELEGRAM_API_URL: telegram.url };
  const backend = await createLocalBackend({ dataDir: undefined, env: opts.standInChat ? chat : {}, log: () => {} });
  const server = await startServer({ distDir: dir, handlers: [(req, res) => backend.handle(req, res)] });
  const functionEnv = (supabaseUrl: string): Record<string, string> => ({
    SUPABASE_URL: supabaseUrl,
    SUPABASE_ANON_KEY: backend.keys.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: backend.keys.serviceRoleKey,
    ...chat,
    ...opts.env,
  });
  const [fn, cutOff] = await Promise.all([startDenoFunction(name, functionEnv(server.url)), startDenoFunction(name, functionEnv('http://127.0.0.1:1'))]);
  return {
    telegram, backend, server, fn, cutOff,
    async close() {
      await Promise.all([fn.close(), cutOff.close()]);
      await server.close();
      await backend.close();
      await telegram.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
