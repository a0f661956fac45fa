/**
 * `npm start` answers pages as soon as they are written: the local backend's database (PGlite and
 * its migrations, seconds on a first start) is opened only once the server listens, and a request
 * for the backend meanwhile waits for it. Here the backend opens only when the test says so (a
 * signal, never a delay), so a server that waited for it before answering pages would never answer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../supabase-standin/backend';
import { serveSite, type RunningSite } from '../../serve/site';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { LOCAL_ANON_KEY } from '../../src/lib/supabase';

describe('npm start while the local backend is still opening', () => {
  let dir: string;
  let site: RunningSite;
  let openBackend: () => void;
  let opening: Promise<LocalBackend>;
  /** Resolves when the server asks for the backend: it does so once it listens. */
  let asked: Promise<void>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'start-order-'));
    writeFileSync(join(dir, 'index.html'), '<!DOCTYPE html><title>Home</title><h1>Home page</h1>');
    const released = new Promise<void>((resolve) => { openBackend = resolve; });
    let markAsked!: () => void;
    asked = new Promise((resolve) => { markAsked = resolve; });
    site = await serveSite({
      distDir: dir,
      openBackend: () => {
        markAsked();
        opening = released.then(() => createLocalBackend({ log: () => {}, env: {} }));
        return opening;
      },
    });
  });
  afterAll(async () => {
    openBackend();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a page before the database is open, and keeps a lead posted meanwhile until it is', async () => {
    await asked;
    const page = await fetch(`${site.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Home page');

    const supabase = createNodeClient(site.url, LOCAL_ANON_KEY);
    const lead = { first_name: 'Early', last_name: 'Visitor', email: 'early@example.com', phone: '(408) 555-0142', message: 'Posted while the server was starting.', page: 'contact' as const };
    // Promise.resolve sends it once (a supabase-js query sends again each time it is awaited).
    const posted = Promise.resolve(supabase.from('leads').insert(lead));
    let answered = false;
    void posted.then(() => { answered = true; });
    // Another page is still answered while the lead waits for the database.
    expect((await fetch(`${site.url}/`)).status).toBe(200);
    expect(answered).toBe(false);

    openBackend();
    const { error, status } = await posted;
    expect(error).toBeNull();
    expect(status).toBe(201);
    const stored = await (await opening).db.query<{ email: string }>('SELECT email FROM public.leads');
    expect(stored.rows.map((r) => r.email)).toEqual(['early@example.com']);
  });
});
