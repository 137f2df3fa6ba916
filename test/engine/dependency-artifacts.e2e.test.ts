import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { makeRepository } from '../fixtures/workspace/helpers.js';
import { latestRun } from '../support/runs.js';

// `plan` writes a file artifact and a stdout one; `use` lists what Wave placed for it and prints its variables.
const pipeline = (folder: string) => `kind: WavePipeline
metadata: { name: deps }
steps:
  - id: plan-step
    exec:
      type: command
      source: |
        mkdir -p out && echo '{"n": 1}' > out/findings.json
        echo planned
    output_artifacts:
      - { name: merged-findings, path: out/findings.json, type: json }
      - { name: notes, source: stdout }
  - id: other
    exec: { type: command, source: "echo other > other.txt" }
    output_artifacts: [{ name: other, path: other.txt }]
  - id: use
    dependencies: [plan-step]
    exec:
      type: command
      source: |
        find ${folder} -type f | sort
        env | grep '^WAVE_DEP' | sort
        cat "$WAVE_DEP_PLAN_STEP_MERGED_FINDINGS"
`;

async function run(files: Record<string, string>, name: string): Promise<{ output: string; project: string }> {
  const project = makeProject(files);
  const result = await runWave(['run', name], { cwd: project });
  expect(result.code, result.stderr).toBe(0);
  const { id } = latestRun(project);
  return { project, output: readFileSync(join(project, '.wave', 'runs', id, 'steps', 'use', 'output.txt'), 'utf8') };
}

describe('dependency artifacts, injected as Wave does without an inject_artifacts entry', () => {
  it('every saved artifact of each dependency lands at .wave/artifacts/<dep>/<file>, named in WAVE_DEP_<DEP>_<NAME>; a step it does not depend on gives nothing', async () => {
    const { output, project } = await run({ 'pipelines/deps.yaml': pipeline('.wave/artifacts') }, 'deps');
    const ws = (path: string) => join(project, '.wave', 'workspaces', latestRun(project).id, 'use', path);
    expect(output).toBe(
      [
        '.wave/artifacts/plan-step/findings.json',
        '.wave/artifacts/plan-step/notes',
        `WAVE_DEPS_DIR=${ws('.wave/artifacts')}`,
        `WAVE_DEP_PLAN_STEP_MERGED_FINDINGS=${ws('.wave/artifacts/plan-step/findings.json')}`,
        `WAVE_DEP_PLAN_STEP_NOTES=${ws('.wave/artifacts/plan-step/notes')}`,
        '{"n": 1}',
        '',
      ].join('\n'),
    );
  });

  it('in a project laid out the Wave way they land in .agents/artifacts/<dep>/ with an alias in .agents/output/ where Wave’s scripts read them', async () => {
    const { output } = await run({ 'wave.yaml': SHELL_ONLY, '.agents/pipelines/deps.yaml': pipeline('.agents') }, 'deps');
    const listed = output.split('\n').filter((line) => line.startsWith('.agents/'));
    expect(listed).toEqual(['.agents/artifacts/plan-step/findings.json', '.agents/artifacts/plan-step/notes', '.agents/output/findings.json', '.agents/output/notes']);
    expect(output).toMatch(/^WAVE_DEPS_DIR=\S+\/use\/\.agents\/artifacts$/m);
  });

  it('in a worktree, the alias keeps the project’s own file and the injected files are not counted as the step’s changes', async () => {
    const worktree = pipeline('.agents')
      .replace('    dependencies: [plan-step]\n', '    dependencies: [plan-step]\n    workspace: { type: worktree, branch: deps/use }\n')
      .replace('find .agents', 'cat .agents/output/notes.txt; find .agents/artifacts');
    const files = { 'wave.yaml': SHELL_ONLY, '.agents/pipelines/deps.yaml': worktree, '.agents/output/notes.txt': 'the project’s own\n', '.gitignore': '.wave/\n' };
    const project = makeProject(files);
    await makeRepository(project);
    const result = await runWave(['run', 'deps'], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    const record = latestRun(project);
    const output = readFileSync(join(project, '.wave', 'runs', record.id, 'steps', 'use', 'output.txt'), 'utf8');
    expect(output.startsWith('the project’s own\n.agents/artifacts/plan-step/findings.json\n')).toBe(true);
    expect(record.steps.use!.filesChanged).toEqual([]);
  }, 60_000);

  it('a saved copy removed from the run folder before the step starts is left out, and the step still runs', async () => {
    const project = makeProject({ 'pipelines/deps.yaml': pipeline('.wave/artifacts') });
    const first = await runWave(['run', 'deps'], { cwd: project });
    expect(first.code, first.stderr).toBe(0);
    const { id } = latestRun(project);
    rmSync(join(project, '.wave', 'runs', id, 'artifacts', 'plan-step', 'notes'));
    const resumed = await runWave(['resume', id, '--from-step', 'use'], { cwd: project });
    expect(resumed.code, resumed.stderr).toBe(0);
    const output = readFileSync(join(project, '.wave', 'runs', id, 'steps', 'use', 'output.txt'), 'utf8');
    expect(output).toContain('.wave/artifacts/plan-step/findings.json\n');
    expect(output).not.toContain('notes');
  });
});

const SHELL_ONLY = `kind: WaveManifest
metadata: { name: test }
adapters: {}
personas: {}
`;
