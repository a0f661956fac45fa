/**
 * `npm run dev` opens the local Supabase stand-in only when a page first asks for it. Opening PGlite
 * and applying the migrations holds the process for seconds, and it used to start as the server
 * began to listen: the first save after `npm run dev` was in the open tab 17 s later. The real
 * command runs in a copy of the project (its .data/ is the copy's own); each step waits for a
 * signal (the line it prints, a response), never for a while.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localApiKey } from '../../supabase-standin/gateway.js';
import { localServerFile, readLocalServer } from '../../supabase-standin/localServer.js';
import { startChildServer, type ChildServer } from '../helpers/childProcess.js';
import { projectCopy } from '../generator/projectCopy.js';

describe('npm run dev and the local database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dev-backend-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is not opened before the first request for it, which waits for it and is answered', { timeout: 240_000 }, async () => {
    const root = await projectCopy(dir, { lockfile: false });
    let dev: ChildServer | undefined;
    try {
      dev = await startChildServer(process.execPath, ['cli/main.mjs', 'dev'], {
        cwd: root,
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SUPABASE_URL: '', SUPABASE_ANON_KEY: '', DIST_DIR: join(root, 'dist') },
        ready: /Dev server on (http:\/\/[\d.]+:\d+)/,
        timeoutMs: 180_000,
        what: 'npm run dev',
      });
      // npm start announces itself (then opens the folder) before it says where it serves.
      const page = await fetch(`${dev.url}/contact`);
      expect(page.status).toBe(200);
      expect(existsSync(localServerFile(root)), 'no announcement: nothing holds the database').toBe(false);
      expect(existsSync(join(root, '.data', 'pglite')), 'the database folder is untouched').toBe(false);

      const health = await fetch(`${dev.url}/auth/v1/health`, { headers: { apikey: localApiKey() } });
      expect(health.status, dev.output()).toBe(200);
      expect(readLocalServer(root)).toMatchObject({ kind: 'running', url: dev.url, pid: dev.child.pid, state: 'ready' });
      expect(dev.output()).not.toMatch(/could not|not opened/);
    } finally {
      await dev?.close();
    }
    expect(existsSync(localServerFile(root)), 'the announcement goes with the server').toBe(false);
  });
});
