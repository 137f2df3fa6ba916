import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestView, readManifest, readPipeline } from '../../src/config/load/load.js';
import { WaveErrors } from '../../src/core/errors/errors.js';
import { SHELL_MANIFEST, makeProject } from '../support/project.js';
import { attemptSteps } from '../support/attempt-steps.js';
import { pipelineOf, planProject } from './plan-project.js';

/** The problems of reading pipelines/p.yaml beside SHELL_MANIFEST: code, line and the message's start. */
async function problemsOf(pipeline: string): Promise<Array<[string, number | undefined, string]>> {
  const dir = makeProject({ 'pipelines/p.yaml': pipeline });
  const manifest = await readManifest(join(dir, 'wave.yaml'), {});
  const read = await readPipeline(join(dir, 'pipelines', 'p.yaml'), manifestView(manifest), {});
  return read.errors.map((e) => [e.code, e.location?.line, e.message]);
}

/** The errors buildPlan throws for a pipeline beside `manifest`. */
async function planErrors(manifest: string, pipeline: string): Promise<string[]> {
  const thrown: unknown = await planProject({ manifest, pipeline }).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(WaveErrors);
  return (thrown as WaveErrors).errors.map((e) => `${e.code} ${e.location?.line}: ${e.message}`);
}

describe("Wave's command steps (`type: command`, `script:`)", () => {
  it('plan as command steps running the script, whichever of the two marks them', async () => {
    const { plan } = await planProject({
      manifest: SHELL_MANIFEST,
      pipeline: pipelineOf(
        '{ id: both, type: command, script: "echo both", timeout_minutes: 2, retry: { max_attempts: 3 } }',
        '{ id: bare, script: "echo {{ input }}" }',
        '{ id: typed, type: command, exec: { source: "echo typed" } }',
      ),
    });
    expect(attemptSteps(plan).map((s) => [s.id, s.kind, s.adapter.name, s.template])).toEqual([
      ['both', 'command', 'command', 'echo both'],
      ['bare', 'command', 'command', 'echo {{ input }}'],
      ['typed', 'command', 'command', 'echo typed'],
    ]);
    // Wave's form runs in the copy of a ./ mount, as Wave's executor runs it; our exec.type: command stays in the workspace.
    const { plan: both } = await planProject({
      manifest: SHELL_MANIFEST,
      pipeline: pipelineOf('{ id: wave, script: "pwd" }', '{ id: ours, exec: { type: command, source: "pwd" } }'),
    });
    expect(both.steps.map((s) => s.kind === 'command' && s.runsInProjectCopy === true)).toEqual([true, false]);
    // The step's own time limit and retry policy apply, as to any command step here (Wave applies neither).
    expect(attemptSteps(plan)[0]!.timeoutMs).toBe(120_000);
    expect(attemptSteps(plan)[0]!.retry.maxAttempts).toBe(3);
  });

  it("check the script's templates as a command's, at the script's line", async () => {
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: s
    type: command
    script: |
      echo fine
      PIPELINE='{{ input }}'
      cat <<'EOF'
      {{ input }}
      EOF
      echo {{ nope }}
`;
    const errors = await planErrors(SHELL_MANIFEST, pipeline);
    // Wave's `PIPELINE='{{ input }}'` is taken (the value goes in as data); a quoted heredoc expands nothing.
    expect(errors).toEqual([
      expect.stringMatching(/^template_invalid 12: unknown template variable: `nope` is not a template variable/),
      expect.stringMatching(/^template_invalid 10: `\{\{ input \}\}` is inside a quoted heredoc \(<<'EOF'\) in the command of step `s`/),
    ]);
  });

  it('load without `exec`; a step with none of exec, script and pipeline is told what it lacks', async () => {
    expect(await problemsOf(pipelineOf('{ id: s, script: "true" }'))).toEqual([]);
    expect(await problemsOf(pipelineOf('{ id: s, persona: shell }'))).toEqual([
      ['missing_field', 4, 'step `s` has neither `exec` (a prompt or command) nor `pipeline` (a child pipeline)'],
    ]);
  });

  it('refuse a script beside an exec, a `type: command` with nothing to run, and one whose exec is a prompt', async () => {
    expect(await problemsOf(pipelineOf('{ id: s, script: "true", exec: { type: command, source: "false" } }'))).toEqual([
      ['conflicting_fields', 4, 'step `s` sets both `script` and `exec`'],
    ]);
    expect(await problemsOf(pipelineOf('{ id: s, type: command }'))).toEqual([['missing_field', 4, 'step `s` is `type: command` but has no `script` to run']]);
    expect(await problemsOf(pipelineOf('{ id: s, type: command, exec: { type: prompt, source: hi } }'))).toEqual([
      ['conflicting_fields', 4, 'step `s` is `type: command` but its `exec.type` is `prompt`'],
    ]);
  });

  it("refuse what only reaches an agent, as on any command step; Wave's other step types stay refused by name", async () => {
    const problems = await problemsOf(pipelineOf('{ id: s, script: "true", max_concurrent_agents: 2 }', '{ id: g, type: gate, exec: { type: command, source: "true" } }'));
    expect(problems.map(([code, , message]) => [code, message.split(' (')[0]])).toEqual([
      ['conflicting_fields', 'step `s` sets `max_concurrent_agents`, but it is a command step: no agent runs to receive it'],
      ['missing_field', 'step `g` is `type: gate` but has no `gate`'],
    ]);
  });
});

describe('{{ project.<key> }} in test_suite commands', () => {
  const manifest = `${SHELL_MANIFEST}project:\n  contract_test_command: "env A=1 go test ./..."\n`;

  it("is filled with the project's setting, as the command line it is", async () => {
    const { plan } = await planProject({
      manifest,
      pipeline: pipelineOf(
        '{ id: s, script: "true", handover: { contract: { type: test_suite, command: "{{ project.contract_test_command }} && echo ok" } } }',
        '{ id: t, script: "true", handover: { contracts: [{ type: test_suite, command: "{{project.contract_test_command}}" }] } }',
      ),
    });
    expect(attemptSteps(plan).map((s) => s.contracts[0]!.command)).toEqual(['env A=1 go test ./... && echo ok', 'env A=1 go test ./...']);
  });

  it('refuses a key the project block lacks, naming the known ones, and any other variable, at the command', async () => {
    const errors = await planErrors(
      manifest,
      pipelineOf(
        '{ id: s, script: "true", handover: { contract: { type: test_suite, command: "{{ project.test_command }}" } } }',
        '{ id: t, script: "true", handover: { contracts: [{ type: non_empty_file }, { type: test_suite, command: "run {{ input }}" }] } }',
        '{ id: u, script: "true", handover: { contract: { type: test_suite, validate: false, command: "{{ input }}" } } }',
      ),
    );
    expect(errors).toEqual([
      "template_invalid 4: unknown template variable in a test_suite command of step `s`: `project.test_command` is not in the manifest's project block (known: project.contract_test_command)",
      'template_invalid 5: unknown template variable in a test_suite command of step `t`: `input` is not a project setting: a test_suite command takes only {{ project.<key> }}',
    ]);
  });
});
