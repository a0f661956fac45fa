/**
 * `npm run staff -- add <email> | list | remove <email> | reset <email>`: who may sign in to the
 * lead inbox (/leads). Everything goes through supabase-js as the service role: Supabase Auth's
 * admin API for the accounts and the staff_add / staff_remove / staff_list functions of the
 * inbox migration for the staff list, so the same command works on both backends:
 * - production, when SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY (or SUPABASE_SECRET_KEY) are set;
 * - otherwise the local stand-in on .data/: the running `npm start` if there is one (it announces
 *   itself in .data/local-server.json), else the same backend opened here for the command's length.
 * Passwords are asked for (twice, hidden on a terminal; read as lines when stdin is a pipe) and
 * never taken from the command line, never printed, never logged.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { SupabaseClient, User } from '@supabase/supabase-js';
import { createNodeClient } from './supabaseNode.js';
import { createLocalBackend } from '../supabase-standin/backend.js';
import { localApiKey } from '../supabase-standin/gateway.js';
import { listenLocally } from '../supabase-standin/listen.js';
import { loadLocalKeys } from '../supabase-standin/localKeys.js';
import { readLocalServer } from '../supabase-standin/localServer.js';

/** Staff passwords guard every lead's personal data: longer than Supabase's default minimum of 6. */
export const MIN_STAFF_PASSWORD_LENGTH = 12;

export interface StaffIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
  /** The project folder; the local data lives in `<root>/.data/`. */
  root: string;
  /** For waiting on a starting `npm start`; the real clock when omitted. */
  clock?: StaffClock;
}

const USAGE = `Usage: npm run staff -- <command>
  add <email>      create a staff account (asks for its password) and put it on the staff list
  list             the staff: email, when added, second factor set up or not, last sign-in
  remove <email>   take someone off the staff and delete their account (their sessions end, their Telegram is unlinked)
  reset <email>    new password, no second factor and no linked Telegram (lost phone): the next sign-in sets one up again
Production when SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are set; else the local site (.data/).`;

/** A refusal the user can act on: printed as it is, exit code 1. */
class StaffError extends Error {}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export { announceLocalServer } from '../supabase-standin/localServer.js';

/** How long the command waits for a starting `npm start` to open the local database. */
export const LOCAL_SERVER_WAIT_MS = 120_000;

