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
  },
});
