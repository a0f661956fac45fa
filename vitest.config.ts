import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Test files that replace modules or globals (vi.mock, vi.stubGlobal, ...): each gets a module graph
 * of its own. Found by reading the files, so a new one cannot slip into a shared graph.
 */
function mocking(dirs: string[]): string[] {
  return dirs.flatMap((dir) => readdirSync(path.join('tests', dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.test\.tsx?$/.test(f))
    .map((f) => path.join('tests', dir, f).split(path.sep).join('/'))
    .filter((f) => /\bvi\.(mock|doMock|stubGlobal|stubEnv|spyOn|useFakeTimers)\(/.test(readFileSync(f, 'utf8'))));
}

const UNIT_DIRS = ['generator', 'serve', 'backend', 'supabase-standin', 'cms', 'islands', 'staff', 'tools', 'ops'];
const UNIT = [`tests/{${UNIT_DIRS.join(',')}}/**/*.test.{ts,tsx}`];
const BROWSER = ['tests/browser/**/*.test.ts'];
const MOCKING = mocking(UNIT_DIRS);
// A browser test that mocks would need a project of its own with the shared build: say so rather than share.
for (const f of mocking(['browser'])) throw new Error(`${f} mocks modules: give it an isolated project in vitest.config.ts`);

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // expect.poll waits for a signal; its default of 1 s is a guess at the machine's speed that a
    // busy 2-core machine misses (a browser poll there can take several seconds).
    expect: { poll: { timeout: 15_000 } },
    // GitHub's workflow parser imports its JSON schema without an import attribute, which Node
    // refuses: Vite transforms it instead of Node loading it (tests/tools/workflows.test.ts).
    server: { deps: { inline: ['@actions/workflow-parser'] } },
    // Two cores, two test files at a time: the browser tests mostly wait on Chromium and the network,
    // so a second file fills the gaps (measured: 330 s one at a time).
    fileParallelism: true,
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // One module graph per worker instead of one per test file: re-importing the generator,
        // PGlite and supabase-js for every file cost about 100 of the suite's 600 CPU seconds. No
        // test changes a module's state or the environment; the files that mock are isolated.
        test: { name: 'unit', include: UNIT, exclude: MOCKING, isolate: false },
      },
      {
        extends: true,
        test: { name: 'unit-mocks', include: MOCKING },
      },
      {
        extends: true,
        // The role matrix again, on a real PostgreSQL prepared as Supabase prepares a project's
        // database, the migrations applied as the non-superuser postgres (tests/helpers/supabasePostgres.ts).
        test: { name: 'postgres', include: ['tests/backend/inbox-policies.test.ts'], env: { INBOX_DB: 'postgres' } },
      },
      {
        extends: true,
        // Browser tests share one build of the real site (tests/globalSetup.ts).
        test: { name: 'browser', include: BROWSER, isolate: false, globalSetup: ['tests/globalSetup.ts'] },
      },
    ],
  },
});
