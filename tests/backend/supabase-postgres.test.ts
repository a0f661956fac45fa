/**
 * The migrations on a real PostgreSQL prepared as Supabase prepares a project's database (issue 26):
 * roles, default privileges and the auth schema from Supabase's own SQL (tests/helpers/supabase-postgres/
 * names the upstream files and commits), the migrations applied as postgres like `supabase db push`.
 * What PGlite cannot show: postgres is no superuser there and owns nothing in auth, so a migration
 * that alters auth.users is refused; and Supabase's database linter (splinter's lints, run by the
 * postgrestools CLI) finds no security problem. The role matrix runs on this server too
 * (tests/backend/inbox-policies.test.ts in vitest's `postgres` project).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations as applyOnPglite, openDatabase } from '../../supabase-standin/database.js';
import { asCaller, MIGRATIONS_DIR, startSupabasePostgres, type Caller, type SupabasePostgres } from '../helpers/supabasePostgres.js';

let server: SupabasePostgres;
let admin: pg.Client; // supabase_admin: reads the catalog, as the test's eyes only
let applied: string[];

beforeAll(async () => {
  server = await startSupabasePostgres();
  applied = await server.applyMigrations();
  admin = await server.connect('supabase_admin');
});

afterAll(async () => {
  await admin?.end().catch(() => {});
  await server?.stop();
});

const ALTERS_AUTH_USERS = '-- a column of our own on Supabase Auth\'s table\nalter table auth.users add column nickname text;\n';

describe('a database prepared as Supabase prepares it', () => {
  it('has postgres as Supabase leaves it: no superuser, BYPASSRLS, the API roles, nothing of auth', async () => {
    const { rows } = await admin.query(`
      SELECT r.rolsuper, r.rolbypassrls, r.rolcreaterole, r.rolcreatedb,
             pg_has_role('postgres', 'anon', 'MEMBER') AND pg_has_role('postgres', 'authenticated', 'MEMBER')
               AND pg_has_role('postgres', 'service_role', 'MEMBER') AS api_roles,
             pg_has_role('postgres', 'supabase_auth_admin', 'MEMBER') AS auth_admin,
             (SELECT count(*)::int FROM pg_class c WHERE c.relnamespace = 'auth'::regnamespace AND c.relowner = r.oid) AS owns_in_auth,
             has_schema_privilege('postgres', 'auth', 'CREATE') AS creates_in_auth,
             has_table_privilege('postgres', 'auth.users', 'SELECT, INSERT, UPDATE, DELETE, REFERENCES, TRIGGER') AS uses_users,
             has_table_privilege('postgres', 'auth.sessions', 'SELECT') AS reads_sessions,
             (SELECT relowner::regrole::text FROM pg_class WHERE oid = 'auth.users'::regclass) AS users_owner
        FROM pg_roles r WHERE r.rolname = 'postgres'`);
    expect(rows[0]).toEqual({
      rolsuper: false,
      rolbypassrls: true,
      rolcreaterole: true,
      rolcreatedb: true,
      api_roles: true,
      auth_admin: false,
      owns_in_auth: 0,
      creates_in_auth: false,
      uses_users: true,
      reads_sessions: true,
      users_owner: 'supabase_auth_admin',
    });
  });

  it('applies every migration in name order as postgres, recorded as supabase db push records them', async () => {
    const files = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort();
    expect(applied).toEqual(files);
    const { rows } = await admin.query<{ version: string }>('SELECT version FROM supabase_migrations.schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(files.map((f) => f.split('_')[0]));
    // what the migrations created belongs to postgres, as on Supabase
    const owners = await admin.query<{ owner: string }>(`
      SELECT DISTINCT c.relowner::regrole::text AS owner FROM pg_class c
       WHERE c.relnamespace IN ('public'::regnamespace, 'private'::regnamespace)`);
    expect(owners.rows.map((r) => r.owner)).toEqual(['postgres']);
    expect(await server.applyMigrations()).toEqual([]);
  });

  it('refuses a migration that alters auth.users (42501), which PGlite accepts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'alter-auth-users-'));
    try {
      writeFileSync(join(dir, '29991231000000_alter_auth_users.sql'), ALTERS_AUTH_USERS);
      const refusal = await server.applyMigrations(dir).then(
        () => undefined,
        (err: unknown) => err as { code?: string; message: string },
      );
      expect(refusal?.code).toBe('42501');
      expect(refusal?.message).toMatch(/must be owner of table users/);
      // nothing of it stayed
      const { rows } = await admin.query(`SELECT 1 FROM pg_attribute WHERE attrelid = 'auth.users'::regclass AND attname = 'nickname'`);
      expect(rows).toEqual([]);

      const lite = await openDatabase(undefined);
      try {
        await expect(applyOnPglite(lite, dir)).resolves.toEqual(['29991231000000_alter_auth_users.sql']);
      } finally {
        await lite.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the lead delivery run, scheduled by the migrations with pg_cron (Debian\'s postgresql-15-cron)', () => {
  it('schedules the run every minute as postgres, and pg_cron runs it: pg_net is asked to call notify-telegram with the Vault secret', async () => {
    const { rows: jobs } = await admin.query<{ schedule: string; command: string; username: string; active: boolean }>(
      "select schedule, command, username, active from cron.job where jobname = 'lead-delivery'");
    expect(jobs).toEqual([{ schedule: '* * * * *', command: 'select private.request_chat_run()', username: 'postgres', active: true }]);
    const { rows: [secret] } = await admin.query<{ s: string }>("select decrypted_secret as s from vault.decrypted_secrets where name = 'lead_delivery_secret'");
    expect(secret!.s).toMatch(/^[0-9a-f]{96}$/);

    // The owner's one step (docs/going-live.md); then wait for pg_cron's next minute.
    const postgres = await server.connect('postgres');
    try {
      await postgres.query("select vault.create_secret('https://abcdefghijklmnopqrst.supabase.co', 'project_url')");
    } finally {
      await postgres.end();
    }
    await expect.poll(async () => (await admin.query("select status from cron.job_run_details jd join cron.job j using (jobid) where j.jobname = 'lead-delivery' and jd.status = 'succeeded'")).rowCount,
      { timeout: 90_000, interval: 1_000 }).toBeGreaterThan(0);
    const { rows: requests } = await admin.query<{ method: string; url: string; headers: Record<string, string>; body: string }>(
      "select method, url, headers, convert_from(body, 'UTF8') as body from net.http_request_queue");
    expect(requests[0]).toEqual({
      method: 'POST',
      url: 'https://abcdefghijklmnopqrst.supabase.co/functions/v1/notify-telegram',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${secret!.s}` },
      body: '{"run": true}',
    });
  }, 120_000);

  it('keeps the outbox from every API role: only the service role\'s functions reach it', async () => {
    const { rows } = await admin.query<{ role: string; t: string }>(`
      select r.role, t.t from unnest(array['anon', 'authenticated', 'service_role']) as r(role),
        unnest(array['private.chat_outbox', 'private.chat_state', 'private.chat_sends']) as t(t)
      where has_table_privilege(r.role, t.t, 'select,insert,update,delete')`);
    expect(rows).toEqual([]);
  });
});

describe('reminders and the morning summary as the service role (migration 20261126000100)', () => {
  it('a visitor\'s lead gets one reminder however often it is asked for, none once taken, and a day one summary', async () => {
    const owner = await server.session('postgres');
    const service: Caller = { role: 'service_role', claims: { role: 'service_role' } };
    const asService = <T>(sql: string, params: unknown[]) =>
      asCaller(owner, service, async (tx) => (await tx.query<{ r: T }>(sql, params)).rows[0]!.r, true);
    try {
      await asCaller(owner, { role: 'anon' }, (tx) => tx.query(
        "INSERT INTO public.leads (first_name, last_name, email, phone, message, page) VALUES ('Pg', 'Reminder', 'pg-reminder@example.com', '4085550100', 'Deep clean', 'contact')"), true);
      const { rows: [lead] } = await admin.query<{ id: string }>("SELECT id FROM public.leads WHERE email = 'pg-reminder@example.com'");
      const later = new Date(Date.now() + 20 * 60_000).toISOString();
      expect(await asService('SELECT public.chat_reminder_candidates($1) AS r', [later])).toEqual([expect.objectContaining({ kind: 'quote', id: lead!.id })]);
      const enqueue = () => asService<number>('SELECT public.chat_enqueue_reminders($1::jsonb, $2) AS r', [JSON.stringify([{ kind: 'quote', id: lead!.id }]), later]);
      expect(await enqueue()).toBe(1);
      expect(await enqueue()).toBe(0);
      expect(await asService('SELECT public.chat_reminder_candidates($1) AS r', [later])).toEqual([]);
      await admin.query("UPDATE public.leads SET status = 'contacted' WHERE id = $1", [lead!.id]);
      const { rows: reminders } = await admin.query("SELECT cancelled_at IS NOT NULL AS cancelled FROM private.chat_outbox WHERE what = 'reminder' AND quote_id = $1", [lead!.id]);
      expect(reminders).toEqual([{ cancelled: true }]);

      // A lead overdue by tomorrow's closing: one summary for the day, however often it is asked for.
      await admin.query("UPDATE public.leads SET status = 'new', created_at = now() - interval '30 hours' WHERE id = $1", [lead!.id]);
      const summary = () => asService<boolean>('SELECT public.chat_enqueue_summary($1, $2, $3) AS r', ['2031-01-06', new Date(Date.now() + 3_600_000).toISOString(), new Date().toISOString()]);
      expect(await summary()).toBe(true);
      expect(await summary()).toBe(true);
      expect((await admin.query("SELECT 1 FROM private.chat_outbox WHERE what = 'summary' AND day = '2031-01-06'")).rowCount).toBe(1);
      const refused = await asCaller(owner, { role: 'anon' }, (tx) => tx.query('SELECT public.chat_enqueue_summary($1, $2, $3)', ['2031-01-07', later, later]))
        .then(() => undefined, (err: { code?: string }) => err.code);
      expect(refused).toBe('42501');
    } finally {
      await admin.query("DELETE FROM private.chat_outbox WHERE what = 'summary' AND day = '2031-01-06'");
      await admin.query("DELETE FROM public.leads WHERE email = 'pg-reminder@example.com'");
      await owner.close();
    }
  });
});

describe('the staff check and function grants where postgres owns nothing in auth', () => {
  const STAFF = '5a1f0000-0000-4000-8000-0000000000aa';
  const SESSION = '5e550000-0000-4000-8000-0000000000aa';
  const staffAtAal2: Caller = {
    role: 'authenticated',
    claims: { sub: STAFF, role: 'authenticated', aud: 'authenticated', aal: 'aal2', session_id: SESSION, email: 'pg-staff@example.com' },
  };

  it('counts a staff token as staff only while its session exists (a sign-out deletes the row, as Supabase Auth does)', async () => {
    const owner = await server.session('postgres');
    const auth = await server.session('supabase_auth_admin');
    try {
      await owner.query('INSERT INTO auth.users (id, email) VALUES ($1, $2)', [STAFF, 'pg-staff@example.com']);
      await owner.query('INSERT INTO private.staff (user_id, email) VALUES ($1, $2)', [STAFF, 'pg-staff@example.com']);
      await auth.query("INSERT INTO auth.sessions (id, user_id, aal) VALUES ($1, $2, 'aal2')", [SESSION, STAFF]);
      const isStaff = () => asCaller(owner, staffAtAal2, async (tx) => (await tx.query<{ ok: boolean }>('SELECT private.is_staff() AS ok')).rows[0]!.ok);
      expect(await isStaff()).toBe(true);
      await auth.query('DELETE FROM auth.sessions WHERE id = $1', [SESSION]);
      expect(await isStaff()).toBe(false);
    } finally {
      await owner.close();
      await auth.close();
    }
  });

  it('keeps a function a later migration adds to private from signed-in users until it is granted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'later-function-'));
    const owner = await server.session('postgres');
    try {
      writeFileSync(join(dir, '29991231000000_added_later.sql'), "create function private.added_later() returns int language sql stable set search_path = '' as 'select 1';\n");
      expect(await server.applyMigrations(dir)).toEqual(['29991231000000_added_later.sql']);
      const refused = await asCaller(owner, staffAtAal2, (tx) => tx.query('SELECT private.added_later()')).then(() => undefined, (err: { code?: string }) => err.code);
      expect(refused).toBe('42501');
    } finally {
      await admin.query('DROP FUNCTION IF EXISTS private.added_later()');
      await owner.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Supabase's database linter. splinter's lints (github.com/supabase/splinter, lints/*.sql) are what
// the dashboard's Security Advisor runs; the postgrestools CLI (@postgrestools/postgrestools, the
// Postgres Language Server) runs them offline against a database: `postgrestools dblint`.
// The lints about exposed objects (rls_disabled_in_public, security_definer_view, auth_users_exposed,
// ...) look only at the schemas in the setting pgrst.db_schemas, which PostgREST reads on Supabase
// and which is unset elsewhere: without it they find nothing. The connection sets it to the schemas
// Supabase exposes by default (the project has no supabase/config.toml that changes them).

interface Diagnostic {
  severity: 'info' | 'warning' | 'error';
  category: string;
  message: string;
}

const EXPOSED_SCHEMAS = 'public,graphql_public';

/**
 * Security findings that were reviewed and are what the migrations mean; anything else fails.
 * Matched on the lint and the object, so the same lint on another table still fails. None since
 * 20261125000300_policies_say_what_they_mean.sql: keep it that way.
 */
