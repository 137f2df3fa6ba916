import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A HOME, XDG folders and git identity of each test file's own: `npm test` behaves here as in CI.
    setupFiles: ['test/support/isolated-home.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Process-heavy tests share two cores; forks isolate process-group signals.
    pool: 'forks',
    maxWorkers: 2,
    // The JSON report feeds scripts/test-table.mjs (the CI log's table of agent CLI scenarios).
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    // @actions/workflow-parser imports JSON without an import attribute, which plain Node refuses; vitest's transform loads it.
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
