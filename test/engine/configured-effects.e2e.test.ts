import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { SHELL_MANIFEST, makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

/** A project of the shell manifest (plus `runtime` lines) and pipeline p; runs it and reads the run. */
async function runProject(pipeline: string, runtime = '', files: Record<string, string> = {}, flags: string[] = []) {
  const project = makeProject({ 'wave.yaml': SHELL_MANIFEST + runtime, 'pipelines/p.yaml': pipeline, ...files });
  const result = await runWave(['run', 'p', '--output', 'quiet', ...flags], { cwd: project });
  return { ...result, project, run: latestRun(project) };
}

const PRINTS_100 = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: talk
    exec: { type: command, source: "printf '%0100d' 0" }
    output_artifacts: [{ name: said, source: stdout }]
`;

describe('runtime.artifacts', () => {
  it('max_stdout_size fails a step with a stdout artifact whose stdout is larger', async () => {
    const { code, run } = await runProject(PRINTS_100, '  artifacts: { max_stdout_size: 50 }\n');
    expect(code).toBe(1);
    expect(run.steps.talk!.failure).toMatchObject({ class: 'limit_exceeded', message: expect.stringContaining('100 bytes, past runtime.artifacts.max_stdout_size (50 bytes)') });
  });

  it('lets the same step pass under the default limit', async () => {
    const { code, run } = await runProject(PRINTS_100);
    expect(code).toBe(0);
    expect(run.steps.talk!.status).toBe('completed');
  });

  it('default_artifact_dir writes each stdout artifact into the workspace at <dir>/<step>/<name>', async () => {
    const { code, run } = await runProject(PRINTS_100, '  artifacts: { default_artifact_dir: .agents/artifacts }\n', {}, ['--keep-workspaces']);
    expect(code).toBe(0);
    const copy = join(run.steps.talk!.workspace!, '.agents', 'artifacts', 'talk', 'said');
    expect(readFileSync(copy, 'utf8')).toBe('0'.repeat(100));
  });

  it('without default_artifact_dir nothing is written into the workspace', async () => {
    const { run } = await runProject(PRINTS_100, '', {}, ['--keep-workspaces']);
    expect(existsSync(join(run.steps.talk!.workspace!, '.agents'))).toBe(false);
  });
});

/** Step make writes `content` to data.json; step use injects it with the given extra keys. */
const injecting = (content: string, extra: string) => `kind: WavePipeline
metadata: { name: p }
steps:
  - id: make
    exec: { type: command, source: "printf '%s' '${content.replaceAll('"', '\\"')}' > data.json" }
    output_artifacts: [{ name: data, path: data.json }]
  - id: use
    dependencies: [make]
    memory: { inject_artifacts: [{ step: make, artifact: data, as: data.json${extra} }] }
    exec: { type: command, source: "echo ran" }
`;

describe('memory.inject_artifacts type and schema_path', () => {
  it('type: json refuses an artifact that does not parse, before the step runs', async () => {
    const { code, run } = await runProject(injecting('not json', ', type: json'));
    expect(code).toBe(1);
    expect(run.steps.use!.failure).toMatchObject({ class: 'contract_failed', message: expect.stringContaining('injected artifact `data` of step `make` is not valid JSON') });
    expect(run.steps.use!.attempts).toHaveLength(0);
  });

  it('schema_path checks the artifact against the JSON Schema', async () => {
    const schema = JSON.stringify({ type: 'object', required: ['n'], properties: { n: { type: 'number' } } });
    const { code, run } = await runProject(injecting('{"n": "x"}', ', schema_path: data.schema.json'), '', { 'data.schema.json': schema });
    expect(code).toBe(1);
    expect(run.steps.use!.failure?.class).toBe('contract_failed');
    expect(run.steps.use!.failure?.message).toContain('injected artifact `data` of step `make` does not match data.schema.json');
    expect(run.steps.use!.failure?.message).toContain('/n');
  });

  it('passes an artifact that matches', async () => {
    const schema = JSON.stringify({ type: 'object', required: ['n'], properties: { n: { type: 'number' } } });
    const { code, run } = await runProject(injecting('{"n": 1}', ', type: json, schema_path: data.schema.json'), '', { 'data.schema.json': schema });
    expect(code).toBe(0);
    expect(run.steps.use!.status).toBe('completed');
  });
});

describe('metadata.disabled', () => {
  const DISABLED = `kind: WavePipeline
metadata:
  name: p
  disabled: true
steps:
  - { id: a, exec: { type: command, source: "echo ran" } }
`;

  it('wave run refuses a disabled pipeline, naming the key and how to run it', async () => {
    const project = makeProject({ 'pipelines/p.yaml': DISABLED });
    const result = await runWave(['run', 'p'], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pipeline_disabled');
    expect(result.stderr).toContain('pipeline `p` is disabled');
    expect(result.stderr).toMatch(/p\.yaml:4:/);
    expect(result.stderr).toContain('Remove `disabled: true`');
    expect(existsSync(join(project, '.wave', 'runs'))).toBe(false);
  });

  it('wave validate still checks it and lists it as disabled', async () => {
    const project = makeProject({ 'pipelines/p.yaml': DISABLED });
    const result = await runWave(['validate'], { cwd: project });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('p.yaml (disabled: wave run refuses it)');
  });
});