/** Time as the command waits on it (tests give their own, so no test waits on the real one). */
export interface StaffClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: StaffClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * The running `npm start`'s URL once its database is open, or undefined when none holds .data/.
 * While it is still opening the database (a first start takes seconds) the command waits for it,
 * up to LOCAL_SERVER_WAIT_MS: opening the folder beside it would fail (PGlite's ErrnoError) and
 * could damage the database. A live process that announced no usable address is refused.
 */
async function runningLocalServer(io: StaffIo): Promise<string | undefined> {
  const clock = io.clock ?? realClock;
  let deadline: number | undefined;
  for (let pause = 50; ; pause = Math.min(pause * 2, 1000)) {
    const announced = readLocalServer(io.root);
    if (announced === undefined) return undefined; // none, or it stopped meanwhile: the folder is free
    if (announced.kind === 'unusable') {
      throw new StaffError(`${announced.file} names a running process (${announced.pid}) but no usable address: stop npm start and try again.`);
    }
    if (announced.state === 'ready') return announced.url;
    if (deadline === undefined) {
      deadline = clock.now() + LOCAL_SERVER_WAIT_MS;
      io.stderr.write(`npm start (${announced.url}) is still opening the local database; waiting for it...\n`);
    } else if (clock.now() >= deadline) {
      throw new StaffError(
        `npm start (${announced.url}, process ${announced.pid}) has not finished opening the local database after ${LOCAL_SERVER_WAIT_MS / 1000} s. ` +
          'Look at its output for an error; run this command again once it has started, or stop npm start (Ctrl+C) and run it then. Nothing was changed.',
      );
    }
    await clock.sleep(Math.min(pause, Math.max(0, deadline - clock.now())));
  }
}

function serviceClient(url: string, key: string): SupabaseClient {
  return createNodeClient(url, key);
}

interface Backend {
  supabase: SupabaseClient;
  /** Where the changes go, for the messages. */
  where: string;
  close(): Promise<void>;
}

/** The backend the command manages, by the rules in the header. */
async function openBackend(io: StaffIo): Promise<Backend> {
  const url = io.env.SUPABASE_URL?.trim();
  const key = (io.env.SUPABASE_SERVICE_ROLE_KEY || io.env.SUPABASE_SECRET_KEY)?.trim();
  if (url) {
    if (!key) {
      throw new StaffError(
        'SUPABASE_URL is set, so the staff of that project is managed: set SUPABASE_SERVICE_ROLE_KEY (Supabase dashboard → Project Settings → API keys → the secret / service_role key) for this command, or unset SUPABASE_URL to manage the local site.',
      );
    }
    return { supabase: serviceClient(url, key), where: `the Supabase project ${new URL(url).host}`, close: async () => {} };
  }
  const dataDir = path.join(io.root, '.data', 'pglite');
  const anonKey = localApiKey(io.env.SUPABASE_ANON_KEY);
  const running = await runningLocalServer(io);
  if (running) {
    return { supabase: serviceClient(running, loadLocalKeys(dataDir, anonKey).serviceRoleKey), where: `the local site, through npm start at ${running}`, close: async () => {} };
  }
  const backend = await createLocalBackend({ dataDir, apiKey: anonKey, log: () => {} });
  try {
    const server = await listenLocally(backend);
    return {
      supabase: serviceClient(server.url, backend.keys.serviceRoleKey),
      where: 'the local site (.data/)',
      close: async () => {
        await server.close();
        await backend.close();
      },
    };
  } catch (err) {
    await backend.close();
    throw err;
  }
}

/** Reads answers: hidden keystrokes on a terminal, else one line of stdin per question. */
class Prompter {
  private lines: AsyncIterator<string> | undefined;

  constructor(private readonly io: StaffIo) {}

  async ask(question: string): Promise<string> {
    this.io.stderr.write(question);
    if (this.io.stdin.isTTY && this.io.stdin.setRawMode) return this.hidden();
    this.lines ??= createInterface({ input: this.io.stdin, terminal: false, crlfDelay: Infinity })[Symbol.asyncIterator]();
    const next = await this.lines.next();
    if (next.done) throw new StaffError('No password given: stdin ended before it.');
    return next.value;
  }

  /** Raw mode, nothing echoed; Enter ends, Backspace deletes, Ctrl-C or Ctrl-D aborts. */
  private hidden(): Promise<string> {
    const { stdin, stderr } = this.io;
    return new Promise((resolve, reject) => {
      let answer = '';
      const done = (err?: Error) => {
        stdin.removeListener('data', onData);
        stdin.setRawMode!(false);
        stdin.pause();
        stderr.write('\n');
        if (err) reject(err);
        else resolve(answer);
      };
      const onData = (chunk: Buffer | string) => {
        for (const ch of chunk.toString()) {
          if (ch === '\r' || ch === '\n') return done();
          if (ch === '\u0003' || ch === '\u0004') return done(new StaffError('Cancelled.'));
          if (ch === '\u007f' || ch === '\b') answer = [...answer].slice(0, -1).join('');
          else if (ch >= ' ') answer += ch;
        }
      };
      stdin.setRawMode!(true);
      stdin.resume();
      stdin.on('data', onData);
    });
  }

  close(): void {
    void this.lines?.return?.();
  }
}

/** Why `password` is too weak for a staff account, or undefined. */
export function weakPasswordReason(password: string, email: string): string | undefined {
  if ([...password].length < MIN_STAFF_PASSWORD_LENGTH) return `The password must be at least ${MIN_STAFF_PASSWORD_LENGTH} characters long.`;
  if (password.trim() !== password) return 'The password must not start or end with a space.';
  if (new Set(password).size < 4) return 'The password needs more variety than that.';
  if (password.toLowerCase().includes(email.toLowerCase())) return 'The password must not contain the email address.';
  return undefined;
}

async function askNewPassword(prompter: Prompter, email: string): Promise<string> {
  const password = await prompter.ask(`New password for ${email} (at least ${MIN_STAFF_PASSWORD_LENGTH} characters): `);
  const weak = weakPasswordReason(password, email);
  if (weak) throw new StaffError(`${weak} Nothing was changed.`);
  const again = await prompter.ask('The same password again: ');
  if (again !== password) throw new StaffError('The two passwords differ. Nothing was changed.');
  return password;
}

function emailArgument(rest: string[], command: string): string {
  if (rest.length !== 1) {
    const extra = rest.length > 1 ? ' The password is never taken on the command line: it is asked for.' : '';
    throw new StaffError(`Give exactly one email: npm run staff -- ${command} owner@example.com.${extra}`);
  }
  const email = rest[0]!.trim().toLowerCase();
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) throw new StaffError(`"${rest[0]}" is not an email address.`);
  return email;
}

function fail(what: string, error: { message: string } | null): void {
  if (error) throw new StaffError(`${what} failed: ${error.message}`);
}

async function findUser(supabase: SupabaseClient, email: string): Promise<User | undefined> {
  for (let page = 1; ; page++) {
    const { data, error } = await supabase.auth.admin.listUsers({ page, perPage: 1000 });
    fail('Listing the accounts', error);
    const found = data.users.find((u) => u.email?.toLowerCase() === email);
    if (found) return found;
    if (data.users.length < 1000) return undefined;
  }
}

interface StaffRow {
  user_id: string;
  email: string;
  added_at: string;
}

async function staffList(supabase: SupabaseClient): Promise<StaffRow[]> {
  const { data, error } = await supabase.rpc('staff_list');
  fail('Reading the staff list', error);
  return (data ?? []) as StaffRow[];
}

async function staffMember(supabase: SupabaseClient, email: string): Promise<StaffRow> {
  const member = (await staffList(supabase)).find((s) => s.email.toLowerCase() === email);
  if (!member) throw new StaffError(`${email} is not on the staff list (npm run staff -- list shows who is).`);
  return member;
}

