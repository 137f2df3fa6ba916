import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/events.js';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave, startWave } from '../support/cli.js';
import { gatedPipeline, shipOrAbort } from '../support/gate-pipeline.js';
import { makeProject } from '../support/project.js';
import { runDirs } from '../support/runs.js';
import { waitFor } from '../support/wait.js';

// Gate steps (Wave's `gate:`), run by the CLI as a user runs them: no TTY, so an approval gate waits for `wave approve`.

const CHOICES = shipOrAbort('{ key: back, label: Again, target: prep }');

function runRecord(project: string): RunRecord {
  const [dir] = runDirs(project);
  return JSON.parse(readFileSync(join(dir!, 'run.json'), 'utf8')) as RunRecord;
}

function events(project: string): RunEvent[] {
  const [dir] = runDirs(project);
  return readFileSync(join(dir!, 'events.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RunEvent);
}

/** Starts `wave run gated` and waits until its gate waits; returns the process and the run id. */
async function untilWaiting(project: string, extra: string[] = []) {
  const wave = startWave(['run', 'gated', '--output', 'text', ...extra], { cwd: project });
  const id = await waitFor(() => runDirs(project).length === 1 && events(project).some((e) => e.type === 'gate_waiting') && runRecord(project).id, 'the gate to wait');
  return { wave, id };
}

describe('a gate step', () => {
  it('waits with no terminal until `wave approve` from another shell; the choice and text are recorded and the run goes on', async () => {
    const project = makeProject({ 'pipelines/gated.yaml': gatedPipeline(CHOICES) });
    const { wave, id } = await untilWaiting(project);
    const status = await runWave(['status', id], { cwd: project });
    expect(status.stdout).toContain(
      `waiting for approval: Ship it? [y* Ship → ship; n Abort → _fail; back Again → prep] — wave approve ${id} approve --choice KEY | wave reject ${id} approve`,
    );
    const wrong = await runWave(['approve', id, 'approve', '--choice', 'maybe'], { cwd: project });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('`maybe` is not a choice of the gate of step `approve`');
    const approved = await runWave(['approve', id, 'approve', '--choice', 'y', '--text', 'fine by me'], { cwd: project });
    expect(approved.stdout).toBe(`gate approve of run ${id} approved with \`y\``);
    const done = await wave;
    expect(done.exitCode, String(done.stdout)).toBe(0);
    expect(String(done.stdout)).toContain('approve gate resolved by a person y "Ship" → ship: fine by me');
    const record = runRecord(project);
    expect(record.steps.approve!.gate).toMatchObject({ status: 'resolved', decision: { by: 'person', key: 'y', label: 'Ship', text: 'fine by me', target: 'ship' } });
    expect(readFileSync(join(runDirs(project)[0]!, 'steps', 'ship', 'attempt-1', 'stdout'), 'utf8')).toBe('shipped y\n');
    // The answer is taken: it would not answer the gate a second time.
    expect(existsSync(join(runDirs(project)[0]!, 'gates', 'approve.json'))).toBe(false);
    const again = await runWave(['approve', id, 'approve'], { cwd: project });
    expect(again.stderr).toContain('is already resolved');
  });

  it('takes an answer given while the run was down: kill -9 while waiting, approve, then `wave resume`', async () => {
    const project = makeProject({ 'pipelines/gated.yaml': gatedPipeline(CHOICES.replace('freeform: true', 'freeform: false')) });
    const { wave, id } = await untilWaiting(project);
    wave.kill('SIGKILL');
    await wave;
    const worded = await runWave(['approve', id, 'approve', '--text', 'words'], { cwd: project });
    expect(worded.stderr).toContain('invalid_argument: the gate of step `approve` takes no text');
    const approved = await runWave(['approve', id, 'approve'], { cwd: project });
    expect(approved.stdout).toContain(`the run is not running: \`wave resume ${id}\` goes on with this answer`);
    const resumed = await runWave(['resume', id, '--output', 'text'], { cwd: project });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(runRecord(project).steps.approve!.gate!.decision).toMatchObject({ by: 'person', key: 'y' });
    expect(runRecord(project).steps.prep!.attempts).toHaveLength(1);
  });

  it('rejected, or answered with a `_fail` choice, fails the run (gate_rejected)', async () => {
    for (const [verb, args, message] of [
      ['reject', ['--text', 'not today'], 'gate `approve` was answered "Abort", which fails the run'],
      ['approve', ['--choice', 'n'], 'gate `approve` was answered "Abort", which fails the run'],
    ] as const) {
      const project = makeProject({ 'pipelines/gated.yaml': gatedPipeline(CHOICES) });
      const { wave, id } = await untilWaiting(project);
      await runWave([verb, id, 'approve', ...args], { cwd: project });
      const done = await wave;
      expect(done.exitCode).toBe(1);
      expect(runRecord(project).steps.approve!.failure!.message).toContain(message);
      expect(runRecord(project).steps.ship!.status).not.toBe('completed');
    }
  });

  it('runs the target of a choice going back again, with the steps after it, and the gate waits again', async () => {
    const project = makeProject({ 'pipelines/gated.yaml': gatedPipeline(CHOICES) });
    const { wave, id } = await untilWaiting(project);
    await runWave(['approve', id, 'approve', '--choice', 'back'], { cwd: project });
    // The gate is requeued with its target: it waits for a second answer.
    await waitFor(() => events(project).filter((e) => e.type === 'gate_waiting').length === 2, 'the gate to wait again');
    await runWave(['approve', id, 'approve', '--choice', 'y'], { cwd: project });
    const done = await wave;
    expect(done.exitCode, String(done.stdout)).toBe(0);
    const steps = runRecord(project).steps;
    expect([steps.prep!.visits, steps.approve!.visits, steps.ship!.visits]).toEqual([2, 2, 1]);
    expect(steps.prep!.attempts.map((a) => a.visit)).toEqual([1, 2]);
    expect(events(project).find((e) => e.type === 'step_routed')).toMatchObject({ stepId: 'approve', target: 'prep', requeued: ['prep', 'approve'] });
    expect(String(done.stdout)).toContain('approve → prep, outcome success; again: prep, approve');
  });

  it('stops a choice that keeps going back at the visit limit of its target (route_stopped)', async () => {
    const looping = gatedPipeline(CHOICES.replace('      default: y', '      default: back\n      auto: true')).replace(
      '    exec: { type: command, source: "echo prepared" }',
      '    max_visits: 3\n    exec: { type: command, source: "echo prepared" }',
    );
    const project = makeProject({ 'pipelines/gated.yaml': looping });
    const result = await runWave(['run', 'gated'], { cwd: project });
    expect(result.code).toBe(1);
    const prep = runRecord(project).steps.prep!;
    expect(prep.visits).toBe(3);
    expect(prep.failure).toMatchObject({ class: 'route_stopped', message: 'step `prep` reached its limit of 3 visits (max_visits)' });
    expect(runRecord(project).steps.ship!.status).not.toBe('completed');
  });

  it('resolves at once with `auto` (the default, else the first choice) or `--auto-approve` (the default); times out to the default', async () => {
    const auto = makeProject({
      'pipelines/gated.yaml': gatedPipeline(CHOICES.replace('      default: y', '      auto: true').replace('{ key: y', '{ key: z').replace('{ key: n', '{ key: y')),
    });
    const autoRun = await runWave(['run', 'gated'], { cwd: auto });
    expect(autoRun.code).toBe(0);
    expect(runRecord(auto).steps.approve!.gate!.decision).toMatchObject({ by: 'auto', key: 'z' });

    const flagged = makeProject({ 'pipelines/gated.yaml': gatedPipeline(CHOICES) });
    expect((await runWave(['run', 'gated', '--auto-approve'], { cwd: flagged })).code).toBe(0);
    expect(runRecord(flagged).steps.approve!.gate!.decision).toMatchObject({ by: 'auto_approve', key: 'y' });
    expect(runRecord(flagged).options.autoApprove).toBe(true);

    // A compiled workflow's gate job: the default choice, approved by the reviewers of the Environment that let it run.
    const environment = makeProject({ 'pipelines/gated.yaml': gatedPipeline(CHOICES) });
    const approved = await runWave(['run', 'gated', '--approved-in', 'prod \u001b[31m', '--output', 'text'], { cwd: environment });
    expect(approved.code, approved.stderr).toBe(0);
    expect(runRecord(environment).steps.approve!.gate!.decision).toMatchObject({ by: 'environment', environment: 'prod \u001b[31m', key: 'y' });
    const said = (await runWave(['status', runRecord(environment).id], { cwd: environment })).stdout;
    expect(said).toContain('gate resolved by the reviewers of the GitHub Environment prod \\x1b[31m y "Ship"');

    const noDefault = makeProject({ 'pipelines/gated.yaml': gatedPipeline(CHOICES.replace('      default: y\n', '').replace(/default: y$/, '')) });
    const refused = await runWave(['run', 'gated', '--auto-approve'], { cwd: noDefault });
    expect(refused.code).toBe(1);
    expect(runRecord(noDefault).steps.approve!.failure).toMatchObject({
      class: 'gate_rejected',
      message: "--auto-approve takes a gate's default choice, and gate `approve` has none",
    });

    const timed = makeProject({ 'pipelines/gated.yaml': gatedPipeline(`${CHOICES}\n      timeout: 1s`) });
    expect((await runWave(['run', 'gated'], { cwd: timed })).code).toBe(0);
    expect(runRecord(timed).steps.approve!.gate!.decision).toMatchObject({ by: 'timeout', key: 'y' });
    const plain = makeProject({ 'pipelines/gated.yaml': gatedPipeline('      type: approval\n      timeout: 500ms') });
    expect((await runWave(['run', 'gated'], { cwd: plain })).code).toBe(1);
    expect(runRecord(plain).steps.approve!.failure).toMatchObject({ class: 'timeout', message: 'no one resolved gate `approve` within 0.5 s, and it has no default choice' });
  });

  it('a timer gate waits its time, and Ctrl-C stops the wait at once', async () => {
    const short = makeProject({ 'pipelines/gated.yaml': gatedPipeline('      type: timer\n      timeout: 300ms\n      message: cooling down') });
    const run = await runWave(['run', 'gated', '--output', 'text'], { cwd: short });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('approve waiting 0.3s (timer gate): cooling down');
    expect(runRecord(short).steps.approve!.gate!.decision).toMatchObject({ by: 'timer' });

    const long = makeProject({ 'pipelines/gated.yaml': gatedPipeline('      type: timer\n      timeout: 1h\n      prompt: Hold on') });
    const { wave } = await untilWaiting(long);
    const stoppedAt = Date.now();
    wave.kill('SIGINT');
    const done = await wave;
    expect(done.exitCode).toBe(130);
    // With no message, the gate says its prompt.
    expect(String(done.stdout)).toContain('approve waiting 1h00m (timer gate): Hold on');
    expect(Date.now() - stoppedAt).toBeLessThan(20_000);
    expect(runRecord(long).steps.approve!.status).toBe('cancelled');
  });

  it('`wave validate` checks the choices, the default, the targets, a timer’s timeout, a pr_merge’s pull request and keys another type of gate reads', async () => {
    const bad = gatedPipeline(`      type: approval
      choices:
        - { key: y, label: Yes, target: shipp }
        - { key: y, label: Also yes }
      default: x`).replace('  - id: ship', '  - id: wait\n    dependencies: [prep]\n    gate: { type: timer }\n  - id: ship');
    const project = makeProject({ 'pipelines/gated.yaml': bad, 'pipelines/poll.yaml': gatedPipeline('      type: pr_merge\n      freeform: true\n      branch: main') });
    const checked = await runWave(['validate', 'pipelines/gated.yaml'], { cwd: project });
    expect(checked.code).toBe(2);
    const text = checked.stdout + checked.stderr;
    expect(text).toContain('unknown_dependency: step `approve`: the choice `y` goes to `shipp`, which is not a step of this pipeline');
    expect(text).toContain('Did you mean `ship`?');
    expect(text).toContain('wrong_type: step `approve`: the gate has two choices with the key `y`');
    expect(text).toContain("wrong_type: step `approve`: the gate's default `x` is not the key of one of its choices");
    expect(text).toContain('missing_field: step `wait`: a timer gate needs `timeout`, how long it waits');
    const compiled = await runWave(['compile', 'gated'], { cwd: makeProject({ 'pipelines/gated.yaml': gatedPipeline(CHOICES) }) });
    expect(compiled.stderr).toContain('not_supported: step `approve` is an approval gate whose choice `y` goes to `ship`, which `wave compile` cannot turn into a job');
    const poll = await runWave(['validate', 'pipelines/poll.yaml'], { cwd: project });
    const said = poll.stdout + poll.stderr;
    expect(said).toContain('missing_field: step `approve`: a pr_merge gate needs `pr_number`, the pull request it waits for');
    expect(said).toContain('conflicting_fields: step `approve`: a pr_merge gate does nothing with `freeform`');
    expect(said).toContain('hint: Remove `freeform`: only approval gates read it.');
    expect(said).toContain('conflicting_fields: step `approve`: a pr_merge gate does nothing with `branch`');
  });
});
