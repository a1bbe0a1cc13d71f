import { defineConfig } from 'vitest/config';

// Browser journeys: one file at a time (one Chromium and one server on 2 cores).
export default defineConfig({
  test: {
    include: ['ui/**/*.test.ts', 'api/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: false,
  },
});
