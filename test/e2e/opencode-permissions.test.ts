import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { artifactPath, attemptFile, cliAvailable, manifestWith, param, runAgentPipeline, startModelServer, type AgentRun, type ModelServer } from './agents.js';

// OpenCode starts slowly (~3 s a run): allow for a loaded machine.
vi.setConfig({ testTimeout: 240_000 });

const available = cliAvailable('opencode');

/** An opencode adapter line pointing at one scenario of the server's Chat Completions API. */
const openCodeAdapter = (name: string, baseUrl: string) =>
  `  ${name}: { type: opencode, binary: opencode, model: scripted, isolated: true, base_url: "${baseUrl}", api_key_env: OC_KEY, env: { OC_KEY: fake-key } }`;

/** A pipeline of one independent step per persona; a step named with `=path` keeps that file as artifact `out`. */
function stepsOf(...personas: string[]): string {
  const steps = personas.map((entry) => {
    const [p, output] = entry.split('=');
    const artifacts = output ? `    output_artifacts: [{ name: out, path: "${output}" }]\n` : '';
    return `  - id: ${p}\n    persona: ${p}\n    exec: { type: prompt, source: "Do the task." }\n${artifacts}`;
  });
  return `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n${steps.join('')}`;
}

/** OpenCode's own tool_use events of a step's first attempt. */
function toolCalls(run: AgentRun, stepId: string): Array<Record<string, any>> {
  return attemptFile(run.project, run.record, stepId, 1, 'stdout')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>)
    .filter((o) => o.type === 'tool_use')
    .map((o) => o.part);
}

function artifactText(run: AgentRun, stepId: string): string {
  const artifact = run.record.steps[stepId]!.artifacts.find((a) => a.name === 'out');
  expect(artifact, `step ${stepId} kept no artifact`).toBeDefined();
  return readFileSync(artifactPath(run, artifact!.path), 'utf8');
}

const changedFiles = (run: AgentRun, stepId: string): string[] => (run.record.steps[stepId]!.filesChanged ?? []).map((f) => f.path);

describe.skipIf(!available)("opencode: Wave's persona permissions, enforced by OpenCode itself", () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it('allowed_tools ["*"] writes and runs; deny ["*"] refuses the same calls', async () => {
    const write = `${server.url}/s/write/notes.txt/${param('written under *\n')}/v1`;
    const shell = `${server.url}/s/shell/${param('echo ran > ran.txt && cat ran.txt')}/v1`;
    const adapters = [openCodeAdapter('w1', write), openCodeAdapter('s1', shell), openCodeAdapter('w2', write), openCodeAdapter('s2', shell)];
    const personas = [
      '  writer: { adapter: w1, permissions: { allowed_tools: ["*"], deny: [] } }',
      '  runner: { adapter: s1, permissions: { allowed_tools: ["*"], deny: [] } }',
      '  nowriter: { adapter: w2, permissions: { allowed_tools: ["*"], deny: ["*"] } }',
      '  norunner: { adapter: s2, permissions: { deny: ["*"] } }',
    ].join('\n');
    const run = await runAgentPipeline(manifestWith(adapters, personas), stepsOf('writer=notes.txt', 'runner=ran.txt', 'nowriter', 'norunner'));
    expect(run.code, run.stderr).toBe(0);
    expect(artifactText(run, 'writer')).toBe('written under *\n');
    expect(artifactText(run, 'runner')).toBe('ran\n');
    for (const step of ['nowriter', 'norunner']) {
      // OpenCode offers no tool the rules deny outright: the model's call comes back as an error and nothing changes.
      expect(toolCalls(run, step).every((part) => part.state?.status === 'error')).toBe(true);
      expect(changedFiles(run, step)).toEqual([]);
    }
  });

  it('Write(.agents/output/*) lets OpenCode write there and nowhere else; Bash(echo *) runs echo and refuses touch', async () => {
    const rules = '{ allowed_tools: [Read, "Write(.agents/output/*)", "Bash(echo *)"] }';
    const adapters = [
      openCodeAdapter('inside', `${server.url}/s/write/${encodeURIComponent('.agents/output/report.md')}/${param('# report\n')}/v1`),
      openCodeAdapter('outside', `${server.url}/s/write/report.md/${param('# report\n')}/v1`),
      openCodeAdapter('echo', `${server.url}/s/shell/${param('echo hello')}/v1`),
      openCodeAdapter('touch', `${server.url}/s/shell/${param('touch made.txt')}/v1`),
    ];
    const personas = ['inside', 'outside', 'echo', 'touch'].map((name) => `  ${name}: { adapter: ${name}, permissions: ${rules} }`).join('\n');
    const run = await runAgentPipeline(manifestWith(adapters, personas), stepsOf('inside=.agents/output/report.md', 'outside', 'echo', 'touch'));
    expect(run.code, run.stderr).toBe(0);
    expect(artifactText(run, 'inside')).toBe('# report\n');
    expect(changedFiles(run, 'inside')).toContain('.agents/output/report.md');
    expect(changedFiles(run, 'outside')).toEqual([]);
    expect(toolCalls(run, 'outside')[0]?.state?.status).toBe('error');
    expect(toolCalls(run, 'echo')[0]).toMatchObject({ tool: 'bash', state: { status: 'completed' } });
    expect(toolCalls(run, 'echo')[0]?.state?.output).toContain('hello');
    expect(toolCalls(run, 'touch')[0]).toMatchObject({ tool: 'bash', state: { status: 'error', input: { command: 'touch made.txt' } } });
    expect(changedFiles(run, 'touch')).toEqual([]);
  });
});
