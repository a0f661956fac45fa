/**
 * Who may call which database function (issue 26): PostgreSQL grants EXECUTE on every new function
 * to PUBLIC unless the role that creates it has that default taken away, and `authenticated` has
 * USAGE on schema private (for the staff check). A function a later migration adds to private must
 * not be callable by visitors or by any signed-in user until a migration grants it by name (the
 * list of what they may call is in migrations.test.ts).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, DEFAULT_MIGRATIONS_DIR, openDatabase } from '../../supabase-standin/database.js';
import { as, refusal } from './inboxDb.js';

describe('a function a later migration adds to schema private', () => {
  let db: PGlite;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'later-migration-'));
    cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
    writeFileSync(join(dir, '29991231000000_added_later.sql'), `
      create function private.added_later() returns text language sql stable as $$ select 'secret' $$;
      create function private.added_later_definer() returns text language sql stable security definer set search_path = '' as $$ select 'secret' $$;
    `);
    db = await openDatabase(undefined);
    await applyMigrations(db, dir);
  });
  afterAll(async () => {
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('cannot be executed by anon or by a signed-in user until a migration grants it by name', async () => {
    for (const who of ['anon', 'non-staff', 'staff@aal2'] as const) {
      for (const fn of ['added_later', 'added_later_definer']) {
        expect((await refusal(as(db, who, (tx) => tx.query(`select private.${fn}()`)))).code).toBe('42501');
      }
    }
  });
});
