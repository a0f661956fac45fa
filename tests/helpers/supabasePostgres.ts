/**
 * A throw-away PostgreSQL cluster prepared the way Supabase prepares a project's database, for the
 * tests that must hold on the real server and not only on PGlite (issue 26).
 *
 * startSupabasePostgres():
 *  1. `initdb` a cluster in a temporary folder whose bootstrap superuser is supabase_admin (as in
 *     Supabase's image), listening on a free port of 127.0.0.1 only, password (SCRAM) logins only;
 *     run as the `postgres` system user when the tests run as root (initdb refuses root);
 *  2. creates the role postgres as a superuser and gives it the database, as supabase/postgres's
 *     migrations/db/migrate.sh does, then runs supabase-postgres/01-init-scripts.sql as postgres
 *     (Supabase runs its init scripts as postgres while it is still a superuser);
 *  3. runs supabase-postgres/02-migrations.sql as supabase_admin (Supabase's own migrations, which
 *     demote postgres: no superuser, BYPASSRLS, CREATEROLE, the API roles granted to it);
 *  4. runs supabase-postgres/03-auth.sql as supabase_auth_admin (the auth schema as Supabase Auth's
 *     migrations leave it: owned by supabase_auth_admin, postgres granted what Supabase grants it).
 * Each file's header names the upstream files and commits it follows and what it leaves out.
 *
 * applyMigrations() then applies supabase/migrations/*.sql in name order as postgres, each file in
 * a transaction recorded in supabase_migrations.schema_migrations, as `supabase db push` does.
 * session(role) opens a connection with PGlite's query/exec/transaction interface, so code written
 * for PGlite (tests/backend/inboxDb.ts) runs on either; asCaller() runs statements the way PostgREST
 * runs a request (SET LOCAL ROLE + request.jwt.claims). stop() ends the server and removes the folder.
 *
 * Needs PostgreSQL's server binaries (Debian: `apt-get install postgresql`; .ci/run installs them).
 * PG_BINDIR picks a directory; otherwise the newest /usr/lib/postgresql/<version>/bin.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { NET_SQL, VAULT_SQL } from '../../supabase-standin/platformSchema.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../supabase/migrations/', import.meta.url));
const SETUP_DIR = fileURLToPath(new URL('./supabase-postgres/', import.meta.url));

/** The roles a test may log in as. */
export type LoginRole = 'supabase_admin' | 'postgres' | 'supabase_auth_admin' | 'authenticator';

