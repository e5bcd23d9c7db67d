import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/setup.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Budgets, not speed checks: generous enough for a loaded 2-core machine (the slowest test,
    // the demo run twice, sets its own), so only a hung test reaches them.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Most of a test's time is spent waiting on git and node child processes, so two workers keep a
    // two-core machine busy where vitest's default (cores - 1) leaves one idle.
    maxWorkers: 2,
  },
});
