import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { runDirs } from '../support/runs.js';

// A parent's artifacts handed to its child's steps as `{{ artifacts.<name> }}` (Wave's `config.inject`, and the
// dependencies' artifacts Wave passes unasked), run by the CLI with command steps.

/** Reads what its parent hands it; fails while the file its input names exists (a failure to resume). */
const READER = `kind: WavePipeline
metadata: { name: reader }
steps:
  - id: read
    exec: { type: command, source: "test ! -e {{ input }} && cat {{ artifacts.findings }} {{ artifacts.plan }} > got.txt && ls .wave/artifacts >> got.txt" }
    output_artifacts: [{ name: got, path: got.txt }]
`;

const PARENT = `kind: WavePipeline
metadata: { name: parent }
steps:
  - id: scan
    exec: { type: command, source: "printf 'finding one;' > f.txt" }
    output_artifacts: [{ name: findings, path: f.txt }]
  - id: plan
    dependencies: [scan]
    exec: { type: command, source: "printf 'the plan;' > p.md" }
    output_artifacts: [{ name: plan, path: p.md }]
  - id: hand
    pipeline: reader
    dependencies: [plan]
    config: { inject: [findings] }
`;

function records(project: string): RunRecord[] {
  return runDirs(project).map((dir) => JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunRecord);
}

function childOf(project: string): RunRecord {
  const found = records(project).filter((r) => r.pipeline === 'reader');
  expect(found).toHaveLength(1);
  return found[0]!;
}

function savedArtifact(project: string, record: RunRecord, stepId: string, name: string): string {
  const artifact = record.steps[stepId]!.artifacts.find((a) => a.name === name)!;
  return readFileSync(join(project, '.wave', 'runs', record.id, artifact.path), 'utf8');
}

describe("a parent's artifacts in its child's steps", () => {
  it('places `config.inject` and the dependency’s own artifact in the child step that names them; the parent gets the child’s result', async () => {
    const project = makeProject({ 'pipelines/reader.yaml': READER, 'pipelines/parent.yaml': PARENT });
    const dry = await runWave(['run', 'parent', '--dry-run'], { cwd: project });
    expect(dry.stdout).toContain('hands:     findings ({{ artifacts.findings }} in the child)');
    const run = await runWave(['run', 'parent', '--input', join(project, 'absent')], { cwd: project });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const parent = records(project).find((r) => r.pipeline === 'parent')!;
    expect(savedArtifact(project, parent, 'hand', 'got')).toBe('finding one;the plan;findings\nplan\n');
    expect(childOf(project).options.parentArtifacts).toEqual({ plan: 'parent', findings: 'parent' });
  });

  it('a resumed parent resumes the child with the same artifacts; the child resumed on its own asks for its parent', async () => {
    const project = makeProject({ 'pipelines/reader.yaml': READER, 'pipelines/parent.yaml': PARENT });
    const marker = join(project, 'stop');
    writeFileSync(marker, '');
    const failed = await runWave(['run', 'parent', '--input', marker], { cwd: project });
    expect(failed.code).toBe(1);
    const child = childOf(project);
    expect(child.status).toBe('failed');
    const alone = await runWave(['resume', child.id], { cwd: project });
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain('artifact_source_missing: step `read` injects artifact `findings` of pipeline `parent`');
    rmSync(marker);
    const parent = records(project).find((r) => r.pipeline === 'parent')!;
    const done = await runWave(['resume', parent.id], { cwd: project });
    expect(done.code, done.stderr + done.stdout).toBe(0);
    expect(childOf(project).id).toBe(child.id);
    const after = records(project).find((r) => r.pipeline === 'parent')!;
    expect(savedArtifact(project, after, 'hand', 'got')).toBe('finding one;the plan;findings\nplan\n');
    expect(readdirSync(join(project, '.wave', 'runs', child.id, 'steps', 'read')).filter((n) => n.startsWith('attempt-')).length).toBeGreaterThan(1);
  });

  it('`wave validate` refuses a `config.inject` name no step it depends on declares, with the names it could be', async () => {
    const bad = PARENT.replace('inject: [findings]', 'inject: [findngs, plan]');
    const project = makeProject({ 'pipelines/reader.yaml': READER, 'pipelines/parent.yaml': bad });
    const checked = await runWave(['validate', 'pipelines/parent.yaml'], { cwd: project });
    expect(checked.code).toBe(2);
    const said = checked.stdout + checked.stderr;
    expect(said).toContain('parent.yaml:14:24: unknown_artifact: step `hand` hands its child `findngs`, which no step it depends on declares');
    expect(said).toContain('Did you mean `findings`?');
    expect(said).not.toContain('`plan`, which');
  });

  it('the child run on its own cannot name what only a parent hands it', async () => {
    const project = makeProject({ 'pipelines/reader.yaml': READER });
    const run = await runWave(['run', 'reader', '--input', 'x'], { cwd: project });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "`artifacts.findings` is not an artifact this step injects (known: none; run as a child, it gets those its parent's step hands over with `config.inject`)",
    );
  });
  it("a loop's sub-step hands its child an artifact of a step before the loop, as Wave's shared context does", async () => {
    const looper = `kind: WavePipeline
metadata: { name: looper }
steps:
  - id: scan
    exec: { type: command, source: "printf 'finding one;' > f.txt" }
    output_artifacts: [{ name: findings, path: f.txt }]
  - id: again
    dependencies: [scan]
    loop:
      max_iterations: 2
      steps:
        - id: hand
          pipeline: single
          config: { inject: [findings] }
`;
    const single = `kind: WavePipeline
metadata: { name: single }
steps:
  - id: read
    exec: { type: command, source: "cat {{ artifacts.findings }} > got.txt" }
    output_artifacts: [{ name: got, path: got.txt }]
`;
    const project = makeProject({ 'pipelines/looper.yaml': looper, 'pipelines/single.yaml': single });
    expect((await runWave(['validate', 'pipelines/looper.yaml'], { cwd: project })).code).toBe(0);
    const run = await runWave(['run', 'looper'], { cwd: project });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const readers = records(project).filter((r) => r.pipeline === 'single');
    expect(readers).toHaveLength(2);
    for (const reader of readers) expect(savedArtifact(project, reader, 'read', 'got')).toBe('finding one;');
    const bad = looper.replace('inject: [findings]', 'inject: [findngs]');
    writeFileSync(join(project, 'pipelines', 'looper.yaml'), bad);
    const checked = await runWave(['validate', 'pipelines/looper.yaml'], { cwd: project });
    expect(checked.stdout + checked.stderr).toContain('step `hand` hands its child `findngs`, which no step it depends on declares');
  });
});
