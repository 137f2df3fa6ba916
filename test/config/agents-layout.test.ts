import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolvePipelinePath } from '../../src/config/load/load.js';
import { runWave } from '../support/cli.js';
import { makeProject, SHELL_MANIFEST } from '../support/project.js';

/** A manifest in Wave's `.agents/` layout: the persona's prompt file is relative to it, as Wave resolves it. */
const MANIFEST = `${SHELL_MANIFEST.replace('shell: { adapter: shell }', 'shell: { adapter: shell, system_prompt_file: .agents/personas/shell.md }')}`;

/** Two command steps: `make` writes JSON checked against a schema under .agents/contracts; `use` reads it where Wave's prompts expect it. */
const HANDOFF = `kind: WavePipeline
metadata: { name: handoff }
steps:
  - id: make
    exec: { type: command, source: "printf '{\\"ok\\": true}' > report.json" }
    output_artifacts: [{ name: report, path: report.json }]
    handover:
      contract: { type: json_schema, schema_path: .agents/contracts/report.schema.json }
  - id: use
    dependencies: [make]
    memory:
      inject_artifacts: [{ step: make, artifact: report, as: report.json }]
    exec: { type: command, source: "ls -d .agents/artifacts .wave/artifacts out/in 2>/dev/null > where.txt; cat {{ artifacts.report.json }} >> where.txt" }
    output_artifacts: [{ name: where, path: where.txt }]
`;
const SCHEMA = '{"type": "object", "required": ["ok"], "properties": {"ok": {"const": true}}}';

const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = makeProject({ 'wave.yaml': MANIFEST, '.agents/personas/shell.md': 'You are a shell.\n', '.agents/contracts/report.schema.json': SCHEMA, ...files });
  projects.push(dir);
  return dir;
}

/** The text the `use` step wrote: which artifact folders exist in its workspace, then the injected report. */
function whereText(dir: string): string {
  const [runId] = readdirSync(join(dir, '.wave', 'runs'));
  return readFileSync(join(dir, '.wave', 'runs', runId!, 'artifacts', 'use', 'where.txt'), 'utf8');
}

describe("Wave's .agents/ layout", () => {
  it('finds a pipeline by name in .agents/pipelines/ as well as pipelines/, for run, validate and compile', async () => {
    const dir = project({ '.agents/pipelines/handoff.yaml': HANDOFF, 'pipelines/other.yaml': HANDOFF.replace('name: handoff', 'name: other') });
    expect(resolvePipelinePath('handoff', dir, dir)).toBe(join(dir, '.agents', 'pipelines', 'handoff.yaml'));
    expect(resolvePipelinePath('other', dir, dir)).toBe(join(dir, 'pipelines', 'other.yaml'));
    const validate = await runWave(['validate', 'handoff'], { cwd: dir });
    expect(validate.stdout).toBe('✓ wave.yaml\n✓ .agents/pipelines/handoff.yaml\n2 files valid');
    const compile = await runWave(['compile', 'handoff'], { cwd: dir });
    expect(compile.code, compile.stderr).toBe(0);
    expect(compile.stdout).toContain('WAVE_PIPELINE_FILE: .agents/pipelines/handoff.yaml');
    expect(compile.stdout).toMatch(/npx --yes wave-pipelines@\S+ run "\$WAVE_PIPELINE_FILE"/);
    const run = await runWave(['run', 'handoff', '--output', 'text'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it('validates both folders when no pipeline is named', async () => {
    const dir = project({ '.agents/pipelines/handoff.yaml': HANDOFF, 'pipelines/other.yaml': HANDOFF.replace('name: handoff', 'name: other') });
    const result = await runWave(['validate'], { cwd: dir });
    expect(result.stdout).toBe('✓ wave.yaml\n✓ pipelines/other.yaml\n✓ .agents/pipelines/handoff.yaml\n3 files valid');
  });

  it('refuses a name found in both folders rather than choosing one', async () => {
    const dir = project({ '.agents/pipelines/handoff.yaml': HANDOFF, 'pipelines/handoff.yml': HANDOFF });
    const result = await runWave(['run', 'handoff'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `invalid_argument: the pipeline name \`handoff\` is ambiguous: ${join(dir, 'pipelines', 'handoff.yml')} and ${join(dir, '.agents', 'pipelines', 'handoff.yaml')} both exist`,
    );
  });

  it('puts injected artifacts in .agents/artifacts/ of a project whose pipelines are in .agents/pipelines/', async () => {
    const dir = project({ '.agents/pipelines/handoff.yaml': HANDOFF });
    const run = await runWave(['run', 'handoff', '--output', 'text'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(whereText(dir)).toBe('.agents/artifacts\n{"ok": true}');
    const dry = await runWave(['run', 'handoff', '--dry-run'], { cwd: dir });
    expect(dry.stdout).toContain('cat <workspace>/.agents/artifacts/report.json');
  });

  it('keeps .wave/artifacts/ for a project laid out with pipelines/ only', async () => {
    const dir = project({ 'pipelines/handoff.yaml': HANDOFF });
    const run = await runWave(['run', 'handoff', '--output', 'text'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(whereText(dir)).toBe('.wave/artifacts\n{"ok": true}');
  });

  it('uses runtime.artifacts.default_artifact_dir when the manifest sets it, and refuses one outside the workspace', async () => {
    const dir = project({
      'wave.yaml': `${MANIFEST}  artifacts: { default_artifact_dir: out/in }\n`,
      '.agents/pipelines/handoff.yaml': HANDOFF,
    });
    const run = await runWave(['run', 'handoff', '--output', 'text'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(whereText(dir)).toBe('out/in\n{"ok": true}');
    const outside = project({ 'wave.yaml': `${MANIFEST}  artifacts: { default_artifact_dir: ../elsewhere }\n`, '.agents/pipelines/handoff.yaml': HANDOFF });
    const validate = await runWave(['validate'], { cwd: outside });
    expect(validate.code).toBe(2);
    expect(validate.stdout).toContain(
      "✗ wave.yaml\nwave.yaml:10:38: wrong_type: `runtime.artifacts.default_artifact_dir` is `../elsewhere`, which is not a folder inside a step's workspace",
    );
  });

  it("resolves personas' prompt files and contracts' schema paths from the manifest's folder, wherever the pipeline lies", async () => {
    const dir = project({ '.agents/pipelines/handoff.yaml': HANDOFF });
    const below = join(dir, '.agents', 'pipelines');
    const ok = await runWave(['validate', '-m', join(dir, 'wave.yaml'), 'handoff'], { cwd: below });
    expect(ok.code, ok.stdout).toBe(0);
    // The same paths relative to the pipeline's own folder do not exist: they are not what is read.
    expect(existsSync(join(below, '.agents', 'contracts', 'report.schema.json'))).toBe(false);
    rmSync(join(dir, '.agents', 'contracts'), { recursive: true });
    rmSync(join(dir, '.agents', 'personas'), { recursive: true });
    mkdirSync(join(below, '.agents', 'contracts'), { recursive: true });
    const missing = await runWave(['validate', 'handoff'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain(`names system_prompt_file \`.agents/personas/shell.md\`, which does not exist (looked for ${join(dir, '.agents', 'personas', 'shell.md')})`);
    expect(missing.stdout).toContain(
      `names schema_path \`.agents/contracts/report.schema.json\`, which does not exist (looked for ${join(dir, '.agents', 'contracts', 'report.schema.json')})`,
    );
  });
});