const ACCEPTED: { category: string; message: RegExp; why: string }[] = [];

const require = createRequire(import.meta.url);

/** `postgrestools dblint` on the database as postgres; its findings. */
function dblint(): Promise<Diagnostic[]> {
  const cli = require.resolve('@postgrestools/postgrestools/bin/postgrestools');
  const url = `${server.connectionString('postgres')}?options=${encodeURIComponent(`-c pgrst.db_schemas=${EXPOSED_SCHEMAS}`)}`;
  return new Promise((resolve, reject) => {
    // the connection string goes in the environment, not on a command line others can read
    const child = spawn(process.execPath, [cli, 'dblint', '--reporter=json', '--colors=off'], {
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => {
      try {
        const report = JSON.parse(out) as { diagnostics: Diagnostic[] };
        resolve(report.diagnostics);
      } catch {
        reject(new Error(`postgrestools dblint (exit ${code}) gave no report:\n${out}\n${err}`));
      }
    });
  });
}

const security = (d: Diagnostic) => d.category.startsWith('splinter/security/');
/** Some lints escape the backticks of their message (\`x\`); matched without that. */
const matches = (a: (typeof ACCEPTED)[number], d: Diagnostic) => a.category === d.category && a.message.test(d.message.replaceAll('\\`', '`'));
const accepted = (d: Diagnostic) => ACCEPTED.some((a) => matches(a, d));

describe("Supabase's database linter (splinter, through postgrestools dblint)", () => {
  it('finds no security problem in the migrated database but the reviewed ones', async () => {
    const findings = (await dblint()).filter(security);
    expect(findings.filter((d) => !accepted(d)).map((d) => `${d.category}: ${d.message}`)).toEqual([]);
    // every accepted finding still exists; one that went away comes off the list
    for (const a of ACCEPTED) expect(findings.some((d) => matches(a, d)), a.why).toBe(true);
  });

  // Last: it leaves the planted mistakes in the database.
  it('would see the mistakes the security lints are for (the check is not blind)', async () => {
    const owner = await server.connect('postgres');
    try {
      await owner.query(`
        create table public.lint_no_rls (id int primary key);
        create table public.lint_policy_no_rls (id int primary key);
        create policy "everyone" on public.lint_policy_no_rls for select using (true);
        create view public.lint_users as select id, email from auth.users;
        grant select on public.lint_users to anon;
        create function public.lint_search_path() returns int language sql as 'select 1';`);
    } finally {
      await owner.end();
    }
    const categories = new Set((await dblint()).filter(security).filter((d) => /lint_/.test(d.message)).map((d) => d.category));
    expect([...categories].sort()).toEqual([
      'splinter/security/authUsersExposed',
      'splinter/security/functionSearchPathMutable',
      'splinter/security/policyExistsRlsDisabled',
      'splinter/security/rlsDisabledInPublic',
      'splinter/security/securityDefinerView',
    ]);
  });
});
