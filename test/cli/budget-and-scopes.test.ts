import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForge, type FakeForge } from '../support/fake-forge.js';
import { startModelServer, type ModelServer } from '../support/model-server.mjs';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestEvents, latestRun, runDirs } from '../support/runs.js';

/** Two llm steps, `second` after `first`, each on its own scenario of the scripted model server. */
const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: first
    persona: first
    exec: { source: "Answer at length." }
  - id: second
    persona: second
    dependencies: [first]
    exec: { source: "Answer again." }
`;

/** A manifest with one llm adapter per step; every token costs a dollar (the manifest's `prices`). */
function manifest(serverUrl: string, scenarios: [string, string], extra: string): string {
  const adapter = (scenario: string) => `{ type: llm, base_url: "${serverUrl}/s/${scenario}/v1", model: scripted-model, prices: { input: 1000000, output: 1000000 } }`;
  return `kind: WaveManifest
metadata: { name: t }
adapters:
  one: ${adapter(scenarios[0])}
  two: ${adapter(scenarios[1])}
personas:
  first: { adapter: one }
  second: { adapter: two }
${extra}`;
}

describe('runtime.cost through the CLI, on the llm adapter and the manifest prices', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it('stops a step whose answer never ends once its reported usage reaches budget_ceiling, and resume counts what was spent', async () => {
    const project = makeProject({
      'pipelines/p.yaml': PIPELINE,
      'wave.yaml': manifest(server.url, ['usagestall', 'text'], 'runtime:\n  cost: { budget_ceiling: 3, currency: USD }\n'),
    });
    const started = Date.now();
    const result = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    // The step's own limit is 30 minutes and its stream never ends: only the budget stopped it.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(result.code, result.stderr + result.stdout).toBe(1);
    expect(result.stdout).toMatch(/budget exhausted: the run has spent \$\d+\.\d\d, reaching runtime\.cost\.budget_ceiling \$3\.00; no new step starts/);
    expect(result.stdout).toMatch(/first +failed on attempt 1 after .*: budget_exhausted: the run has spent/);
    expect(result.stdout).toContain('hint: Raise runtime.cost.budget_ceiling');
    const record = latestRun(project);
    expect(record.status).toBe('failed');
    expect(record.steps.first!.failure?.class).toBe('budget_exhausted');
    expect(record.steps.second!.status).toBe('pending');
    // What the cut attempt used is on record: the usage the server reported, a dollar a token.
    const spent = record.steps.first!.attempts[0]!.costUsd!;
    expect(spent).toBeGreaterThanOrEqual(3);
    expect(spent).toBe(record.steps.first!.attempts[0]!.tokens.input + record.steps.first!.attempts[0]!.tokens.output);
    expect(record.failure?.class).toBe('budget_exhausted');
    expect(latestEvents(project).filter((e) => e.type === 'budget_exhausted')).toEqual([expect.objectContaining({ ceilingUsd: 3, step: 'first' })]);

    // Resumed with the same ceiling: the money is spent already, so no step starts.
    const requestsBefore = server.requests.length;
    const resumed = await runWave(['resume', record.id, '--output', 'text'], { cwd: project });
    expect(resumed.code, resumed.stderr + resumed.stdout).toBe(1);
    expect(resumed.stdout).toContain(`budget exhausted: the run has spent $${spent.toFixed(2)}`);
    expect(server.requests.length).toBe(requestsBefore);
    expect(latestRun(project).steps.first!.attempts).toHaveLength(1);
  });

  it('warns once at warn_at and finishes under the ceiling', async () => {
    const project = makeProject({
      'pipelines/p.yaml': PIPELINE,
      'wave.yaml': manifest(server.url, ['text', 'text'], 'runtime:\n  cost: { budget_ceiling: 100000, warn_at: 1 }\n'),
    });
    const result = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(result.stdout.match(/budget warning: the run has spent \$[\d.]+, reaching runtime\.cost\.warn_at \$1\.00 \(budget_ceiling \$100000\.00\)/g)).toHaveLength(1);
    expect(latestEvents(project).filter((e) => e.type === 'budget_warning')).toEqual([expect.objectContaining({ warnAtUsd: 1, step: 'first' })]);
  });

  it('refuses a currency other than USD before anything runs', async () => {
    const project = makeProject({ 'pipelines/p.yaml': PIPELINE, 'wave.yaml': manifest(server.url, ['text', 'text'], 'runtime:\n  cost: { budget_ceiling: 5, currency: EUR }\n') });
    const result = await runWave(['run', 'p'], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('wave.yaml:10:40: not_supported: `runtime.cost.currency: EUR` is not supported: costs are counted in US dollars only');
    expect(runDirs(project)).toEqual([]);
  });
});

describe('persona token_scopes through the CLI, against a local fake of the GitHub API', () => {
  let server: ModelServer;
  let forge: FakeForge;
  beforeAll(async () => {
    server = await startModelServer();
    forge = await startFakeForge({ 'classic-gist': { scopes: ['gist'] }, 'classic-repo': { scopes: ['repo'] } });
  });
  afterAll(async () => {
    await server?.close();
    await forge?.close();
  });

  const project = () =>
    makeProject({
      'pipelines/p.yaml': PIPELINE,
      'wave.yaml': manifest(server.url, ['text', 'text'], 'runtime:\n  sandbox: { env_passthrough: [GH_TOKEN] }\n')
        .replace('metadata: { name: t }', 'metadata: { name: t, forge: github }')
        .replace('second: { adapter: two }', 'second: { adapter: two, token_scopes: [issues:write] }'),
    });
  const env = (token: string) => ({ GH_TOKEN: token, GITHUB_TOKEN: '', GITHUB_API_URL: forge.githubUrl });

  it('stops before any step runs when the token lacks a scope, naming persona, scope and how to grant it', async () => {
    const dir = project();
    const requests = server.requests.length;
    const result = await runWave(['run', 'p'], { cwd: dir, env: env('classic-gist') });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'wave.yaml:8:42: token_scope_missing: persona `second` needs token scope `issues:write`, which GitHub grants as `repo`; the token in GH_TOKEN has only `gist`',
    );
    expect(result.stderr).toContain('hint: Grant repo to the token: `gh auth refresh --scopes repo`');
    expect(result.stderr).not.toContain('classic-gist');
    expect(server.requests.length).toBe(requests);
    expect(runDirs(dir)).toEqual([]);
  });

  it('runs when the token holds the scope', async () => {
    const result = await runWave(['run', 'p', '--output', 'text'], { cwd: project(), env: env('classic-repo') });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(result.stderr).not.toContain('token scopes');
  });

  it('warns on stderr and records an event when no token is set, then runs', async () => {
    const dir = project();
    const result = await runWave(['run', 'p', '--output', 'text'], { cwd: dir, env: env('') });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(result.stderr).toContain('warning: the token scopes of persona `second` (issues:write) could not be checked: GH_TOKEN and GITHUB_TOKEN are not set');
    expect(result.stdout).toContain('token scopes of persona second (issues:write) not checked: GH_TOKEN and GITHUB_TOKEN are not set');
    const events = latestEvents(dir);
    // After the run's run_created and run_started.
    expect(events.findIndex((e) => e.type === 'token_scopes_unchecked')).toBe(2);
    expect(events[2]).toMatchObject({ persona: 'second', scopes: ['issues:write'], reason: 'GH_TOKEN and GITHUB_TOKEN are not set' });
  });
});
