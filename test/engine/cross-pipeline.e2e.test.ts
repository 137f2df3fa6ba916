import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { runDirs } from '../support/runs.js';

// Another pipeline's artifacts (Wave's `inject_artifacts[].pipeline`): from a parent run, and from the earlier
// stages of `wave compose`, run by the CLI as a user runs them, with command steps.

/** Writes a verdict JSON and a plain note; its pipeline output `decision` is one field of the verdict. */
const PRODUCER = `kind: WavePipeline
metadata: { name: producer }
steps:
  - id: judge
    exec: { type: command, source: "printf '{\\"verdict\\":\\"approve\\",\\"count\\":3}' > v.json && printf 'from %s' {{ input }} > note.txt" }
    output_artifacts:
      - { name: verdict, path: v.json, type: json }
      - { name: note, path: note.txt }
pipeline_outputs:
  decision: { step: judge, artifact: verdict, field: verdict }
`;

/** Reads the producer's verdict, its `decision` output and its note; the note only when the marker file is there (a failure to resume). */
const CONSUMER = `kind: WavePipeline
metadata: { name: consumer }
steps:
  - id: publish
    memory:
      inject_artifacts:
        - { pipeline: producer, artifact: verdict, as: review.json, type: json }
        - { pipeline: producer, artifact: decision, as: decision.txt }
        - { pipeline: producer, artifact: note }
    exec: { type: command, source: "test ! -e {{ input }}.fail && cat {{ artifacts.review.json }} {{ artifacts.decision.txt }} {{ artifacts.note }}" }
`;

/** Writes its own note, beside the producer in a stage. */
const OTHER = `kind: WavePipeline
metadata: { name: other }
steps:
  - id: write
    exec: { type: command, source: "printf other-note > o.txt" }
    output_artifacts: [{ name: other-note, path: o.txt }]
`;

const BOTH = `kind: WavePipeline
metadata: { name: both }
steps:
  - id: read
    memory:
      inject_artifacts:
        - { pipeline: producer, artifact: note }
        - { pipeline: other, artifact: other-note }
    exec: { type: command, source: "cat {{ artifacts.note }}; echo; cat {{ artifacts.other-note }}" }
`;

function records(project: string): RunRecord[] {
  return runDirs(project).map((dir) => JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunRecord);
}

function runOf(project: string, pipeline: string): RunRecord {
  const found = records(project).filter((r) => r.pipeline === pipeline);
  expect(found, `one run of ${pipeline}`).toHaveLength(1);
  return found[0]!;
}

function stdoutOf(project: string, record: RunRecord, stepId: string, attempt = 1): string {
  return readFileSync(join(project, '.wave', 'runs', record.id, 'steps', stepId, `attempt-${attempt}`, 'stdout'), 'utf8');
}