/** A request as PostgREST runs it: the JWT's role, its claims, the request's headers. */
export interface Caller {
  role: 'anon' | 'authenticated' | 'service_role';
  claims?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface Results<T> {
  rows: T[];
  /** Rows an INSERT / UPDATE / DELETE changed (PGlite's name for pg's rowCount). */
  affectedRows?: number;
}

/** What PGlite's Transaction offers and the tests use. */
export interface SqlTransaction {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Results<T>>;
  exec(sql: string): Promise<unknown>;
  rollback(): Promise<void>;
}

/** One connection with PGlite's interface (query, exec, transaction, close). */
export interface SqlSession {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Results<T>>;
  exec(sql: string): Promise<unknown>;
  /** Commits what fn did unless fn threw (then rolls back and rethrows) or called tx.rollback(). */
  transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T | undefined>;
  close(): Promise<void>;
}

export interface SupabasePostgres {
  host: string;
  port: number;
  /** postgresql://role:password@127.0.0.1:port/postgres, for tools that connect by themselves. */
  connectionString(role?: LoginRole): string;
  /** A new connection as `role`; the caller ends it. */
  connect(role?: LoginRole): Promise<pg.Client>;
  /** A new connection with PGlite's interface. */
  session(role?: LoginRole): Promise<SqlSession>;
  /** Applies every *.sql file of dir not yet recorded, in name order, as postgres; returns their names. */
  applyMigrations(dir?: string): Promise<string[]>;
  /** Stops the server and removes its folder (idempotent). */
  stop(): Promise<void>;
}

/** The directory holding initdb, pg_ctl and postgres. */
export function postgresBinDir(): string | undefined {
  const fromEnv = process.env['PG_BINDIR'];
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? fromEnv : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

interface Run {
  code: number | null;
  output: string;
}

/** Runs a PostgreSQL program, as the `postgres` system user when we are root; resolves when it exits. */
function run(bin: string, args: string[], asUser: string | undefined): Promise<Run> {
  const [cmd, argv] = asUser === undefined ? [bin, args] : ['runuser', ['-u', asUser, '--', bin, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** A port nobody listens on right now (the server is started on it; a lost race is retried). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Errors of pg carry the SQLSTATE as `code`, as PGlite's do; the message says which file failed. */
function withContext(err: unknown, what: string): Error {
  const e = err as { code?: string; message?: string; position?: string };
  const wrapped = new Error(`${what}: ${e.code ?? ''} ${e.message ?? String(err)}`, { cause: err }) as Error & { code?: string };
  if (e.code !== undefined) wrapped.code = e.code;
  return wrapped;
}

function adapt<T>(result: pg.QueryResult | pg.QueryResult[]): Results<T> {
  const last = Array.isArray(result) ? result[result.length - 1] : result;
  if (last === undefined) return { rows: [] };
  const changes = last.command === 'SELECT' ? 0 : (last.rowCount ?? 0);
  return { rows: last.rows as T[], affectedRows: changes };
}

/** PGlite's interface over one pg connection (statements of one session run one after another). */
export function sessionOf(client: pg.Client): SqlSession {
  const query = async <T>(sql: string, params?: unknown[]) => adapt<T>(await client.query(sql, params ?? []));
  const exec = (sql: string) => client.query(sql);
  return {
    query,
    exec,
    async transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T | undefined> {
      await client.query('BEGIN');
      let open = true;
      const tx: SqlTransaction = {
        query,
        exec,
        async rollback() {
          if (!open) return;
          open = false;
          await client.query('ROLLBACK');
        },
      };
      try {
        const result = await fn(tx);
        if (open) {
          open = false;
          await client.query('COMMIT');
        }
        return result;
      } catch (err) {
        if (open) {
          open = false;
          await client.query('ROLLBACK');
        }
        throw err;
      }
    },
    close: () => client.end(),
  };
}

/**
 * Runs fn in a transaction as PostgREST runs a request: SET LOCAL ROLE to the JWT's role, the
 * claims in request.jwt.claims and the headers in request.headers (both transaction-local).
 * Rolls back unless `commit`.
 */
export async function asCaller<T>(session: SqlSession, caller: Caller, fn: (tx: SqlTransaction) => Promise<T>, commit = false): Promise<T> {
  const result = await session.transaction(async (tx) => {
    await tx.exec(`SET LOCAL ROLE ${pg.escapeIdentifier(caller.role)}`);
    await tx.query(`SELECT set_config('request.jwt.claims', $1, true), set_config('request.headers', $2, true)`, [
      JSON.stringify(caller.claims ?? { role: caller.role }),
      JSON.stringify(caller.headers ?? {}),
    ]);
    const value = await fn(tx);
    if (!commit) await tx.rollback();
    return value;
  });
  return result as T;
}

/** The setup files, in the order and as the role Supabase runs their upstream counterparts. */
const SETUP: [file: string, role: LoginRole][] = [
  ['01-init-scripts.sql', 'postgres'],
  ['02-migrations.sql', 'supabase_admin'],
  ['03-auth.sql', 'supabase_auth_admin'],
];

/** Whether Debian's pg_cron (postgresql-<version>-cron) is installed beside these binaries. */
function hasPgCron(bin: string): boolean {
  const version = /postgresql\/(\d+)\/bin/.exec(bin)?.[1];
  return version !== undefined && existsSync(`/usr/share/postgresql/${version}/extension/pg_cron.control`);
}

/**
 * The extensions every Supabase project has before its migrations, and what Supabase grants
 * postgres on them: pg_cron, Debian's real one when installed (Supabase lets postgres create it
 * and use schema cron); pg_net and Vault, which Debian does not package, as the local stand-in
 * provides their SQL (supabase-standin/platformSchema.ts: net.http_post queues, nobody sends).
 */
function platformSql(pgCron: boolean): string {
  return `${pgCron ? 'create extension if not exists pg_cron with schema pg_catalog;' : ''}
${NET_SQL}
${VAULT_SQL}
${pgCron ? 'grant usage on schema cron to postgres with grant option; grant all on all tables in schema cron to postgres with grant option; grant all on all functions in schema cron to postgres with grant option;' : ''}
revoke all on schema net, vault from public;
grant usage on schema net, vault to postgres;
grant all on all tables in schema net, vault to postgres;
grant all on all sequences in schema net, vault to postgres;
grant execute on all functions in schema net, vault to postgres;`;
}

export async function startSupabasePostgres(): Promise<SupabasePostgres> {
  const bin = postgresBinDir();
  if (bin === undefined) {
    throw new Error(
      'PostgreSQL server binaries not found (no /usr/lib/postgresql/<version>/bin/initdb, PG_BINDIR unset). ' +
        'Install them: apt-get install postgresql (.ci/run does).',
    );
  }
  const isRoot = process.getuid?.() === 0;
  const systemUser = isRoot ? 'postgres' : undefined;
  const root = mkdtempSync(join(tmpdir(), 'supabase-pg-'));
  const dataDir = join(root, 'data');
  const logFile = join(root, 'server.log');
  const pwFile = join(root, 'pw');
  const password = randomBytes(24).toString('base64url');
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (isRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gids = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    const uid = Number(ids.stdout.trim());
    const gid = Number(gids.stdout.trim());
    if (ids.status !== 0 || !Number.isInteger(uid)) throw new Error('Running as root needs a `postgres` system user to run the server as');
    chownSync(root, uid, gid);
    chownSync(pwFile, uid, gid);
  }

  let port = 0;
  let started = false;
  const removeAll = () => rmSync(root, { recursive: true, force: true });
  // Should the test process end without stop(), stop the server anyway (synchronously, at exit).
  const onExit = () => {
    if (started) {
      const args = ['-D', dataDir, '-m', 'immediate', '-w', 'stop'];
      if (systemUser) spawnSync('runuser', ['-u', systemUser, '--', join(bin, 'pg_ctl'), ...args]);
      else spawnSync(join(bin, 'pg_ctl'), args);
    }
    removeAll();
  };
  process.once('exit', onExit);

  const fail = async (what: string, detail: string): Promise<never> => {
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-4000) : '';
    await stop();
    throw new Error(`${what}\n${detail}\n${log}`);
  };

  const stop = async () => {
    if (started) {
      started = false;
      await run(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop'], systemUser);
    }
    removeAll();
    process.removeListener('exit', onExit);
  };

  try {
    // -N: no fsync (a throw-away cluster); C locale and UTF8 as Supabase's images.
    const init = await run(
      join(bin, 'initdb'),
      ['-D', dataDir, '-U', 'supabase_admin', '--pwfile', pwFile, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C', '-N'],
      systemUser,
    );
    if (init.code !== 0) await fail('initdb failed', init.output);
    rmSync(pwFile, { force: true });

    for (let attempt = 1; !started; attempt++) {
      port = await freePort();
      const options = [
        `-c listen_addresses=127.0.0.1`,
        `-c port=${port}`,
        `-c unix_socket_directories=''`,
        '-c fsync=off -c synchronous_commit=off -c full_page_writes=off',
        '-c max_connections=30 -c shared_buffers=32MB',
        // pg_cron as Supabase runs it: preloaded, jobs in background workers (no libpq login needed)
        ...(hasPgCron(bin) ? ['-c shared_preload_libraries=pg_cron -c cron.database_name=postgres -c cron.use_background_workers=on -c max_worker_processes=20'] : []),
      ].join(' ');
      // -w: pg_ctl returns once the server accepts connections (or has failed), no guessing.
      const start = await run(join(bin, 'pg_ctl'), ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start'], systemUser);
      if (start.code === 0) started = true;
      else if (attempt >= 3) await fail(`pg_ctl start failed (port ${port})`, start.output);
    }
  } catch (err) {
    await stop();
    throw err;
  }

  const connect = async (role: LoginRole = 'postgres') => {
    const client = new pg.Client({ host: '127.0.0.1', port, user: role, password, database: 'postgres', application_name: 'supabase-postgres-test' });
    await client.connect();
    return client;
  };

  const runFileAs = async (role: LoginRole, file: string, sql: string) => {
    const client = await connect(role);
    try {
      await client.query(sql);
    } catch (err) {
      throw withContext(err, `${file} (as ${role}) failed`);
    } finally {
      await client.end();
    }
  };

  try {
    // migrate.sh: postgres is created as a superuser owning the database, then the init scripts run as postgres.
    await runFileAs(
      'supabase_admin',
      'bootstrap',
      `CREATE ROLE postgres SUPERUSER LOGIN PASSWORD ${pg.escapeLiteral(password)};
       ALTER DATABASE postgres OWNER TO postgres;`,
    );
    for (const [file, role] of SETUP) {
      let sql = readFileSync(join(SETUP_DIR, file), 'utf8');
      // the login roles the setup creates get the cluster's password (never written to a file)
      sql = sql.replaceAll(':LOGIN_PASSWORD', pg.escapeLiteral(password));
      await runFileAs(role, file, sql);
    }
    await runFileAs('supabase_admin', 'platform extensions', platformSql(hasPgCron(bin)));
  } catch (err) {
    await stop();
    throw err;
  }

  const applyMigrations = async (dir: string = MIGRATIONS_DIR) => {
    const client = await connect('postgres');
    const applied: string[] = [];
    try {
      // The Supabase CLI's migration history (supabase db push creates it on its first run).
      await client.query(`CREATE SCHEMA IF NOT EXISTS supabase_migrations;
        CREATE TABLE IF NOT EXISTS supabase_migrations.schema_migrations (version text PRIMARY KEY, statements text[], name text);`);
      const done = new Set((await client.query<{ version: string }>('SELECT version FROM supabase_migrations.schema_migrations')).rows.map((r) => r.version));
      const files = readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
      for (const file of files) {
        const match = /^(\d+)_(.*)\.sql$/.exec(file);
        const [version, name] = match ? [match[1]!, match[2]!] : [file, file];
        if (done.has(version)) continue;
        const sql = readFileSync(join(dir, file), 'utf8');
        try {
          await client.query('BEGIN');
          await client.query(sql);
          await client.query('INSERT INTO supabase_migrations.schema_migrations (version, statements, name) VALUES ($1, $2, $3)', [version, [sql], name]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw withContext(err, `Migration ${file} failed`);
        }
        applied.push(file);
      }
    } finally {
      await client.end();
    }
    return applied;
  };

  return {
    host: '127.0.0.1',
    port,
    connectionString: (role = 'postgres') => `postgresql://${role}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    connect,
    session: async (role = 'postgres') => sessionOf(await connect(role)),
    applyMigrations,
    stop,
  };
}
