import { defineConfig } from 'vitest/config';

// Two tiers: `unit` (pure, milliseconds) and `integration` (real daemons, namespaces, the CLI).
// `npm test` runs both; `npm run test:unit` only the first.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          globalSetup: ['test/install-debian-packages.ts'],
        },
      },
    ],
  },
});
