/**
 * `npm run staff` while `npm start` is still opening the local database (a first start takes
 * seconds: initdb and the migrations). PGlite allows one process per data folder; the command used
 * to find no announcement yet, open .data/pglite beside the server and fail with PGlite's raw
 * `ErrnoError { errno: 20 }` (and the server's start with it). Now the server announces itself
 * before it touches the folder and the command waits for it, bounded, with a clear message. Every
 * wait here is on a signal (the server's output, the command's message, a sleep the command asks
 * the injected clock for), never on the real clock.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../supabase-standin/backend';
import { announceLocalServer, localServerFile } from '../../supabase-standin/localServer';
import { startServer } from '../../serve/server';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { LOCAL_SERVER_WAIT_MS, staffCommand, type StaffClock } from '../../staff/command';
import { exited, startChildServer, type ChildServer } from '../helpers/childProcess.js';
import { projectCopy } from '../generator/projectCopy.js';

const PASSWORD = 'purple-otter-42-lamp';

/** A clock whose sleeps end only when the test says so; `asleep` resolves at the next sleep asked for. */
class HeldClock implements StaffClock {
  private t = 0;
  private wake: (() => void) | undefined;
  private onSleep: (() => void) | undefined;
  asleep = this.nextSleep();
  now = () => this.t;
  sleep = (ms: number) => new Promise<void>((resolve) => {
    this.wake = () => {
      this.t += ms;
      resolve();
    };
    this.onSleep?.();
  });
  /** Ends the current sleep; `asleep` then waits for the next one. */
  tick(): void {
    const wake = this.wake;
    this.wake = undefined;
    this.asleep = this.nextSleep();
    wake?.();
  }
  private nextSleep(): Promise<void> {
    return new Promise((resolve) => (this.onSleep = resolve));
  }
}

/** A clock whose sleeps end at once, time jumping ahead: a server that never gets ready. */
const instantClock = (): StaffClock & { slept: number } => {
  const clock = { t: 0, slept: 0, now: () => clock.t, sleep: async (ms: number) => { clock.t += ms; clock.slept += 1; } };
  return clock;
};

/** The command's next sleep; fails at once if the command ends without asking for one. */
async function untilAsleep(clock: HeldClock, command: ReturnType<typeof staff>): Promise<void> {
  await Promise.race([
    clock.asleep,
    command.done.then((r) => { throw new Error(`the command ended instead of waiting (${r.code}): ${r.out}${r.err}`); }),
  ]);
}

function staff(args: string[], opts: { root: string; input?: string; clock?: StaffClock }) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { out: '', err: '' };
  stdout.on('data', (c: Buffer) => (chunks.out += c.toString()));
  stderr.on('data', (c: Buffer) => (chunks.err += c.toString()));
  const done = staffCommand(args, { stdin: Readable.from([opts.input ?? '']), stdout, stderr, env: {}, root: opts.root, ...(opts.clock && { clock: opts.clock }) });
  return { done: done.then((code) => ({ code, ...chunks })), err: () => chunks.err };
}

