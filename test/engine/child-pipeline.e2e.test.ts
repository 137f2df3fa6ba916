import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave, startWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { runDirs } from '../support/runs.js';
import { marker } from '../support/sandbox.js';
import { waitFor } from '../support/wait.js';

// Child pipeline steps (Wave's `pipeline:`), run by `wave run` as a user runs them: command steps, no agent.

/** A child that writes its input into note.txt, declared as its artifact and its one pipeline output. */
const WRITER = `kind: WavePipeline
metadata: { name: writer }
steps:
  - id: write
    exec: { type: command, source: "printf '%s' {{ input }} > note.txt" }
    output_artifacts: [{ name: note, path: note.txt }]
pipeline_outputs:
  note: { step: write, artifact: note }
`;

const PARENT = `kind: WavePipeline
metadata: { name: parent }
steps:
  - id: prep
    exec: { type: command, source: "printf prepared" }
  - id: sub
    pipeline: writer
    dependencies: [prep]
    input: "for {{ input }} after {{ prep.output }}"
    config: { extract: [note] }
  - id: read
    dependencies: [sub]
    memory:
      inject_artifacts: [{ step: sub, artifact: note, as: got }]
    exec: { type: command, source: "cat {{ artifacts.got }}; echo; echo output={{ steps.sub.output }}" }
`;

function record(project: string, id: string): RunRecord {
  return JSON.parse(readFileSync(join(project, '.wave', 'runs', id, 'run.json'), 'utf8')) as RunRecord;
}

/** The project's runs as `wave runs --json` lists them. */
async function runsOf(project: string): Promise<Array<{ id: string; pipeline: string; status: string; parentId?: string }>> {
  const listed = await runWave(['runs', '--json'], { cwd: project });
  return JSON.parse(listed.stdout) as Array<{ id: string; pipeline: string; status: string; parentId?: string }>;
}

/** The project's run records as they are on disk now. */
function recordsNow(project: string): RunRecord[] {
  return runDirs(project).flatMap((dir) => (existsSync(join(dir, 'run.json')) ? [JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunRecord] : []));
}

function stepStdout(project: string, runId: string, stepId: string): string {
  return readFileSync(join(project, '.wave', 'runs', runId, 'steps', stepId, 'attempt-1', 'stdout'), 'utf8');
}

