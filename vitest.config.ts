import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // expect.poll waits for a signal; its default of 1 s is a guess at the machine's speed that a
    // busy 2-core machine misses (a browser poll there can take several seconds).
    expect: { poll: { timeout: 15_000 } },
    // Two cores, two test files at a time: the browser tests mostly wait on Chromium and the network,
    // so a second file fills the gaps (measured: 330 s one at a time).
    fileParallelism: true,
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/{generator,backend,islands,staff}/**/*.test.{ts,tsx}'] },
      },
      {
        extends: true,
        // Browser tests share one build of the real site (tests/globalSetup.ts).
        test: { name: 'browser', include: ['tests/browser/**/*.test.ts'], globalSetup: ['tests/globalSetup.ts'] },
      },
    ],
  },
});
