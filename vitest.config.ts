import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Process-heavy tests share two cores; forks isolate process-group signals.
    pool: 'forks',
    maxWorkers: 2,
  },
});
