import { defineConfig } from 'vitest/config';

// Browser journeys: one file at a time (one Chromium and one server on 2 cores).
export default defineConfig({
  test: {
    include: ['ui/**/*.test.ts', 'api/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: false,
    // A page load, a sign-in and a socket connection can take seconds on a busy 2-core runner: polls wait
    // up to 10 s for what they expect (the default 1 s made the two-tab journey flaky).
    expect: { poll: { timeout: 10_000 } },
  },
});
