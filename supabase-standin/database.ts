/**
 * The local stand-in's database: PGlite (Postgres in WebAssembly) with the Supabase roles and the
 * real migrations of supabase/migrations, the snapshot that makes a new database fast, and the
 * operator's read-out of the stored leads (`npm run leads`).
 */
import { createHash } from 'node:crypto';
import { constants as fsConstants, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { DEFAULT_LANGUAGE, type Lang } from '../supabase/functions/_shared/languages.js';
import type { DiscountLeadRow, LeadRow } from '../supabase/functions/_shared/leadRules.js';
import { AUTH_SCHEMA_SQL } from './authSchema.js';
import { PLATFORM_SCHEMA_SQL } from './platformSchema.js';

export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../supabase/migrations/', import.meta.url));

/** What the database adds to a visitor's row. */
interface Stored {
  id: string;
  created_at: Date;
  /** When notify-telegram claimed the lead; null while no message was sent for it. */
  notified_at: Date | null;
  /** The language it was sent in (the column's default for a lead that said none). */
  lang: Lang;
}

export type StoredLead = LeadRow & Stored;
export type StoredDiscountLead = DiscountLeadRow & Stored;

export interface LeadsListing {
  leads: StoredLead[];
  discountLeads: StoredDiscountLead[];
}

/** An error raised by Postgres (PGlite's errors carry the SQLSTATE as `code`). */
interface PgErrorLike {
  code: string;
  message: string;
  detail?: string | undefined;
  hint?: string | undefined;
}

export function isPgError(err: unknown): err is PgErrorLike {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((err as { code: string }).code) &&
    typeof (err as { message?: unknown }).message === 'string'
  );
}

/** Roles and default privileges as on Supabase (new public tables are granted to anon etc.). */
const BOOTSTRAP_SQL = `
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'anon') THEN
    CREATE ROLE anon NOLOGIN NOINHERIT;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'authenticated') THEN
    CREATE ROLE authenticated NOLOGIN NOINHERIT;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'service_role') THEN
    CREATE ROLE service_role NOLOGIN NOINHERIT BYPASSRLS;
  END IF;
END
$$;
CREATE TABLE IF NOT EXISTS public._local_migrations (
  name text PRIMARY KEY,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON TABLE public._local_migrations FROM PUBLIC, anon, authenticated;
-- Supabase keeps this record outside the API's schema; here it is in public, so it is refused to
-- every API role explicitly, as the security checks (security_findings) expect of any public table.
ALTER TABLE public._local_migrations ENABLE ROW LEVEL SECURITY;
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_policy WHERE polrelid = 'public._local_migrations'::regclass) THEN
    CREATE POLICY "Only the stand-in reads its migration record" ON public._local_migrations
      AS RESTRICTIVE FOR ALL TO PUBLIC USING (false) WITH CHECK (false);
  END IF;
END
$$;
GRANT USAGE ON SCHEMA public TO anon, authenticated, service_role;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON TABLES TO anon, authenticated, service_role;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON SEQUENCES TO anon, authenticated, service_role;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON FUNCTIONS TO anon, authenticated, service_role;
`;

/**
 * Creates the Supabase roles if missing, then applies every *.sql file of migrationsDir
 * (name order) that is not yet recorded in public._local_migrations. Returns the names applied now.
 */
