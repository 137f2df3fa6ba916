import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { artifactPath, attemptFile, cliAvailable, manifestWith, param, runAgentPipeline, startModelServer, type AgentRun, type ModelServer } from './agents.js';

// Gemini CLI starts in 2-3 s a run: allow for a loaded machine.
vi.setConfig({ testTimeout: 240_000 });

const available = cliAvailable('gemini');

/** A gemini adapter line pointing at one scenario of the server's Gemini API. */
const geminiAdapter = (name: string, baseUrl: string) => `  ${name}: { type: gemini, binary: gemini, model: gemini-2.5-pro, isolated: true, base_url: "${baseUrl}" }`;

/** A pipeline of one independent step per persona; a step named with `=path` keeps that file as artifact `out`. */
function stepsOf(...personas: string[]): string {
  const steps = personas.map((entry) => {
    const [p, output] = entry.split('=');
    const artifacts = output ? `    output_artifacts: [{ name: out, path: "${output}" }]\n` : '';
    return `  - id: ${p}\n    persona: ${p}\n    exec: { type: prompt, source: "Do the task." }\n${artifacts}`;
  });
  return `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n${steps.join('')}`;
}

/** Gemini's own tool_result events of a step's first attempt: each call's status and output. */
function toolResults(run: AgentRun, stepId: string): Array<Record<string, any>> {
  return attemptFile(run.project, run.record, stepId, 1, 'stdout')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>)
    .filter((o) => o.type === 'tool_result');
}

function artifactText(run: AgentRun, stepId: string): string {
  const artifact = run.record.steps[stepId]!.artifacts.find((a) => a.name === 'out');
  expect(artifact, `step ${stepId} kept no artifact`).toBeDefined();
  return readFileSync(artifactPath(run, artifact!.path), 'utf8');
}

const changedFiles = (run: AgentRun, stepId: string): string[] => (run.record.steps[stepId]!.filesChanged ?? []).map((f) => f.path);

describe.skipIf(!available)("gemini: Wave's persona permissions, enforced by Gemini CLI's policy engine", () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it('allowed_tools ["*"] writes and runs; deny ["*"] refuses the same calls', async () => {
    const write = `${server.url}/s/write/notes.txt/${param('written under *\n')}`;
    const shell = `${server.url}/s/shell/${param('echo ran > ran.txt && cat ran.txt')}`;
    const adapters = [geminiAdapter('w1', write), geminiAdapter('s1', shell), geminiAdapter('w2', write), geminiAdapter('s2', shell)];
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
      // Gemini's policy engine refuses the call: it comes back as an error and nothing changes.
      const results = toolResults(run, step);
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((r) => r.status === 'error')).toBe(true);
      expect(changedFiles(run, step)).toEqual([]);
    }
  });

  it('Write(.agents/output/*) lets Gemini write there and nowhere else; Bash(echo *) runs echo and refuses touch', async () => {
    const rules = '{ allowed_tools: [Read, "Write(.agents/output/*)", "Bash(echo *)"] }';
    const adapters = [
      geminiAdapter('inside', `${server.url}/s/write/${encodeURIComponent('.agents/output/report.md')}/${param('# report\n')}`),
      geminiAdapter('outside', `${server.url}/s/write/report.md/${param('# report\n')}`),
      geminiAdapter('echo', `${server.url}/s/shell/${param('echo hello')}`),
      geminiAdapter('touch', `${server.url}/s/shell/${param('touch made.txt')}`),
    ];
    const personas = ['inside', 'outside', 'echo', 'touch'].map((name) => `  ${name}: { adapter: ${name}, permissions: ${rules} }`).join('\n');
    const run = await runAgentPipeline(manifestWith(adapters, personas), stepsOf('inside=.agents/output/report.md', 'outside', 'echo', 'touch'));
    expect(run.code, run.stderr).toBe(0);
    expect(artifactText(run, 'inside')).toBe('# report\n');
    expect(changedFiles(run, 'inside')).toContain('.agents/output/report.md');
    expect(changedFiles(run, 'outside')).toEqual([]);
    expect(toolResults(run, 'outside')[0]?.status).toBe('error');
    expect(toolResults(run, 'echo')[0]).toMatchObject({ status: 'success' });
    expect(toolResults(run, 'echo')[0]?.output).toContain('hello');
    expect(toolResults(run, 'touch')[0]?.status).toBe('error');
    expect(changedFiles(run, 'touch')).toEqual([]);
    // Gemini loaded every rule of Wave's policy file (it reports a rule it refuses on stderr, and drops it).
    for (const step of ['inside', 'outside', 'echo', 'touch']) expect(attemptFile(run.project, run.record, step, 1, 'stderr')).not.toContain('Policy file error');
  });
});
