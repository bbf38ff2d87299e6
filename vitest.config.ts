import { defineConfig } from 'vitest/config';

// Two tiers: `unit` (pure, milliseconds) and `integration` (real daemons, namespaces, the CLI).
// `npm test` runs both; `npm run test:unit` only the first. Both build the report page's bundle first
// (test/build-page-bundle.ts), so neither needs `npm run build`.
export default defineConfig({
  test: {
    projects: [
      // Unit tests run beside the integration tier on a shared 2-core host: the harness ones (a fake fleet, real
      // files, sh) take 1–5 s under load, so the default 5 s would time them out without anything being wrong.
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 20_000,
          globalSetup: ['test/build-page-bundle.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          globalSetup: [
            'test/install-debian-packages.ts',
            'test/build-engine-tools.ts',
            'test/build-page-bundle.ts',
          ],
        },
      },
    ],
  },
});
