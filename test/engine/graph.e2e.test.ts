import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/events.js';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave, startWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { runDirs } from '../support/runs.js';
import { waitFor } from '../support/wait.js';

// Graph routing (Wave's `edges`, `type: conditional`, `max_visits`, `max_step_visits`), run by the CLI as a user runs it,
// with command steps. The input is the path of a counter file the test step counts its runs in.

/** Counts its runs in the file the input names, prints the count, and passes from the `passAt`-th run on. */
const countingTest = (passAt: number) => `n=$(cat "{{ input }}" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "{{ input }}"; echo "run $n"; test $n -ge ${passAt}`;

/** Wave's fix loop (wave-test-hardening's shape): fix, test, a conditional step back to fix until the tests pass. */
const fixLoop = (test: string, extra = { fix: '', pipeline: '' }) => `kind: WavePipeline
metadata: { name: fixloop }
${extra.pipeline}steps:
  - id: fix
${extra.fix}    exec: { type: command, source: "echo fixing" }
  - id: test
    type: command
    dependencies: [fix]
    script: ${JSON.stringify(test)}
  - id: check
    type: conditional
    dependencies: [test]
    edges:
      - target: done
        condition: outcome=success
      - target: fix
  - id: done
    dependencies: [check]
    exec: { type: command, source: "echo done" }
`;

/** The tests first, then (on a failure) the fix, which routes back to the tests: the fix step runs only when a route enters it. */
const testFirstLoop = (passAt: number, fix: string) => `kind: WavePipeline
metadata: { name: fixloop }
steps:
  - id: test
    type: command
    script: ${JSON.stringify(countingTest(passAt))}
  - id: check
    type: conditional
    dependencies: [test]
    edges:
      - { target: done, condition: outcome=success }
      - { target: fix }
  - id: fix
    dependencies: [check]
    exec: { type: command, source: ${JSON.stringify(fix)} }
    edges: [{ target: test }]
  - id: done
    dependencies: [check]
    exec: { type: command, source: "echo done" }
`;

function record(project: string): RunRecord {
  return JSON.parse(readFileSync(join(runDirs(project)[0]!, 'run.json'), 'utf8')) as RunRecord;
}