describe('npm run staff while npm start opens the database', () => {
  const roots: string[] = [];
  const tempRoot = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    roots.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of roots) rmSync(dir, { recursive: true, force: true });
  });

  it('a real npm start: the command waits for its database and goes through it', async () => {
    const root = await projectCopy(tempRoot('staff-start-race-'), { lockfile: false });
    let server: ChildServer | undefined;
    try {
      // PORT=0: a free port; "Serving <url>" is printed once it listens, while the database is
      // still being opened (this copy has no PGlite snapshot in its .cache/: initdb takes seconds).
      server = await startChildServer(process.execPath, ['cli/main.mjs', 'start'], {
        cwd: root,
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SUPABASE_URL: '', SUPABASE_ANON_KEY: '', DIST_DIR: join(root, 'dist') },
        ready: /Serving (http:\/\/[^\s]+)/,
        timeoutMs: 120_000,
        what: 'npm start',
      });
      const added = await staff(['add', 'owner@example.com'], { root, input: `${PASSWORD}\n${PASSWORD}\n` }).done;
      expect(added, server.output()).toMatchObject({ code: 0 });
      expect(added.out).toContain(`through npm start at ${server.url}`);
      expect(added.err).not.toContain('ErrnoError');
      const { error } = await createNodeClient(server.url, 'local-anon-key').auth.signInWithPassword({ email: 'owner@example.com', password: PASSWORD });
      expect(error).toBeNull();
      expect(server.output()).not.toMatch(/unusable PGlite snapshot|could not start/);
    } finally {
      await server?.close();
    }
    expect(existsSync(localServerFile(root)), 'the announcement goes with the server').toBe(false);
  });

  it('waits while the server announces "starting", then goes through it once it is ready', async () => {
    const root = tempRoot('staff-starting-');
    const dist = tempRoot('staff-dist-');
    const site = await startServer({ distDir: dist, handlers: [] });
    // This test's process plays npm start: announced, its database not yet open.
    announceLocalServer(root, site.url, 'starting');
    const clock = new HeldClock();
    const command = staff(['list'], { root, clock });
    await untilAsleep(clock, command);
    expect(command.err()).toContain(`npm start (${site.url}) is still opening the local database; waiting for it`);
    clock.tick();
    await untilAsleep(clock, command); // still starting: it asks to sleep again
    expect(existsSync(join(root, '.data', 'pglite')), 'the command did not open the database itself').toBe(false);

    const backend = await createLocalBackend({ dataDir: join(root, '.data', 'pglite'), log: () => {} });
    const api = await startServer({ distDir: dist, handlers: [(req, res) => backend.handle(req, res)] });
    try {
      announceLocalServer(root, api.url, 'ready');
      clock.tick();
      const listed = await command.done;
      expect(listed).toMatchObject({ code: 0 });
      expect(listed.out).toContain(`No staff yet on the local site, through npm start at ${api.url}`);
    } finally {
      rmSync(localServerFile(root), { force: true });
      await api.close();
      await site.close();
      await backend.close();
    }
  });

  it('gives up with a clear message when the server never gets ready, and opens nothing itself', async () => {
    const root = tempRoot('staff-never-ready-');
    announceLocalServer(root, 'http://127.0.0.1:9', 'starting');
    try {
      const clock = instantClock();
      const result = await staff(['add', 'owner@example.com'], { root, input: `${PASSWORD}\n${PASSWORD}\n`, clock }).done;
      expect(result.code).toBe(1);
      expect(result.err).toContain(`npm start (http://127.0.0.1:9, process ${process.pid}) has not finished opening the local database after ${LOCAL_SERVER_WAIT_MS / 1000} s`);
      expect(result.err).toContain('Nothing was changed.');
      expect(result.err).not.toContain('ErrnoError');
      expect(clock.now()).toBe(LOCAL_SERVER_WAIT_MS);
      expect(existsSync(join(root, '.data', 'pglite'))).toBe(false);
    } finally {
      rmSync(localServerFile(root), { force: true });
    }
  });

  it('opens the database itself when the starting server stops while it waits', async () => {
    const root = tempRoot('staff-stopped-');
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    try {
      // Another process's announcement (the file names its pid), as npm start writes it.
      mkdirSync(join(root, '.data'), { recursive: true });
      writeFileSync(localServerFile(root), JSON.stringify({ url: 'http://127.0.0.1:9', pid: other.pid, state: 'starting' }));
      const clock = new HeldClock();
      const command = staff(['list'], { root, clock });
      await untilAsleep(clock, command);
      other.kill();
      await exited(other);
      clock.tick();
      const listed = await command.done;
      expect(listed).toMatchObject({ code: 0 });
      expect(listed.out).toContain('No staff yet on the local site (.data/)');
    } finally {
      other.kill();
    }
  });
});
