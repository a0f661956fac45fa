/**
 * The `npm start` stack in-process for the backend tests: a fake Telegram, the local backend (its
 * database in a temporary folder) and the static server with the backend in front, on 127.0.0.1.
 * `useLocalStack()` registers the beforeAll/afterAll that start and stop it and, before each test,
 * forgets the per-client rate-limit counts and the Telegram calls (every test is a new visitor).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../supabase-standin/backend';
import { startServer, type RunningServer } from '../../serve/server';
import { resetRateLimits } from '../helpers/site';
import { startFakeTelegram } from './fakeTelegram';

export interface LocalStack {
  /** The temporary folder: the served files in `dist/`, a persistent database in `pglite/`. */
  dir: string;
  backend: LocalBackend;
  server: RunningServer;
  telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
  /**
   * Stops the server and the stand-in, as stopping `npm start` does (what was in flight is cut
   * off), and starts them again on the same database (`persistent`) and a new port.
   */
  restart(): Promise<void>;
}

/**
 * `persistent`: the database lives in `dir/pglite` (as `npm start` keeps it in .data/); otherwise in
 * memory. `allowedOrigins`: pages of other origins that may call the stand-in (createLocalBackend).
 */
export function useLocalStack(opts: {
  telegramToken: string;
  telegramChatId: string;
  persistent?: boolean;
  log?: (line: string) => void;
  allowedOrigins?: string[];
  /** The clock of the functions, the scheduled jobs and the fake Telegram's group limit. */
  now?: () => Date;
  /** More of the functions' environment (TELEGRAM_WEBHOOK_SECRET, ...). */
  env?: Record<string, string>;
}): LocalStack {
  const stack = {} as LocalStack;
  const openBackend = async () => {
    stack.backend = await createLocalBackend({
      dataDir: opts.persistent ? join(stack.dir, 'pglite') : undefined,
      env: { TELEGRAM_BOT_TOKEN: opts.telegramToken, TELEGRAM_CHAT_ID: opts.telegramChatId, TELEGRAM_API_URL: stack.telegram.url, ...opts.env },
      log: opts.log ?? (() => {}),
      allowedOrigins: opts.allowedOrigins,
      now: opts.now,
    });
    stack.server = await startServer({ distDir: join(stack.dir, 'dist'), handlers: [(req, res) => stack.backend.handle(req, res)] });
    await stack.backend.setProjectUrl(stack.server.url);
  };
  stack.restart = async () => {
    await stack.server.close();
    await stack.backend.close();
    await openBackend();
  };
  beforeAll(async () => {
    stack.dir = mkdtempSync(join(tmpdir(), 'local-stack-'));
    mkdirSync(join(stack.dir, 'dist'));
    stack.telegram = await startFakeTelegram({ now: opts.now });
    await openBackend();
  });
  afterAll(async () => {
    await stack.server?.close();
    await stack.backend?.close();
    await stack.telegram?.close();
    if (stack.dir) rmSync(stack.dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await resetRateLimits(stack.backend);
    stack.telegram.reset();
  });
  return stack;
}