describe("another pipeline's artifacts", () => {
  it('refuses a run on its own before any step, naming the pipeline that hands them over; `wave validate` accepts the pipeline', async () => {
    const project = makeProject({ 'pipelines/producer.yaml': PRODUCER, 'pipelines/consumer.yaml': CONSUMER });
    expect((await runWave(['validate', 'pipelines/consumer.yaml'], { cwd: project })).code).toBe(0);
    const run = await runWave(['run', 'consumer', '--input', 'x'], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('artifact_source_missing: step `publish` injects artifact `verdict` of pipeline `producer`');
    expect(run.stderr).toContain('hint: Run both with `wave compose producer consumer`');
    expect(runDirs(project)).toEqual([]);
  });

  it('`wave compose A B` runs them in order as one run; B gets A’s artifact, its field output and its note; a failed B resumes without running A again', async () => {
    const project = makeProject({ 'pipelines/producer.yaml': PRODUCER, 'pipelines/consumer.yaml': CONSUMER });
    const check = await runWave(['compose', 'producer', 'consumer', '--validate-only'], { cwd: project });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain('✓ consumer/publish ← producer verdict (as review.json)');
    expect(check.stdout).toContain('Result: 0 error(s), 0 warning(s)');
    expect(runDirs(project)).toEqual([]);

    // The consumer fails while in.fail exists (its workspace is elsewhere: the path is absolute).
    const input = join(project, 'in');
    writeFileSync(`${input}.fail`, '');
    const failed = await runWave(['compose', 'producer', 'consumer', '--input', input, '--output', 'text'], { cwd: project });
    expect(failed.code).toBe(1);
    const composition = records(project).find((r) => r.parentId === undefined)!;
    expect(composition.steps.producer!.status).toBe('completed');
    expect(composition.steps.consumer!.status).toBe('failed');
    const producer = runOf(project, 'producer');
    expect(producer).toMatchObject({ parentId: composition.id, parentStepId: 'producer', status: 'completed' });

    rmSync(`${input}.fail`);
    const done = await runWave(['resume', composition.id, '--output', 'text'], { cwd: project });
    expect(done.code, done.stderr + done.stdout).toBe(0);
    // The producer ran once: one run of it, and the consumer's run read its artifacts.
    expect(runOf(project, 'producer').id).toBe(producer.id);
    const consumer = runOf(project, 'consumer');
    expect(consumer.status).toBe('completed');
    const attempts = readdirSync(join(project, '.wave', 'runs', consumer.id, 'steps', 'publish')).filter((name) => name.startsWith('attempt-'));
    expect(stdoutOf(project, consumer, 'publish', attempts.length)).toBe(`{"verdict":"approve","count":3}approvefrom ${input}`);
  });

  it('refuses a composition whose order does not hand the artifacts over, and runs nothing', async () => {
    const project = makeProject({ 'pipelines/producer.yaml': PRODUCER, 'pipelines/consumer.yaml': CONSUMER, 'pipelines/other.yaml': OTHER });
    const reversed = await runWave(['compose', 'consumer', 'producer'], { cwd: project });
    expect(reversed.code).toBe(2);
    expect(reversed.stdout).toContain('✗ consumer/publish ← producer verdict (as review.json): producer runs after consumer');
    expect(reversed.stderr).toContain('invalid_argument: the composition hands over artifacts it does not have (3 above)');
    const beside = await runWave(['compose', '--parallel', 'producer', 'consumer', '--', 'other'], { cwd: project });
    expect(beside.code).toBe(2);
    expect(beside.stdout).toContain('producer runs beside consumer, not before it');
    const missing = await runWave(['compose', 'other', 'consumer'], { cwd: project });
    expect(missing.stdout).toContain('producer is not part of this composition');
    const twice = await runWave(['compose', 'producer', 'producer'], { cwd: project });
    expect(twice.stderr).toContain('`producer` is named twice in the composition');
    expect(runDirs(project)).toEqual([]);
  });

  it('`--parallel A B -- C` runs A and B side by side, then C with the artifacts of both', async () => {
    const project = makeProject({ 'pipelines/producer.yaml': PRODUCER, 'pipelines/other.yaml': OTHER, 'pipelines/both.yaml': BOTH });
    // Options come before `--`: after it every word is a pipeline.
    const run = await runWave(['compose', '--input', 'stage', '--parallel', 'producer', 'other', '--', 'both'], { cwd: project });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const composition = records(project).find((r) => r.parentId === undefined)!;
    expect(composition.steps.both!.dependencies.sort()).toEqual(['other', 'producer']);
    expect(composition.steps.producer!.dependencies).toEqual([]);
    expect(stdoutOf(project, runOf(project, 'both'), 'read')).toBe('from stage\nother-note');
  });

  it("gives a child its parent's artifacts (and its pipeline outputs) and an earlier sibling child's; an optional one nothing hands over is left out", async () => {
    const CHILD = `kind: WavePipeline
metadata: { name: child }
steps:
  - id: use
    memory:
      inject_artifacts:
        - { pipeline: parent, artifact: context }
        - { pipeline: producer, artifact: decision }
        - { pipeline: nowhere, artifact: other-note, optional: true }
    exec: { type: command, source: "cat {{ artifacts.context }}; echo; cat {{ artifacts.decision }}; ls .wave/artifacts" }
`;
    const PARENT = `kind: WavePipeline
metadata: { name: parent }
steps:
  - id: prep
    exec: { type: command, source: "printf parent-context > c.txt" }
    output_artifacts: [{ name: context, path: c.txt }]
  - id: first
    pipeline: producer
  - id: second
    pipeline: child
    dependencies: [prep, first]
`;
    const project = makeProject({
      'pipelines/producer.yaml': PRODUCER,
      'pipelines/child.yaml': CHILD,
      'pipelines/parent.yaml': PARENT,
      'pipelines/nowhere.yaml': OTHER.replace('name: other', 'name: nowhere'),
    });
    const run = await runWave(['run', 'parent', '--input', 'p'], { cwd: project });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(stdoutOf(project, runOf(project, 'child'), 'use')).toBe('parent-context\napprovecontext\ndecision\n');
  });

  it('`wave validate` refuses a reference to both a step and a pipeline, to an unknown pipeline, and to an artifact the pipeline does not declare', async () => {
    const BAD = `kind: WavePipeline
metadata: { name: bad }
steps:
  - id: a
    exec: { type: command, source: "true" }
  - id: b
    dependencies: [a]
    memory:
      inject_artifacts:
        - { step: a, pipeline: producer, artifact: verdict }
        - { pipeline: nosuch, artifact: verdict }
        - { pipeline: producer, artifact: verdikt }
    exec: { type: command, source: "true" }
`;
    const project = makeProject({ 'pipelines/producer.yaml': PRODUCER, 'pipelines/bad.yaml': BAD });
    const checked = await runWave(['validate', 'pipelines/bad.yaml'], { cwd: project });
    expect(checked.code).toBe(2);
    expect(checked.stdout + checked.stderr).toContain('bad.yaml:10:22: conflicting_fields: step `b` injects an artifact of both a step and a pipeline');
    expect(checked.stdout + checked.stderr).toContain('injects an artifact of pipeline `nosuch`, which is neither a file nor a name in pipelines/ or .agents/pipelines/');
    expect(checked.stdout + checked.stderr).toContain(
      'unknown_artifact: step `b` injects artifact `verdikt` of pipeline `producer`, which declares no such output artifact or pipeline output',
    );
    expect(checked.stdout + checked.stderr).toContain('Did you mean `verdict`?');
  });

  it('`wave compile` refuses, by name, a step that injects another pipeline’s artifact, and one that runs a child', async () => {
    const project = makeProject({
      'pipelines/producer.yaml': PRODUCER,
      'pipelines/consumer.yaml': CONSUMER,
      'pipelines/parent.yaml': PRODUCER.replace('name: producer', 'name: parent').replace(/steps:[\s\S]*/, 'steps:\n  - id: sub\n    pipeline: producer\n'),
    });
    const consumer = await runWave(['compile', 'consumer'], { cwd: project });
    expect(consumer.code).toBe(2);
    expect(consumer.stderr).toContain('not_supported: step `publish` injects an artifact of another pipeline');
    const parent = await runWave(['compile', 'parent'], { cwd: project });
    expect(parent.stderr).toContain('not_supported: step `sub` runs a child pipeline');
    expect(existsSync(join(project, '.github'))).toBe(false);
  });
});
