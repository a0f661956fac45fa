import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Two cores: test files run one at a time, so builds and Chromium do not starve each other.
    fileParallelism: false,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/{generator,backend,islands}/**/*.test.{ts,tsx}'] },
      },
      {
        extends: true,
        // Browser tests share one build of the real site.
        test: { name: 'browser', include: ['tests/browser/**/*.test.ts'], globalSetup: ['tests/globalSetup.ts'] },
      },
    ],
  },
});
