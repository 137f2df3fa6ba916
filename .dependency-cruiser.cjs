// The import rules of src/ (`npm run lint`): no cycles, and the layers of docs/design.md only call downwards.
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
      comment: 'src/core is the vocabulary every layer imports; it imports nothing above it.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: ['^src/core/'] },
    },
    layer(
      'config-reads-files-only',
      'config parses and checks the formats; planning, running and reporting come after it.',
      'config',
      'plan|contracts|engine|app|adapters|process|sandbox|state|report|cli|action',
    ),
    layer('plan-runs-nothing', 'A plan is data: it never starts, records or reports anything.', 'plan', 'engine|app|adapters|process|state|report|cli|action'),
    layer(
      'contracts-know-no-adapter',
      'Contracts check outputs; they neither start agents nor schedule steps.',
      'contracts',
      'adapters|engine|app|sandbox|state|report|cli|action',
    ),
    layer(
      'adapters-know-no-dag',
      'An adapter runs one attempt; it never knows the plan, the graph, the run record or the sinks.',
      'adapters',
      'config|plan|engine|app|state|report|cli|action',
    ),
    layer('sinks-never-reach-back', 'Report sinks subscribe to events; they never call the executor or the CLI.', 'report', 'engine|app|cli|action'),
    layer('engine-knows-no-front-end', 'The engine is driven by app/ and speaks through events, never through a front end or a sink.', 'engine', 'app|cli|action|report'),
    layer(
      'process-is-the-floor',
      'Spawning, process groups and liveness know no agent, sandbox, plan or run.',
      'process',
      'adapters|sandbox|engine|app|plan|state|report|cli|action',
    ),
    layer(
      'sandbox-knows-no-agent',
      'A sandbox wraps any process: it never knows which agent CLI, plan or run it holds.',
      'sandbox',
      'adapters|engine|app|plan|state|report|cli|action',
    ),
    layer('app-has-no-front-end', 'The run sequence is called by the CLI, the Action and the public API; it never calls back into them.', 'app', 'cli|action|api'),
    {
      name: 'action-is-not-cli',
      comment: "The GitHub Action calls the run sequence in src/app, never the CLI's internals; only its entry starts the whole CLI (`--cli`).",
      severity: 'error',
      from: { path: '^src/(action)/', pathNot: ['^src/action/main\\.ts$'] },
      to: { path: '^src/(cli)/' },
    },
    {
      name: 'no-unreachable-source',
      comment: 'A module of src/ that neither the CLI, the schema writer, the GitHub Action nor the public API reaches is dead weight.',
      severity: 'error',
      from: { path: '^src/(cli/main|schemas|action/main|api/index|api/adapter)\\.ts$' },
      to: {
        path: '^src/',
        pathNot: ['\\.d\\.ts$', '^src/cli/main\\.ts$', '^src/schemas\\.ts$', '^src/action/main\\.ts$', '^src/api/index\\.ts$', '^src/api/adapter\\.ts$'],
        reachable: false,
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
