/**
 * `npm run staff`: add, list, remove and reset staff accounts, with the password piped on stdin,
 * against the local stand-in as production (SUPABASE_URL + service role key), opened in-process on
 * .data/, and through a running `npm start` that announced itself. The accounts are then used as
 * the inbox uses them, through supabase-js.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { SupabaseClient } from '@supabase/supabase-js';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../supabase-standin/backend';
import { startServer, type RunningServer } from '../../serve/server';
import { announceLocalServer, staffCommand } from '../../staff/command';

const REPO = resolve(__dirname, '../..');
const PASSWORD = 'purple-otter-42-lamp';
const NEW_PASSWORD = 'seven-rivers-under-snow';


function client(url: string, key: string): SupabaseClient {
  return createNodeClient(url, key);
}

/** Runs the command in-process with `input` as its stdin (a pipe, not a terminal). */
async function staff(args: string[], opts: { input?: string; env: Record<string, string | undefined>; root?: string }) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { out: '', err: '' };
  stdout.on('data', (c: Buffer) => (chunks.out += c.toString()));
  stderr.on('data', (c: Buffer) => (chunks.err += c.toString()));
  const code = await staffCommand(args, {
    stdin: Readable.from([opts.input ?? '']),
    stdout,
    stderr,
    env: opts.env,
    root: opts.root ?? mkdtempSync(join(tmpdir(), 'staff-root-')),
  });
  return { code, out: chunks.out, err: chunks.err, all: chunks.out + chunks.err };
}