describe('a child pipeline step', () => {
  it("runs the child as a run of its own; the child's artifact and output come back as the step's, for the steps after it", async () => {
    const project = makeProject({ 'pipelines/writer.yaml': WRITER, 'pipelines/parent.yaml': PARENT });
    const run = await runWave(['run', 'parent', '--input', 'hello', '--output', 'text'], { cwd: project });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const listed = await runsOf(project);
    const parent = listed.find((r) => r.pipeline === 'parent')!;
    const child = listed.find((r) => r.pipeline === 'writer')!;
    expect(child).toMatchObject({ status: 'completed', parentId: parent.id });
    const parentRecord = record(project, parent.id);
    expect(parentRecord.steps.sub!.children).toEqual([{ runId: child.id, pipeline: 'writer', status: 'completed' }]);
    expect(record(project, child.id)).toMatchObject({ parentId: parent.id, parentStepId: 'sub', childKind: 'sub_pipeline', input: 'for hello after prepared' });
    // Its artifact, under the step's id and once more as `<child>.<name>` (config.extract), and its output.
    expect(parentRecord.steps.sub!.artifacts.map((a) => a.name)).toEqual(['note', 'writer.note']);
    expect(stepStdout(project, parent.id, 'read')).toBe('for hello after prepared\noutput=for hello after prepared\n');
    // Where a person looks: the summary and `wave status` name the child run by id.
    expect(run.stdout + run.stderr).toContain(`child run ${child.id} (writer) completed`);
    const status = await runWave(['status', parent.id], { cwd: project });
    expect(status.stdout).toContain(`↳ child run ${child.id} (writer) completed`);
    const childStatus = await runWave(['status', child.id], { cwd: project });
    expect(childStatus.code).toBe(0);
    expect(childStatus.stdout).toContain('✓ write');
  });

  it("fails with its child, naming the child run and its failed step; a missing extract or the child's time limit fail it too", async () => {
    const failing = WRITER.replace("printf '%s' {{ input }} > note.txt", 'echo broken >&2; exit 3');
    const slow = WRITER.replace("printf '%s' {{ input }} > note.txt", 'sleep 30');
    const pipeline = (name: string, child: string, config: string) =>
      `kind: WavePipeline\nmetadata: { name: ${name} }\nsteps:\n  - id: sub\n    pipeline: ${child}\n    config: ${config}\n`;
    const project = makeProject({
      'pipelines/failing.yaml': failing.replace('name: writer', 'name: failing'),
      'pipelines/slow.yaml': slow.replace('name: writer', 'name: slow'),
      'pipelines/writer.yaml': WRITER,
      'pipelines/broken.yaml': pipeline('broken', 'failing', '{}'),
      'pipelines/unextracted.yaml': pipeline('unextracted', 'writer', '{ extract: [nothing] }'),
      'pipelines/late.yaml': pipeline('late', 'slow', '{ timeout: 1s }'),
    });
    const broken = await runWave(['run', 'broken', '--output', 'text'], { cwd: project });
    expect(broken.code).toBe(1);
    const failure = (await runsOf(project)).find((r) => r.pipeline === 'broken')!;
    const failed = record(project, failure.id).steps.sub!.failure!;
    expect(failed.class).toBe('non_zero_exit');
    expect(failed.message).toMatch(/^step write of child run failing-\S+: /);

    const unextracted = await runWave(['run', 'unextracted', '--output', 'text'], { cwd: project });
    expect(unextracted.code).toBe(1);
    expect(unextracted.stdout + unextracted.stderr).toContain('produced no artifact `nothing`');

    const started = Date.now();
    const late = await runWave(['run', 'late', '--output', 'text'], { cwd: project });
    expect(late.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(25_000);
    const lateParent = (await runsOf(project)).find((r) => r.pipeline === 'late')!;
    expect(record(project, lateParent.id).steps.sub!.failure).toMatchObject({ class: 'timeout', message: expect.stringContaining('config.timeout') });
  }, 60_000);

  it("branches on a value: its case's child as a branch arm, the default when no case matches (an unset {{ env.x }} included), skip runs nothing", async () => {
    const review = `kind: WavePipeline
metadata: { name: review }
steps:
  - id: route
    branch: { on: "{{ env.profile }}", cases: { core: skip, default: writer } }
    input: "routed {{ input }}"
  - id: after
    dependencies: [route]
    exec: { type: command, source: "echo after" }
`;
    const outer = `kind: WavePipeline\nmetadata: { name: outer }\nsteps:\n  - id: inner\n    pipeline: review\n    config: { env: { profile: core } }\n`;
    const strict = `kind: WavePipeline\nmetadata: { name: strict }\nsteps:\n  - id: route\n    branch: { on: "{{ input }}", cases: { a: writer } }\n`;
    const project = makeProject({ 'pipelines/writer.yaml': WRITER, 'pipelines/review.yaml': review, 'pipelines/outer.yaml': outer, 'pipelines/strict.yaml': strict });
    // Run on its own, `{{ env.profile }}` names nothing: it stays as written and takes the default.
    const alone = await runWave(['run', 'review', '--input', 'x', '--output', 'text'], { cwd: project });
    expect(alone.code, alone.stdout + alone.stderr).toBe(0);
    const listed = await runsOf(project);
    const reviewRun = record(project, listed.find((r) => r.pipeline === 'review')!.id);
    const arm = listed.find((r) => r.pipeline === 'writer')!;
    expect(record(project, arm.id)).toMatchObject({ parentId: reviewRun.id, childKind: 'branch_arm', input: 'routed x' });
    expect(reviewRun.steps.route!.artifacts.map((a) => a.name)).toEqual(['note']);
    // Run as a child with `profile: core`: the case says skip, so nothing runs and the steps after it go on.
    const nested = await runWave(['run', 'outer', '--output', 'text'], { cwd: project });
    expect(nested.code, nested.stdout + nested.stderr).toBe(0);
    const inner = (await runsOf(project)).filter((r) => r.pipeline === 'review').find((r) => r.parentId)!;
    expect(record(project, inner.id).steps.route).toMatchObject({ status: 'completed', artifacts: [] });
    expect(record(project, inner.id).steps.route!.children).toBeUndefined();
    expect(record(project, inner.id).steps.after!.status).toBe('completed');
    // No case and no default: the step fails saying so.
    const unmatched = await runWave(['run', 'strict', '--input', 'b', '--output', 'text'], { cwd: project });
    expect(unmatched.code).toBe(1);
    expect(unmatched.stdout + unmatched.stderr).toContain('branch value "b" has no matching case (a) and no default');
  });

  it('is refused before anything runs when its chain of children comes back to itself, or its child does not exist', async () => {
    const loop = (name: string, child: string) => `kind: WavePipeline\nmetadata: { name: ${name} }\nsteps:\n  - id: go\n    pipeline: ${child}\n`;
    const project = makeProject({ 'pipelines/a.yaml': loop('a', 'b'), 'pipelines/b.yaml': loop('b', 'a'), 'pipelines/lost.yaml': loop('lost', 'nowhere') });
    const cycle = await runWave(['validate', 'pipelines/a.yaml'], { cwd: project });
    expect(cycle.code).toBe(2);
    expect(cycle.stdout + cycle.stderr).toContain('a → b → a');
    expect(cycle.stdout + cycle.stderr).toContain('pipeline_cycle');
    const lost = await runWave(['run', 'lost'], { cwd: project });
    expect(lost.code).toBe(2);
    expect(lost.stdout + lost.stderr).toContain('runs the child pipeline `nowhere`, which is neither a file nor a name');
    expect(existsSync(join(project, '.wave', 'runs'))).toBe(false);
  });

  it('resumes its unfinished child after a kill -9 of the parent: the finished child and steps are not run again', async () => {
    const sleep = marker();
    // Each step appends its name to a log in the project (its workspace is .wave/workspaces/<run>/<step>): a step run twice shows twice.
    const logged = (name: string, then = '') => `echo ${name} >> ../../../../steps.log${then}`;
    const first = `kind: WavePipeline\nmetadata: { name: first }\nsteps:\n  - id: one\n    exec: { type: command, source: "${logged('first-one')}" }\n`;
    const second = `kind: WavePipeline
metadata: { name: second }
steps:
  - id: before
    exec: { type: command, source: "${logged('second-before')}" }
  - id: wait
    dependencies: [before]
    exec: { type: command, source: "${logged('second-wait', '; test -e ../../../../go || sleep $STEP_SLEEP')}" }
`;
    const parent = `kind: WavePipeline\nmetadata: { name: parent }\nsteps:\n  - id: a\n    pipeline: first\n  - id: b\n    pipeline: second\n    dependencies: [a]\n`;
    const manifest = `kind: WaveManifest\nmetadata: { name: t }\nruntime:\n  timeouts: { process_grace_seconds: 1 }\n  sandbox: { env_passthrough: [STEP_SLEEP] }\n`;
    const project = makeProject({ 'wave.yaml': manifest, 'pipelines/first.yaml': first, 'pipelines/second.yaml': second, 'pipelines/parent.yaml': parent });
    const log = () => (existsSync(join(project, 'steps.log')) ? readFileSync(join(project, 'steps.log'), 'utf8') : '');
    const wave = startWave(['run', 'parent', '--output', 'text'], { cwd: project, env: { STEP_SLEEP: sleep } });
    await waitFor(() => log().includes('second-wait'), 'the second child to reach its waiting step', 60_000);
    wave.kill('SIGKILL');
    await wave;
    const listed = await runsOf(project);
    const parentRun = listed.find((r) => r.pipeline === 'parent')!;
    const secondRun = listed.find((r) => r.pipeline === 'second')!;

    // Resumed: the waiting step finds its way through, the second child is finished under its own id.
    writeFileSync(join(project, 'go'), '');
    const resumed = await runWave(['resume', parentRun.id, '--output', 'text'], { cwd: project, env: { STEP_SLEEP: '0.1' } });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(record(project, parentRun.id).status).toBe('completed');
    expect(record(project, parentRun.id).steps.b!.children).toEqual([{ runId: secondRun.id, pipeline: 'second', status: 'completed' }]);
    expect(log()).toBe('first-one\nsecond-before\nsecond-wait\nsecond-wait\n');
    expect((await runsOf(project)).filter((r) => r.pipeline === 'second')).toHaveLength(1);
  }, 120_000);

  it('is cancelled with its child on Ctrl-C', async () => {
    const sleep = marker();
    const slow = `kind: WavePipeline\nmetadata: { name: slow }\nsteps:\n  - id: wait\n    exec: { type: command, source: "echo waiting; sleep ${sleep}" }\n`;
    const parent = `kind: WavePipeline\nmetadata: { name: parent }\nsteps:\n  - id: sub\n    pipeline: slow\n`;
    const project = makeProject({ 'pipelines/slow.yaml': slow, 'pipelines/parent.yaml': parent });
    const wave = startWave(['run', 'parent', '--output', 'text'], { cwd: project });
    await waitFor(() => recordsNow(project).some((r) => r.pipeline === 'slow' && r.steps.wait?.status === 'running'), 'the child to run', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    wave.kill('SIGINT');
    const ended = await wave;
    expect(ended.exitCode).toBe(130);
    const listed = await runsOf(project);
    expect(listed.map((r) => [r.pipeline, r.status]).sort()).toEqual([
      ['parent', 'cancelled'],
      ['slow', 'cancelled'],
    ]);
  }, 60_000);
});
