import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, attemptFile, claudeManifest, cliAvailable, param, runAgentPipeline, startModelServer, type AgentRun, type ModelServer } from './agents.js';

const available = cliAvailable('claude');

/** Claude's own stream of a step's first attempt, parsed. */
function claudeStream(run: AgentRun, stepId: string): Array<Record<string, any>> {
  return attemptFile(run.project, run.record, stepId, 1, 'stdout')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);
}

/** The text of each tool result Claude sent back to the model in a step. */
function toolResults(run: AgentRun, stepId: string): string[] {
  return claudeStream(run, stepId)
    .filter((o) => o.type === 'user')
    .flatMap((o) => (o.message?.content ?? []) as Array<Record<string, any>>)
    .filter((part) => part.type === 'tool_result')
    .map((part) => (typeof part.content === 'string' ? part.content : JSON.stringify(part.content)));
}

/** A pipeline of one step per persona, each in its own workspace; a step named with `=path` keeps that file as artifact `out`. */
function stepsOf(...personas: string[]): string {
  const steps = personas.map((entry) => {
    const [p, output] = entry.split('=');
    const artifacts = output ? `    output_artifacts: [{ name: out, path: "${output}" }]\n` : '';
    return `  - id: ${p}\n    persona: ${p}\n    exec: { type: prompt, source: "Do the task." }\n${artifacts}`;
  });
  return `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n${steps.join('')}`;
}

/** The text of a step's `out` artifact. */
function artifactText(run: AgentRun, stepId: string): string {
  const artifact = run.record.steps[stepId]!.artifacts.find((a) => a.name === 'out');
  expect(artifact, `step ${stepId} kept no artifact`).toBeDefined();
  return readFileSync(artifactPath(run, artifact!.path), 'utf8');
}

/** The files a step's attempt added or changed in its workspace. */
const changedFiles = (run: AgentRun, stepId: string): string[] => (run.record.steps[stepId]!.filesChanged ?? []).map((f) => f.path);

describe.skipIf(!available)("claude: Wave's persona permissions, enforced by Claude Code itself", () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it('allowed_tools ["*"] (as every persona of Wave\'s own wave.yaml): Claude writes a file and runs a command', async () => {
    const manifest = claudeManifest(
      { writer: `${server.url}/s/write/notes.txt/${param('written under allowed_tools *\n')}`, runner: `${server.url}/s/shell/${param('echo ran > ran.txt && cat ran.txt')}` },
      '  writer: { adapter: writer, permissions: { allowed_tools: ["*"], deny: [] } }\n  runner: { adapter: runner, permissions: { allowed_tools: ["*"], deny: [] } }',
    );
    const run = await runAgentPipeline(manifest, stepsOf('writer=notes.txt', 'runner=ran.txt'));
    expect(run.code, run.stderr).toBe(0);
    expect(artifactText(run, 'writer')).toBe('written under allowed_tools *\n');
    expect(artifactText(run, 'runner')).toBe('ran\n');
    for (const step of ['writer', 'runner']) {
      const result = claudeStream(run, step).find((o) => o.type === 'result');
      expect(result?.permission_denials).toEqual([]);
    }
  });

  it('deny ["*"]: Claude has no tool to call, so nothing is written or run', async () => {
    const manifest = claudeManifest(
      { writer: `${server.url}/s/write/notes.txt`, runner: `${server.url}/s/shell/${param('touch ran.txt')}` },
      '  writer: { adapter: writer, permissions: { allowed_tools: ["*"], deny: ["*"] } }\n  runner: { adapter: runner, permissions: { deny: ["*"] } }',
    );
    const run = await runAgentPipeline(manifest, stepsOf('writer', 'runner'));
    expect(run.code, run.stderr).toBe(0);
    for (const step of ['writer', 'runner']) {
      const init = claudeStream(run, step).find((o) => o.type === 'system' && o.subtype === 'init');
      expect(init?.tools).toEqual([]);
      expect(toolResults(run, step).join('\n')).toContain('No such tool available');
    }
    expect(changedFiles(run, 'writer')).toEqual([]);
    expect(changedFiles(run, 'runner')).toEqual([]);
  });

  it('Write(.agents/output/*) lets Claude write there and nowhere else; Bash(echo *) runs echo and refuses touch', async () => {
    const rules = '{ allowed_tools: [Read, "Write(.agents/output/*)", "Bash(echo *)"] }';
    const manifest = claudeManifest(
      {
        inside: `${server.url}/s/write/${encodeURIComponent('.agents/output/report.md')}/${param('# report\n')}`,
        outside: `${server.url}/s/write/report.md/${param('# report\n')}`,
        echo: `${server.url}/s/shell/${param('echo hello')}`,
        touch: `${server.url}/s/shell/${param('touch made.txt')}`,
      },
      ['inside', 'outside', 'echo', 'touch'].map((name) => `  ${name}: { adapter: ${name}, permissions: ${rules} }`).join('\n'),
    );
    const run = await runAgentPipeline(manifest, stepsOf('inside=.agents/output/report.md', 'outside', 'echo', 'touch'));
    expect(run.code, run.stderr).toBe(0);
    expect(artifactText(run, 'inside')).toBe('# report\n');
    // Wave records what each attempt changed: the write inside, nothing outside.
    expect(changedFiles(run, 'inside')).toContain('.agents/output/report.md');
    expect(changedFiles(run, 'outside')).toEqual([]);
    const denied = (step: string) => claudeStream(run, step).find((o) => o.type === 'result')?.permission_denials ?? [];
    expect(denied('outside')).toEqual([expect.objectContaining({ tool_name: 'Write' })]);
    expect(denied('inside')).toEqual([]);
    expect(toolResults(run, 'echo').join('\n')).toContain('hello');
    expect(denied('echo')).toEqual([]);
    expect(denied('touch')).toEqual([expect.objectContaining({ tool_name: 'Bash', tool_input: expect.objectContaining({ command: 'touch made.txt' }) })]);
    expect(changedFiles(run, 'touch')).toEqual([]);
    // Only the named tools are offered, as Wave's agent frontmatter `tools:` does.
    const init = claudeStream(run, 'inside').find((o) => o.type === 'system' && o.subtype === 'init');
    expect([...(init?.tools as string[])].sort()).toEqual(['Bash', 'Read', 'Write']);
  });
});