async function add(backend: Backend, prompter: Prompter, email: string, out: (line: string) => void) {
  const { supabase } = backend;
  const existing = await findUser(supabase, email);
  if (existing) {
    if ((await staffList(supabase)).some((s) => s.user_id === existing.id)) {
      throw new StaffError(`${email} is already on the staff. To set a new password: npm run staff -- reset ${email}`);
    }
    const { error } = await supabase.rpc('staff_add', { p_user_id: existing.id, p_email: email });
    fail('Adding to the staff list', error);
    out(`${email} already had an account; it is now on the staff of ${backend.where}. Its password is unchanged; npm run staff -- reset ${email} sets a new one.`);
    return;
  }
  const password = await askNewPassword(prompter, email);
  const { data, error } = await supabase.auth.admin.createUser({ email, password, email_confirm: true });
  fail('Creating the account', error);
  const { error: addError } = await supabase.rpc('staff_add', { p_user_id: data.user!.id, p_email: email });
  if (addError) {
    await supabase.auth.admin.deleteUser(data.user!.id); // no account left behind that is not staff
    fail('Adding to the staff list', addError);
  }
  out(`Added ${email} to the staff of ${backend.where}. At the first sign-in at /leads they set up an authenticator app (the second factor).`);
}

async function list(backend: Backend, out: (line: string) => void) {
  const staff = await staffList(backend.supabase);
  if (staff.length === 0) {
    out(`No staff yet on ${backend.where}. Add someone: npm run staff -- add owner@example.com`);
    return;
  }
  const rows = [['EMAIL', 'ADDED', 'SECOND FACTOR', 'LAST SIGN-IN']];
  for (const member of staff) {
    const { data, error } = await backend.supabase.auth.admin.getUserById(member.user_id);
    fail('Reading an account', error);
    const user = data.user;
    const factor = user?.factors?.some((f) => f.status === 'verified') ? 'set up' : 'not yet';
    rows.push([member.email, day(member.added_at), factor, user?.last_sign_in_at ? minute(user.last_sign_in_at) : 'never']);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  out(`Staff on ${backend.where}:`);
  for (const row of rows) out(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
}

const day = (iso: string) => new Date(iso).toISOString().slice(0, 10);
const minute = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

async function remove(backend: Backend, email: string, out: (line: string) => void) {
  const member = await staffMember(backend.supabase, email);
  const { error } = await backend.supabase.rpc('staff_remove', { p_user_id: member.user_id });
  fail('Removing from the staff list', error);
  const { error: deleteError } = await backend.supabase.auth.admin.deleteUser(member.user_id);
  fail('Deleting the account', deleteError);
  out(`Removed ${email} from the staff of ${backend.where} and deleted the account; its sessions have ended and its Telegram is unlinked.`);
}

async function reset(backend: Backend, prompter: Prompter, email: string, out: (line: string) => void) {
  const member = await staffMember(backend.supabase, email);
  const password = await askNewPassword(prompter, email);
  // The lost phone's Telegram may no longer act for them, from this moment.
  const { error: unlinkError } = await backend.supabase.rpc('telegram_unlink_staff', { p_user_id: member.user_id });
  fail('Unlinking their Telegram', unlinkError);
  const { error } = await backend.supabase.auth.admin.updateUserById(member.user_id, { password });
  fail('Setting the password', error);
  const { data, error: factorsError } = await backend.supabase.auth.admin.mfa.listFactors({ userId: member.user_id });
  fail('Reading the second factors', factorsError);
  for (const factor of data?.factors ?? []) {
    const { error: deleteError } = await backend.supabase.auth.admin.mfa.deleteFactor({ userId: member.user_id, id: factor.id });
    fail('Removing a second factor', deleteError);
  }
  out(`New password set for ${email} on ${backend.where}; the second factor was removed, every session ended and their Telegram is unlinked. The next sign-in at /leads sets up the authenticator app again.`);
}

export async function staffCommand(args: string[], ioOverrides: Partial<StaffIo> = {}): Promise<number> {
  const io: StaffIo = {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
    ...ioOverrides,
  };
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const [command, ...rest] = args;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    (command === undefined ? io.stderr : io.stdout).write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (!['add', 'list', 'remove', 'reset'].includes(command)) {
    io.stderr.write(`Unknown staff command "${command}".\n${USAGE}\n`);
    return 2;
  }
  const prompter = new Prompter(io);
  let backend: Backend | undefined;
  try {
    if (command === 'list' && rest.length > 0) throw new StaffError('list takes no arguments.');
    const email = command === 'list' ? '' : emailArgument(rest, command);
    backend = await openBackend(io);
    if (command === 'add') await add(backend, prompter, email, out);
    else if (command === 'list') await list(backend, out);
    else if (command === 'remove') await remove(backend, email, out);
    else await reset(backend, prompter, email, out);
    return 0;
  } catch (err) {
    if (!(err instanceof StaffError)) throw err;
    io.stderr.write(`${err.message}\n`);
    return 1;
  } finally {
    prompter.close();
    await backend?.close();
  }
}
