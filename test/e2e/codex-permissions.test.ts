import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentManifest, artifactPath, attemptFile, cliAvailable, param, runAgentPipeline, startModelServer, type AgentRun, type ModelServer } from './agents.js';

const available = cliAvailable('codex');

// Codex runs each command in a login shell: a HOME of its own keeps the machine's dotfiles (a pyenv rehash waiting on
// its lock, say) from stalling the commands this test is about.
const shellHome = mkdtempSync(join(tmpdir(), 'wave-codex-home-'));
const codexManifest = agentManifest('codex', 'gpt-5.5', `, env: { HOME: "${shellHome}" }`);

/** A pipeline of one independent step per persona; a step named with `=path` keeps that file as artifact `out`. */
function stepsOf(...personas: string[]): string {
  const steps = personas.map((entry) => {
    const [p, output] = entry.split('=');
    const artifacts = output ? `    output_artifacts: [{ name: out, path: "${output}" }]\n` : '';
    return `  - id: ${p}\n    persona: ${p}\n    exec: { type: prompt, source: "Do the task." }\n${artifacts}`;
  });
  return `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n${steps.join('')}`;
}

/** Codex's own completed items of a step's first attempt. */
function items(run: AgentRun, stepId: string): Array<Record<string, any>> {
  return attemptFile(run.project, run.record, stepId, 1, 'stdout')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>)
    .filter((o) => o.type === 'item.completed')
    .map((o) => o.item);
}

function artifactText(run: AgentRun, stepId: string): string {
  const artifact = run.record.steps[stepId]!.artifacts.find((a) => a.name === 'out');
  expect(artifact, `step ${stepId} kept no artifact`).toBeDefined();
  return readFileSync(artifactPath(run, artifact!.path), 'utf8');
}

describe.skipIf(!available)("codex: Wave's persona permissions, as Codex's own switches", () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it('allowed_tools ["*"] writes and runs; deny ["*"] and deny [Bash] take the tools away', async () => {
    const write = `${server.url}/s/write/notes.txt/${param('written under *\n')}/v1`;
    const shell = `${server.url}/s/shell/${param('echo ran > ran.txt && cat ran.txt')}/v1`;
    const manifest = codexManifest(
      { w1: write, s1: shell, w2: write, s2: shell, s3: shell },
      [
        '  writer: { adapter: w1, permissions: { allowed_tools: ["*"], deny: [] } }',
        '  runner: { adapter: s1, permissions: { allowed_tools: ["*"], deny: [] } }',
        '  nowriter: { adapter: w2, permissions: { allowed_tools: ["*"], deny: ["*"] } }',
        '  norunner: { adapter: s2, permissions: { deny: ["*"] } }',
        '  noshell: { adapter: s3, permissions: { allowed_tools: ["*"], deny: [Bash] } }',
      ].join('\n'),
    );
    const run = await runAgentPipeline(manifest, stepsOf('writer=notes.txt', 'runner=ran.txt', 'nowriter', 'norunner', 'noshell'));
    expect(run.code, run.stderr).toBe(0);
    expect(artifactText(run, 'writer')).toBe('written under *\n');
    expect(artifactText(run, 'runner')).toBe('ran\n');
    expect(items(run, 'writer').some((i) => i.type === 'file_change' && i.status === 'completed')).toBe(true);
    expect(items(run, 'runner').some((i) => i.type === 'command_execution' && i.status === 'completed')).toBe(true);
    for (const step of ['nowriter', 'norunner', 'noshell']) {
      // Codex ran no command and changed no file: the model's call came back refused.
      expect(items(run, step).filter((i) => i.type === 'command_execution' || i.type === 'file_change')).toEqual([]);
      expect(run.record.steps[step]!.filesChanged ?? []).toEqual([]);
    }
    expect(attemptFile(run.project, run.record, 'nowriter', 1, 'stderr')).toContain('read-only sandbox');
    expect(attemptFile(run.project, run.record, 'noshell', 1, 'stderr')).toContain('unsupported call: exec_command');
  });
});