export async function applyMigrations(
  db: PGlite,
  migrationsDir: string = DEFAULT_MIGRATIONS_DIR,
  log: (msg: string) => void = () => {},
): Promise<string[]> {
  if (!existsSync(migrationsDir)) throw new Error(`Migrations folder not found: ${migrationsDir}`);
  await db.exec(BOOTSTRAP_SQL);
  await db.exec(AUTH_SCHEMA_SQL);
  await db.exec(PLATFORM_SCHEMA_SQL);
  const done = new Map(
    (await db.query<{ name: string; checksum: string }>('SELECT name, checksum FROM public._local_migrations')).rows.map(
      (r) => [r.name, r.checksum] as const,
    ),
  );
  const files = readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const applied: string[] = [];
  for (const file of files) {
    const sql = readFileSync(join(migrationsDir, file), 'utf8');
    const checksum = createHash('sha256').update(sql).digest('hex');
    const previous = done.get(file);
    if (previous !== undefined) {
      if (previous !== checksum) {
        log(`Warning: migration ${file} changed after it was applied to the local database; not re-applied. Delete the local data folder to start over.`);
      }
      continue;
    }
    try {
      await db.transaction(async (tx) => {
        await tx.exec(sql);
        await tx.query('INSERT INTO public._local_migrations (name, checksum) VALUES ($1, $2)', [file, checksum]);
      });
    } catch (err) {
      throw new Error(`Migration ${file} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    applied.push(file);
    log(`Applied migration ${file}`);
  }
  return applied;
}

/**
 * A fresh `initdb` inside PGlite takes 3-6 s; loading a snapshot of one takes ~0.5 s. The first
 * new database dumps such a snapshot to .cache/pglite/ (keyed by the PGlite version) and later
 * new databases (tests, a first `npm start`) start from it. Existing data folders open directly.
 */
const TEMPLATE_CACHE_DIR = fileURLToPath(new URL('../.cache/pglite/', import.meta.url));

function templatePath(): string | undefined {
  try {
    let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    for (let i = 0; i < 4; i++, dir = dirname(dir)) {
      const pkgFile = join(dir, 'package.json');
      if (!existsSync(pkgFile)) continue;
      const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === '@electric-sql/pglite' && typeof pkg.version === 'string') {
        return join(TEMPLATE_CACHE_DIR, `initdb-${pkg.version.replace(/[^0-9A-Za-z.-]/g, '_')}.tar.gz`);
      }
    }
  } catch {
    // no cache then
  }
  return undefined;
}

function isMissingOrEmptyDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/** Opens (or creates) a PGlite database; dataDir undefined = in-memory. */
export async function openDatabase(dataDir: string | undefined, log: (msg: string) => void = () => {}): Promise<PGlite> {
  const dir = dataDir === undefined ? undefined : resolve(dataDir);
  if (dir !== undefined && !isMissingOrEmptyDir(dir)) return PGlite.create({ dataDir: dir });

  const template = templatePath();
  if (template !== undefined && existsSync(template)) {
    try {
      const blob = new Blob([readFileSync(template)]);
      if (dir !== undefined) mkdirSync(dir, { recursive: true });
      return await PGlite.create(dir === undefined ? { loadDataDir: blob } : { dataDir: dir, loadDataDir: blob });
    } catch (err) {
      log(`Ignoring unusable PGlite snapshot ${template}: ${err instanceof Error ? err.message : String(err)}`);
      rmSync(template, { force: true });
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true }); // it was empty or missing before
    }
  }

  if (dir !== undefined) mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir === undefined ? {} : { dataDir: dir });
  if (template !== undefined) {
    try {
      const blob = await db.dumpDataDir('gzip');
      mkdirSync(dirname(template), { recursive: true });
      const tmp = `${template}.${process.pid}.${Date.now()}.tmp`;
      writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
      renameSync(tmp, template);
    } catch (err) {
      log(`Could not cache a PGlite snapshot: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return db;
}

/**
 * Both lead tables, newest first, read as the database owner.
 * Works while `npm start` holds the database open: it reads a throw-away copy of dataDir.
 * A data folder that does not exist yet yields empty lists (nothing is created).
 */
export async function listLeads(dataDir: string): Promise<LeadsListing> {
  const source = resolve(dataDir);
  if (!existsSync(join(source, 'PG_VERSION'))) return { leads: [], discountLeads: [] };
  const copy = mkdtempSync(join(tmpdir(), 'leads-read-'));
  let db: PGlite | undefined;
  try {
    cpSync(source, copy, { recursive: true, mode: fsConstants.COPYFILE_FICLONE });
    rmSync(join(copy, 'postmaster.pid'), { force: true });
    db = await PGlite.create({ dataDir: copy });
    const exists = async (table: string) =>
      (await db!.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [`public.${table}`])).rows[0]?.t != null;
    // Read through to_jsonb so a database that `npm start` has not migrated yet (no notified_at, no
    // lang: its leads are English, the column's default) lists too.
    const notifiedAt = `(to_jsonb(t) ->> 'notified_at')::timestamptz AS notified_at`;
    const lang = `coalesce(to_jsonb(t) ->> 'lang', '${DEFAULT_LANGUAGE}') AS lang`;
    const leads = (await exists('leads'))
      ? (
          await db.query<StoredLead>(
            `SELECT id, created_at, ${notifiedAt}, first_name, last_name, email, phone, message, page, ${lang} FROM public.leads t ORDER BY created_at DESC, id`,
          )
        ).rows
      : [];
    const discountLeads = (await exists('discount_leads'))
      ? (
          await db.query<StoredDiscountLead>(
            `SELECT id, created_at, ${notifiedAt}, email, phone, page, ${lang} FROM public.discount_leads t ORDER BY created_at DESC, id`,
          )
        ).rows
      : [];
    return { leads, discountLeads };
  } finally {
    await db?.close().catch(() => {});
    rmSync(copy, { recursive: true, force: true });
  }
}
