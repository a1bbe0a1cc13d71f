import { defineConfig } from 'vitest/config';

// One runner for the unit and API suites; the browser journeys run separately (e2e/).
export default defineConfig({
  test: {
    // PGlite and the Lua workers are memory-heavy; keep parallelism within 2 cores.
    maxWorkers: 2,
    projects: [
      { test: { name: 'contracts', include: ['contracts/src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['web/src/**/*.test.ts', 'web/src/**/*.test.tsx'],
          // @rjsf/mantine imports dayjs plugins without their .js extension, which Node's ESM loader refuses:
          // the bundler resolves them (as Vite does for the console).
          server: { deps: { inline: ['@rjsf/mantine'] } },
        },
      },
    ],
  },
});