function events(project: string): RunEvent[] {
  return readFileSync(join(runDirs(project)[0]!, 'events.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RunEvent);
}

function routes(project: string) {
  return events(project).flatMap((e) => (e.type === 'step_routed' ? [{ from: e.stepId, to: e.target, outcome: e.outcome, requeued: e.requeued }] : []));
}

async function run(pipeline: string) {
  const project = makeProject({ 'pipelines/fixloop.yaml': pipeline });
  const result = await runWave(['run', 'fixloop', '--input', join(project, 'count'), '--output', 'text'], { cwd: project });
  return { project, result };
}

describe('graph routing', () => {
  it('loops a failing test back to the fix until it passes on the third run: the failure routes through the conditional step', async () => {
    const { project, result } = await run(fixLoop(countingTest(3)));
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const steps = record(project).steps;
    expect([steps.fix!.visits, steps.test!.visits, steps.check!.visits, steps.done!.visits]).toEqual([3, 3, 3, 1]);
    expect(steps.fix!.attempts.map((a) => a.visit)).toEqual([1, 2, 3]);
    expect(Object.values(steps).map((s) => s.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(routes(project)).toEqual([
      { from: 'check', to: 'fix', outcome: 'failure', requeued: ['fix', 'test', 'check'] },
      { from: 'check', to: 'fix', outcome: 'failure', requeued: ['fix', 'test', 'check'] },
      { from: 'check', to: 'done', outcome: 'success', requeued: [] },
    ]);
    expect(result.stdout).toContain('check → fix, outcome failure; again: fix, test, check');
    const status = await runWave(['status', record(project).id], { cwd: project });
    expect(status.stdout).toMatch(/fix +completed .*visited 3×/);
  });

  it('a fix step only a route enters keeps its last visit when the walk goes on elsewhere (test first, then fix)', async () => {
    const { project, result } = await run(testFirstLoop(3, 'echo fixing'));
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const steps = record(project).steps;
    expect(Object.entries(steps).map(([id, s]) => [id, s.status, s.visits])).toEqual([
      ['test', 'completed', 3],
      ['check', 'completed', 3],
      ['fix', 'completed', 2],
      ['done', 'completed', 1],
    ]);
    expect(routes(project).map((r) => `${r.from} → ${r.to}: ${r.requeued.join(', ')}`)).toEqual([
      'check → fix: ',
      'fix → test: test, check',
      'check → fix: fix',
      'fix → test: test, check',
      'check → done: ',
    ]);
    const status = await runWave(['status', record(project).id], { cwd: project });
    expect(status.stdout).toMatch(/fix +completed .*visited 2×/);
    expect(status.stdout).not.toContain('skipped');
  });

  it('stops at the visit limit: max_visits of a step, max_step_visits of the run (route_stopped, exit 1)', async () => {
    const limited = await run(fixLoop(countingTest(99), { fix: '    max_visits: 2\n', pipeline: '' }));
    expect(limited.result.code).toBe(1);
    const fix = record(limited.project).steps.fix!;
    expect(fix.visits).toBe(2);
    expect(fix.failure).toMatchObject({ class: 'route_stopped', message: 'step `fix` reached its limit of 2 visits (max_visits)' });
    expect(limited.result.stdout).toContain('route_stopped: step `fix` reached its limit of 2 visits (max_visits)');

    const total = await run(fixLoop(countingTest(99), { fix: '', pipeline: 'max_step_visits: 4\n' }));
    expect(total.result.code).toBe(1);
    expect(record(total.project).steps.test!.failure).toMatchObject({
      class: 'route_stopped',
      message: 'the run reached its limit of 4 step visits (max_step_visits) before step `test`',
    });
  });

  it('stops a loop whose step fails the same way three times in a row (the circuit breaker)', async () => {
    const { project, result } = await run(fixLoop('echo "same error"; exit 1'));
    expect(result.code).toBe(1);
    const test = record(project).steps.test!;
    expect(test.visits).toBe(3);
    expect(test.failure!.class).toBe('route_stopped');
    expect(test.failure!.message).toContain('step `test` failed the same way 3 times in a row');
  });

  it('routes on the context a command step publishes: its exit code and the key=value lines of a `type: context` artifact', async () => {
    const project = makeProject({
      'pipelines/fixloop.yaml': `kind: WavePipeline
metadata: { name: fixloop }
steps:
  - id: probe
    exec: { type: command, source: "printf 'verdict=amber\\n# a comment\\n' > ctx.env; exit 3" }
    output_artifacts: [{ name: ctx, path: ctx.env, type: context }]
    edges:
      - { target: red, condition: "context.verdict=red" }
      - { target: amber, condition: "context.verdict=amber" }
      - { target: other }
  - id: red
    exec: { type: command, source: "echo red" }
  - id: amber
    type: conditional
    edges:
      - { target: three, condition: "context.exit_code=3" }
      - { target: _complete }
  - id: three
    exec: { type: command, source: "echo three" }
  - id: other
    exec: { type: command, source: "echo other" }
`,
    });
    const result = await runWave(['run', 'fixloop', '--output', 'text'], { cwd: project });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const steps = record(project).steps;
    expect(Object.fromEntries(Object.values(steps).map((s) => [s.id, s.status]))).toEqual({
      probe: 'failed',
      red: 'skipped',
      amber: 'completed',
      three: 'completed',
      other: 'skipped',
    });
    expect(steps.red!.skipReason).toBe('no edge led here');
    expect(routes(project).map((r) => [r.from, r.to, r.outcome])).toEqual([
      ['probe', 'amber', 'failure'],
      ['amber', 'three', 'failure'],
    ]);
  });

  it('goes on with the walk and its visit counts after a kill -9 and `wave resume`', async () => {
    // The second visit of `fix` hangs once (until killed); the test passes from its second run on.
    const hang = `if [ -e "{{ input }}" ] && [ ! -e "{{ input }}.hung" ]; then touch "{{ input }}.hung"; sleep 60; fi; echo fixing`;
    const pipeline = fixLoop(countingTest(2)).replace('exec: { type: command, source: "echo fixing" }', `exec: { type: command, source: ${JSON.stringify(hang)} }`);
    const project = makeProject({ 'pipelines/fixloop.yaml': pipeline });
    const wave = startWave(['run', 'fixloop', '--input', join(project, 'count'), '--output', 'quiet'], { cwd: project });
    await waitFor(
      () => runDirs(project).length === 1 && events(project).some((e) => e.type === 'attempt_spawned' && e.stepId === 'fix' && e.attempt === 2),
      'the second visit of fix',
    );
    wave.kill('SIGKILL');
    await wave;
    const id = record(project).id;
    const resumed = await runWave(['resume', id, '--output', 'text'], { cwd: project });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const steps = record(project).steps;
    expect([steps.fix!.visits, steps.test!.visits, steps.check!.visits, steps.done!.visits]).toEqual([2, 2, 2, 1]);
    // The interrupted attempt and the one that finished its visit both belong to visit 2.
    expect(steps.fix!.attempts.map((a) => [a.attempt, a.visit, a.interrupted ?? false])).toEqual([
      [1, 1, false],
      [2, 2, true],
      [3, 2, false],
    ]);
    expect(steps.done!.status).toBe('completed');
  });

  it('a resume goes on with the fix a failed test was routed to, without running the test again first', async () => {
    // The fix hangs once (until killed); the test passes from its second run on.
    const hang = `if [ ! -e "{{ input }}.hung" ]; then touch "{{ input }}.hung"; sleep 60; fi; echo fixing`;
    const project = makeProject({ 'pipelines/fixloop.yaml': testFirstLoop(2, hang) });
    const wave = startWave(['run', 'fixloop', '--input', join(project, 'count'), '--output', 'quiet'], { cwd: project });
    await waitFor(() => runDirs(project).length === 1 && events(project).some((e) => e.type === 'attempt_spawned' && e.stepId === 'fix'), 'the fix');
    wave.kill('SIGKILL');
    await wave;
    const resumed = await runWave(['resume', record(project).id, '--output', 'text'], { cwd: project });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const steps = record(project).steps;
    expect(Object.entries(steps).map(([id, s]) => [id, s.status, s.visits])).toEqual([
      ['test', 'completed', 2],
      ['check', 'completed', 2],
      ['fix', 'completed', 1],
      ['done', 'completed', 1],
    ]);
    expect(readFileSync(join(project, 'count'), 'utf8').trim()).toBe('2');
  });
});
