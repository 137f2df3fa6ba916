// The import rules of src/ (`npm run deps`): no cycles, and the layers of DESIGN.md only call downwards.
/** A rule that forbids imports from one layer of src/ into others. */
const layer = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: `^src/(${from})/` }, to: { path: `^src/(${to})/` } });

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle (type-only imports included): one of the modules belongs elsewhere, or the shared part in src/core.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'core-imports-only-core',
      comment: 'src/core is the vocabulary every layer imports; it imports nothing above it (WaveError in src/errors.ts aside).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: ['^src/core/', '^src/errors\\.ts$'] },
    },
    layer(
      'config-reads-files-only',
      'config parses and checks the formats; planning, running and reporting come after it.',
      'config',
      'plan|executor|adapters|sandbox|state|report|cli',
    ),
    layer('plan-runs-nothing', 'A plan is data: it never starts, records or reports anything.', 'plan', 'executor|adapters|state|report|cli'),
    layer('contracts-know-no-adapter', 'Contracts check outputs; they neither start agents nor schedule steps.', 'contracts', 'adapters|executor|sandbox|state|report|cli'),
    layer(
      'adapters-know-no-dag',
      'An adapter runs one attempt; it never knows the plan, the graph, the run record or the sinks.',
      'adapters',
      'config|plan|executor|state|report|cli',
    ),
    layer('sinks-never-reach-back', 'Report sinks subscribe to events; they never call the executor or the CLI.', 'report', 'executor|cli'),
    layer('executor-knows-no-cli', 'The executor is driven by the CLI and speaks through events, never through the CLI or a sink.', 'executor', 'cli|report'),
    {
      name: 'no-unreachable-source',
      comment: 'A module of src/ that neither the CLI, the schema writer nor the GitHub Action reaches is dead weight.',
      severity: 'error',
      from: { path: '^src/(cli/main|schemas|action/main)\\.ts$' },
      to: { path: '^src/', pathNot: ['\\.d\\.ts$', '^src/cli/main\\.ts$', '^src/schemas\\.ts$', '^src/action/main\\.ts$'], reachable: false },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
