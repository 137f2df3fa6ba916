import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WaveErrors } from '../../src/core/errors/errors.js';
import { REQUIREMENTS_HEADING } from '../../src/contracts/requirements.js';
import { SHELL_MANIFEST } from '../support/project.js';
import { pipelineOf, planProject } from './plan-project.js';
import { attemptSteps } from '../support/attempt-steps.js';

/** The problems buildPlan reports for a pipeline, as `line:column code message`. */
async function planProblems(pipeline: string, files: Record<string, string> = {}): Promise<string[]> {
  try {
    await planProject({ manifest: SHELL_MANIFEST, pipeline, files });
  } catch (error) {
    if (!(error instanceof WaveErrors)) throw error;
    return error.errors.map((e) => `${e.location?.line}:${e.location?.column} ${e.code} ${e.message}`);
  }
  throw new Error('expected the plan to be refused');
}

describe('buildPlan', () => {
  it("orders the steps in layers that may run in parallel and keeps each step's dependencies", async () => {
    const { plan } = await planProject({
      manifest: SHELL_MANIFEST,
      pipeline: pipelineOf(
        '{ id: report, dependencies: [lint, test], exec: { type: command, source: "true" } }',
        '{ id: fetch, exec: { type: command, source: "true" } }',
        '{ id: test, dependencies: [fetch], exec: { type: command, source: "true" } }',
        '{ id: lint, dependencies: [fetch], exec: { type: command, source: "true" } }',
      ),
    });
    expect(plan.layers).toEqual([['fetch'], ['test', 'lint'], ['report']]);
    expect(attemptSteps(plan).map((step) => [step.id, step.dependencies])).toEqual([
      ['report', ['lint', 'test']],
      ['fetch', []],
      ['test', ['fetch']],
      ['lint', ['fetch']],
    ]);
  });

  it("fills the runtime defaults and takes the manifest's values, relative to the manifest's folder", async () => {
    const pipeline = pipelineOf('{ id: a, exec: { type: command, source: "true" } }');
    const bare = await planProject({ manifest: 'kind: WaveManifest\nmetadata: { name: t }\n', pipeline });
    const { sandbox: _defaultSandbox, ...defaults } = bare.plan.runtime;
    expect(defaults).toEqual({
      maxConcurrency: 10,
      graceMs: 3000,
      skillCommandMs: 300_000,
      drainMs: 5000,
      maxStdoutBytes: 10 * 1024 * 1024,
      injectedArtifactsDir: join('.wave', 'artifacts'),
      stallMs: 0,
      maxLineBytes: 10 * 1024 * 1024,
      workspaceRoot: join(bare.dir, '.wave/workspaces'),
      runsRoot: join(bare.dir, '.wave/runs'),
      envPassthrough: [],
      secretEnv: [],
      recording: { enabled: true, maxFileBytes: 8 * 1024 * 1024, maxAttemptBytes: 64 * 1024 * 1024 },
      telemetry: { captureContent: false },
    });
    const set = await planProject({
      manifest: `kind: WaveManifest
metadata: { name: t }
runtime:
  max_concurrent_workers: 3
  timeouts: { process_grace_seconds: 0.5, stdout_drain_seconds: 1, skill_install_seconds: 20 }
  artifacts: { max_stdout_size: 1024, default_artifact_dir: out }
  stall_timeout: 2m
  max_line_bytes: 4096
  workspace_root: ../spaces
  sandbox: { env_passthrough: [GH_TOKEN] }
  recording: { enabled: false, max_file_mb: 0.5, max_attempt_mb: 2 }
`,
      pipeline,
    });
    const { sandbox: _sandbox, ...given } = set.plan.runtime;
    expect(given).toEqual({
      maxConcurrency: 3,
      graceMs: 500,
      skillCommandMs: 20_000,
      drainMs: 1000,
      maxStdoutBytes: 1024,
      artifactDir: 'out',
      injectedArtifactsDir: 'out',
      stallMs: 120_000,
      maxLineBytes: 4096,
      workspaceRoot: resolve(set.dir, '../spaces'),
      runsRoot: join(set.dir, '.wave/runs'),
      envPassthrough: ['GH_TOKEN'],
      recording: { enabled: false, maxFileBytes: 512 * 1024, maxAttemptBytes: 2 * 1024 * 1024 },
      secretEnv: [],
      telemetry: { captureContent: false },
    });
  });

  it('prefers max_concurrency to its older name', async () => {
    const manifest = SHELL_MANIFEST.replace('max_concurrency: 4', 'max_concurrency: 4\n  max_concurrent_workers: 9');
    const { plan } = await planProject({ manifest, pipeline: pipelineOf('{ id: a, exec: { type: command, source: "true" } }') });
    expect(plan.runtime.maxConcurrency).toBe(4);
  });

  it('names the pipeline, its files, the input and the project facts as strings', async () => {
    const manifest = `${SHELL_MANIFEST}project: { language: go, coverage: 80, strict: true }\n`;
    const { plan, dir } = await planProject({ manifest, pipeline: pipelineOf('{ id: a, exec: { type: command, source: "true" } }') }, { input: 'fix it' });
    expect([plan.pipelineName, plan.pipelineFile, plan.manifestFile, plan.projectRoot, plan.input]).toEqual([
      'p',
      join(dir, 'pipelines/p.yaml'),
      join(dir, 'wave.yaml'),
      dir,
      'fix it',
    ]);
    expect(plan.project).toEqual({ language: 'go', coverage: '80', strict: 'true' });
  });

  it('is frozen all the way down', async () => {
    const { plan } = await planProject({ manifest: SHELL_MANIFEST, pipeline: pipelineOf('{ id: a, env: { A: x }, exec: { type: command, source: "true" } }') });
    expect(() => {
      (attemptSteps(plan)[0]!.env as Record<string, string>).A = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      (plan.layers[0] as string[]).push('b');
    }).toThrow(TypeError);
    expect(attemptSteps(plan)[0]!.env).toEqual({ A: 'x' });
  });

  it("appends the contracts' requirements to a prompt step's template, never to a command's", async () => {
    const contract = 'handover: { contract: { type: non_empty_file, source: out.md } }';
    const { plan } = await planProject({
      manifest: SHELL_MANIFEST,
      pipeline: pipelineOf(
        `{ id: ask, persona: shell, exec: { source: "Write out.md.\\n\\n" }, ${contract} }`,
        `{ id: run, exec: { type: command, source: "echo hi > out.md" }, ${contract} }`,
      ),
    });
    expect(attemptSteps(plan)[0]!.template).toBe(`Write out.md.\n\n${REQUIREMENTS_HEADING}\n- The file \`out.md\` must exist and must not be empty.\n`);
    expect(attemptSteps(plan)[1]!.template).toBe('echo hi > out.md');
  });

  it('reads a template from exec.source_path, located at its first line', async () => {
    const { plan, dir } = await planProject({
      manifest: SHELL_MANIFEST,
      pipeline: pipelineOf('{ id: a, persona: shell, exec: { source_path: prompts/a.md } }'),
      files: { 'prompts/a.md': 'Do {{ input }}.\n' },
    });
    expect(attemptSteps(plan)[0]!.template).toBe('Do {{ input }}.\n');
    expect(attemptSteps(plan)[0]!.templateLocation).toEqual({ file: join(dir, 'prompts/a.md'), line: 1, column: 1 });
  });

  it('reports every unknown template variable at once, each at its line and column', async () => {
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: a
    persona: shell
    exec:
      source: |
        Fix {{ input }} with {{ nope }}
          and {{ project.missing }}
  - id: b
    persona: shell
    exec: { source: "see {{ steps.a.output }} and {{ steps.c.output }}" }
  - id: c
    exec: { type: command, source: "true" }
`;
    expect(await planProblems(pipeline)).toEqual([
      '8:30 template_invalid unknown template variable: `nope` is not a template variable (known: input, run.id, pipeline.name, step.id, project.*, artifacts.*, steps.<id>.output, forge.*, gate.<step>.*)',
      "9:15 template_invalid unknown template variable: `project.missing` is not in the manifest's project block (known: none)",
      '12:26 template_invalid unknown template variable: `steps.a.output` refers to a step that is not a dependency of `b` (dependencies: none)',
      '12:51 template_invalid unknown template variable: `steps.c.output` refers to a step that is not a dependency of `b` (dependencies: none)',
    ]);
  });

  it("refuses a command's reference where the shell expands nothing, and an unknown one in a workspace branch", async () => {
    const pipeline = pipelineOf(
      `{ id: a, exec: { type: command, source: "echo $'{{ input }}' '{{ input }}' {{ input }}" } }`,
      '{ id: b, workspace: { type: worktree, branch: "wave/{{ nope }}" }, exec: { type: command, source: "true" } }',
    );
    expect(await planProblems(pipeline)).toEqual([
      "4:53 template_invalid `{{ input }}` is inside a $'…' string in the command of step `a`, where the shell expands nothing",
      '5:51 template_invalid unknown template variable: `nope` is not a template variable (known: input, run.id, pipeline.name, step.id, project.*, artifacts.*, steps.<id>.output, forge.*, gate.<step>.*)',
    ]);
  });
});