describe('npm run staff against a Supabase project (SUPABASE_URL and the service role key)', () => {
  let backend: LocalBackend;
  let server: RunningServer;
  let dist: string;
  let env: Record<string, string>;
  const outputs: string[] = [];
  const run = async (args: string[], input?: string) => {
    const result = await staff(args, { input, env });
    outputs.push(result.all);
    return result;
  };
  const anon = () => client(server.url, backend.keys.anonKey);

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'staff-dist-'));
    backend = await createLocalBackend({ dataDir: undefined, env: {}, log: () => {} });
    server = await startServer({ distDir: dist, handlers: [(req, res) => backend.handle(req, res)] });
    env = { SUPABASE_URL: server.url, SUPABASE_SERVICE_ROLE_KEY: backend.keys.serviceRoleKey };
  });
  afterAll(async () => {
    await server?.close();
    await backend?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('adds a staff account that signs in with the piped password', async () => {
    const added = await run(['add', 'Owner@Example.com'], `${PASSWORD}\n${PASSWORD}\n`);
    expect(added).toMatchObject({ code: 0 });
    expect(added.out).toContain('Added owner@example.com to the staff');
    const { rows } = await backend.db.query<{ email: string }>('SELECT email FROM private.staff');
    expect(rows).toEqual([{ email: 'owner@example.com' }]);

    const { data, error } = await anon().auth.signInWithPassword({ email: 'owner@example.com', password: PASSWORD });
    expect(error).toBeNull();
    expect(data.user?.email_confirmed_at).toBeTruthy();
  });

  it('refuses a weak password, two different passwords and a password on the command line', async () => {
    const weak = await run(['add', 'short@example.com'], 'tiny-pass\ntiny-pass\n');
    expect(weak.code).toBe(1);
    expect(weak.err).toContain('at least 12 characters');
    const differ = await run(['add', 'typo@example.com'], `${PASSWORD}\n${PASSWORD}x\n`);
    expect(differ.code).toBe(1);
    expect(differ.err).toContain('The two passwords differ');
    const inline = await run(['add', 'inline@example.com', PASSWORD]);
    expect(inline.code).toBe(1);
    expect(inline.err).toContain('never taken on the command line');
    const { data } = await client(server.url, backend.keys.serviceRoleKey).auth.admin.listUsers();
    expect(data.users.map((u) => u.email).sort()).toEqual(['owner@example.com']);
  });

  it('lists the staff with the second factor and the last sign-in', async () => {
    const before = await run(['list']);
    expect(before.code).toBe(0);
    expect(before.out).toMatch(/owner@example\.com\s+\d{4}-\d{2}-\d{2}\s+not yet\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);

    // The owner's first sign-in at /leads: the authenticator app is set up.
    const owner = anon();
    await owner.auth.signInWithPassword({ email: 'owner@example.com', password: PASSWORD });
    const { data: factor } = await owner.auth.mfa.enroll({ factorType: 'totp' });
    const code = new TOTP({ secret: Secret.fromBase32(factor!.totp.secret) }).generate();
    expect((await owner.auth.mfa.challengeAndVerify({ factorId: factor!.id, code })).error).toBeNull();

    const after = await run(['list']);
    expect(after.out).toMatch(/owner@example\.com\s+\S+\s+set up\s/);
  });

  it('resets a lost phone: new password, no second factor, sessions ended', async () => {
    const owner = anon();
    const { data: signedIn } = await owner.auth.signInWithPassword({ email: 'owner@example.com', password: PASSWORD });
    const reset = await run(['reset', 'owner@example.com'], `${NEW_PASSWORD}\n${NEW_PASSWORD}\n`);
    expect(reset.code).toBe(0);
    expect(reset.out).toContain('the second factor was removed');

    expect((await anon().auth.signInWithPassword({ email: 'owner@example.com', password: PASSWORD })).error?.code).toBe('invalid_credentials');
    expect((await anon().auth.getUser(signedIn.session!.access_token)).error?.name).toBe('AuthSessionMissingError');
    const again = anon();
    expect((await again.auth.signInWithPassword({ email: 'owner@example.com', password: NEW_PASSWORD })).error).toBeNull();
    expect((await again.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
    expect((await run(['list'])).out).toMatch(/owner@example\.com\s+\S+\s+not yet\s/);
  });

  it('says so for an email that is not staff, and for an unknown command', async () => {
    const unknown = await run(['remove', 'nobody@example.com']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('nobody@example.com is not on the staff list');
    expect((await run(['reset', 'nobody@example.com'], `${NEW_PASSWORD}\n${NEW_PASSWORD}\n`)).code).toBe(1);
    expect((await run(['add', 'not-an-email'])).err).toContain('is not an email address');
    expect((await run(['promote', 'owner@example.com'])).code).toBe(2);
  });

  it('removes a staff member: off the list, account deleted, signed out', async () => {
    const owner = anon();
    const { data } = await owner.auth.signInWithPassword({ email: 'owner@example.com', password: NEW_PASSWORD });
    const removed = await run(['remove', 'owner@example.com']);
    expect(removed.code).toBe(0);
    expect((await backend.db.query('SELECT 1 FROM private.staff')).rows).toEqual([]);
    expect((await anon().auth.signInWithPassword({ email: 'owner@example.com', password: NEW_PASSWORD })).error?.code).toBe('invalid_credentials');
    expect((await anon().auth.getUser(data.session!.access_token)).error).toBeTruthy();
    expect((await run(['list'])).out).toContain('No staff yet');
  });

  it('puts an account that already exists (invited in the dashboard) on the staff without touching its password', async () => {
    const admin = client(server.url, backend.keys.serviceRoleKey);
    expect((await admin.auth.admin.createUser({ email: 'invited@example.com', password: PASSWORD, email_confirm: true })).error).toBeNull();
    const added = await run(['add', 'invited@example.com']);
    expect(added.code).toBe(0);
    expect(added.out).toContain('already had an account');
    expect((await run(['list'])).out).toContain('invited@example.com');
    expect((await anon().auth.signInWithPassword({ email: 'invited@example.com', password: PASSWORD })).error).toBeNull();
    const twice = await run(['add', 'invited@example.com']);
    expect(twice.code).toBe(1);
    expect(twice.err).toContain('already on the staff');
  });

  it('never printed a password', () => {
    const text = outputs.join('\n');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(NEW_PASSWORD);
    expect(text).not.toContain('tiny-pass');
  });
});

describe('npm run staff on the local site (.data/)', () => {
  const root = mkdtempSync(join(tmpdir(), 'staff-local-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('opens the local database itself when npm start is not running, then through npm start once it announces itself', async () => {
    const env = {};
    // What a killed `npm start` leaves behind: an announcement whose process is gone.
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((done) => gone.on('close', done));
    mkdirSync(join(root, '.data'), { recursive: true });
    writeFileSync(join(root, '.data', 'local-server.json'), JSON.stringify({ url: 'http://127.0.0.1:9', pid: gone.pid }));
    const added = await staff(['add', 'owner@example.com'], { input: `${PASSWORD}\n${PASSWORD}\n`, env, root });
    expect(added.code).toBe(0);
    expect(added.out).toContain('the local site (.data/)');
    expect(existsSync(join(root, '.data', 'pglite'))).toBe(true);

    // `npm start` on the same data: the command must go through it (the data folder is its now).
    const backend = await createLocalBackend({ dataDir: join(root, '.data', 'pglite'), log: () => {} });
    const dist = mkdtempSync(join(tmpdir(), 'staff-dist-'));
    const server = await startServer({ distDir: dist, handlers: [(req, res) => backend.handle(req, res)] });
    try {
      announceLocalServer(root, server.url);
      const listed = await staff(['list'], { env, root });
      expect(listed.code).toBe(0);
      expect(listed.out).toContain(`through npm start at ${server.url}`);
      expect(listed.out).toMatch(/owner@example\.com\s+\S+\s+not yet\s+never/);
      const { error } = await client(server.url, backend.keys.anonKey).auth.signInWithPassword({ email: 'owner@example.com', password: PASSWORD });
      expect(error).toBeNull();
    } finally {
      rmSync(join(root, '.data', 'local-server.json'), { force: true });
      await server.close();
      await backend.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('npm run staff as a process', () => {
  let backend: LocalBackend;
  let server: RunningServer;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'staff-dist-'));
    backend = await createLocalBackend({ dataDir: undefined, env: {}, log: () => {} });
    server = await startServer({ distDir: dist, handlers: [(req, res) => backend.handle(req, res)] });
  });
  afterAll(async () => {
    await server?.close();
    await backend?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('takes the password from piped stdin: never in its arguments, never in its output', async () => {
    const argv = [join(REPO, 'node_modules/tsx/dist/cli.mjs'), '-e', "import('./staff/command.ts').then(async (m) => { process.exitCode = await m.staffCommand(process.argv.slice(1)); })", 'add', 'office@example.com'];
    const child = spawn(process.execPath, argv, {
      cwd: REPO,
      env: { ...process.env, SUPABASE_URL: server.url, SUPABASE_SERVICE_ROLE_KEY: backend.keys.serviceRoleKey },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.stdin.end(`${PASSWORD}\n${PASSWORD}\n`);
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(output).toContain('Added office@example.com to the staff');
    expect(code).toBe(0);
    expect(argv.join(' ')).not.toContain(PASSWORD);
    expect(output).not.toContain(PASSWORD);
    const { error } = await client(server.url, backend.keys.anonKey).auth.signInWithPassword({ email: 'office@example.com', password: PASSWORD });
    expect(error).toBeNull();
  });
});
