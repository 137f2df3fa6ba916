import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave, startWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { marker } from '../support/sandbox.js';
import { waitFor } from '../support/wait.js';

// Loop steps (Wave's `loop`), run by `wave run` as a user runs them: command sub-steps, no agent.

/** Each step appends a line to steps.log in the project (its workspace is .wave/workspaces/<run>/<step>): a step run twice shows twice. */
const logged = (line: string) => `echo ${line} >> ../../../../steps.log`;

/** A loop whose `check` sub-step says done from iteration 2 (the third) on; its sub-steps read prep's list; `after` reads the last iteration's verdict. */
const UNTIL = `kind: WavePipeline
metadata: { name: fix }
steps:
  - id: prep
    exec: { type: command, source: "printf '[\\"a\\", \\"b\\"]' > list.json" }
    output_artifacts: [{ name: list, path: list.json }]
  - id: fixloop
    dependencies: [prep]
    loop:
      max_iterations: 5
      until: "{{ check.out.verdict.done }}"
      steps:
        - id: work
          memory:
            inject_artifacts: [{ pipeline: fix, artifact: list, as: list }]
          exec: { type: command, source: "${logged('work-{{ iteration }}')}; echo working on {{ iteration }}; cat {{ artifacts.list }}" }
        - id: each
          dependencies: [work]
          pipeline: echo-item
          input: "{{ item }}"
          iterate: { over: "{{ prep.out.list }}" }
        - id: check
          dependencies: [each]
          exec: { type: command, source: "if [ {{ iteration }} -ge 2 ]; then d=yes; else d=no; fi; printf '{\\"done\\": \\"%s\\", \\"at\\": {{ iteration }}}' $d > v.json" }
          output_artifacts: [{ name: verdict, path: v.json }]
  - id: after
    dependencies: [fixloop]
    memory:
      inject_artifacts: [{ step: fixloop, artifact: verdict, as: v }]
    exec: { type: command, source: "cat {{ artifacts.v }}" }
`;

const ECHO_ITEM = `kind: WavePipeline
metadata: { name: echo-item }
steps:
  - id: say
    exec: { type: command, source: "${logged('item-{{ input }}')}" }
`;

/** A pipeline whose loop step `again` runs the command sub-steps given as [id, dependencies, command], then the steps in `after`. */
function loopPipeline(name: string, loop: { max: number; until?: string }, subSteps: [string, string[], string][], after = ''): string {
  const until = loop.until !== undefined ? `      until: ${JSON.stringify(loop.until)}\n` : '';
  const steps = subSteps.map(
    ([id, dependencies, command]) =>
      `        - id: ${id}\n          dependencies: [${dependencies.join(', ')}]\n          exec: { type: command, source: ${JSON.stringify(command)} }\n`,
  );
  return `kind: WavePipeline\nmetadata: { name: ${name} }\nsteps:\n  - id: again\n    loop:\n      max_iterations: ${loop.max}\n${until}      steps:\n${steps.join('')}${after}`;
}

function record(project: string, id: string): RunRecord {
  return JSON.parse(readFileSync(join(project, '.wave', 'runs', id, 'run.json'), 'utf8')) as RunRecord;
}

/** The project's runs as `wave runs --json` lists them. */
async function runsOf(project: string): Promise<Array<{ id: string; pipeline: string; status: string; parentId?: string }>> {
  const listed = await runWave(['runs', '--json'], { cwd: project });
  return JSON.parse(listed.stdout) as Array<{ id: string; pipeline: string; status: string; parentId?: string }>;
}

function logOf(project: string): string {
  return existsSync(join(project, 'steps.log')) ? readFileSync(join(project, 'steps.log'), 'utf8') : '';
}

describe('a loop step', () => {
  it('runs its sub-steps as a graph once per iteration, each a child run, until `until` reads a sub-step output as true', async () => {
    const project = makeProject({ 'pipelines/fix.yaml': UNTIL, 'pipelines/echo-item.yaml': ECHO_ITEM });
    const run = await runWave(['run', 'fix', '--output', 'text'], { cwd: project });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    // Three iterations, each its sub-steps in order, the iterate over the list an earlier step of the parent made.
    const iteration = (n: number) => `work-${n}\nitem-a\nitem-b\n`;
    expect(logOf(project).replace(/item-b\nitem-a/g, 'item-a\nitem-b')).toBe(iteration(0) + iteration(1) + iteration(2));
    const listed = await runsOf(project);
    const parent = listed.find((r) => r.pipeline === 'fix')!;
    const iterations = listed.filter((r) => r.pipeline === 'fix.fixloop');
    expect(iterations).toHaveLength(3);
    const parentRecord = record(project, parent.id);
    expect(parentRecord.steps.fixloop).toMatchObject({ status: 'completed', loop: { iteration: 3, of: 5, ended: 'until' } });
    expect(parentRecord.steps.fixloop!.children!.map((c) => c.status)).toEqual(['completed', 'completed', 'completed']);
    const third = record(project, parentRecord.steps.fixloop!.children![2]!.runId);
    expect(third).toMatchObject({ parentId: parent.id, parentStepId: 'fixloop', childKind: 'loop_iteration', status: 'completed' });
    // The last iteration's artifacts are the loop's.
    expect(readFileSync(join(project, '.wave', 'runs', parent.id, 'steps', 'after', 'attempt-1', 'stdout'), 'utf8')).toBe('{"done": "yes", "at": 2}');
    const text = run.stdout + run.stderr;
    expect(text).toContain('fixloop iteration 3/5');
    expect(text).toContain('fixloop loop ended after 3 iterations: until was met');
    const status = await runWave(['status', parent.id], { cwd: project });
    expect(status.stdout).toContain('↻ loop ended after 3 iterations: until was met');
    // An iteration's sub-steps are a run of their own: its status and logs are there.
    const childStatus = await runWave(['status', third.id], { cwd: project });
    expect(childStatus.stdout).toMatch(/✓ check\s+completed/);
    const logs = await runWave(['logs', third.id, '--step', 'work'], { cwd: project });
    expect(logs.code, logs.stderr).toBe(0);
    // An agent or command sub-step reaches the artifacts of the steps before the loop as its pipeline's.
    expect(logs.stdout).toContain('working on 2\n["a", "b"]');
  }, 120_000);

  it('runs sub-steps of every kind: an agent, a command, a child pipeline, an iterate, an aggregate, a branch and a gate', async () => {
    const project = makeProject({
      'pipelines/echo-item.yaml': ECHO_ITEM,
      'pipelines/kinds.yaml': `kind: WavePipeline
metadata: { name: kinds }
steps:
  - id: again
    loop:
      max_iterations: 2
      steps:
        - id: ask
          persona: shell
          exec: { source: "${logged('agent-{{ iteration }}')}" }
        - id: one
          dependencies: [ask]
          pipeline: echo-item
          input: "one-{{ iteration }}"
        - id: each
          dependencies: [one]
          pipeline: echo-item
          input: "{{ item }}"
          iterate: { over: '["x", "y"]' }
        - id: merged
          dependencies: [each]
          aggregate: { from: '[["m"], ["n"]]', into: merged.json, strategy: merge_arrays }
        - id: pick
          dependencies: [merged]
          branch: { on: "{{ iteration }}", cases: { "0": skip, default: echo-item } }
          input: "branch-{{ iteration }}"
        - id: approve
          dependencies: [pick]
          gate: { type: approval, auto: true, message: Go on?, choices: [{ key: y, label: Yes }], default: y }
        - id: last
          dependencies: [approve]
          memory: { inject_artifacts: [{ step: merged, artifact: merged }] }
          exec: { type: command, source: "cat {{ artifacts.merged }} >> ../../../../steps.log; echo >> ../../../../steps.log" }
`,
    });
    const run = await runWave(['run', 'kinds', '--output', 'text'], { cwd: project });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const iterations = logOf(project)
      .replace(/item-y\nitem-x/g, 'item-x\nitem-y')
      .split(/(?=agent-)/);
    expect(iterations).toEqual(['agent-0\nitem-one-0\nitem-x\nitem-y\n["m","n"]\n', 'agent-1\nitem-one-1\nitem-x\nitem-y\nitem-branch-1\n["m","n"]\n']);
  }, 120_000);

  it('nests: a loop sub-step loops within each iteration, its `{{ iteration }}` its own', async () => {
    const inner = `        - id: inner\n          dependencies: [tick]\n          loop:\n            max_iterations: 3\n            until: "{{ tock.output }}"\n            steps:\n              - id: tock\n                exec: { type: command, source: "${logged('tock-{{ iteration }}')}; test {{ iteration }} -ge 1 && echo yes || echo no" }\n`;
    const project = makeProject({ 'pipelines/nest.yaml': loopPipeline('nest', { max: 2 }, [['tick', [], logged('tick-{{ iteration }}')]]) + inner });
    const run = await runWave(['run', 'nest', '--output', 'text'], { cwd: project });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(logOf(project)).toBe('tick-0\ntock-0\ntock-1\ntick-1\ntock-0\ntock-1\n');
    const outer = (await runsOf(project)).filter((r) => r.pipeline === 'nest.again');
    expect(outer).toHaveLength(2);
    for (const iteration of outer) expect(record(project, iteration.id).steps.inner).toMatchObject({ status: 'completed', loop: { iteration: 2, of: 3, ended: 'until' } });
  }, 120_000);

  it('completes after max_iterations, as Wave does, whether it has no `until` or one never met', async () => {
    for (const until of [undefined, '{{ tick.output }}']) {
      const project = makeProject({ 'pipelines/count.yaml': loopPipeline('count', { max: 3, until }, [['tick', [], logged('tick-{{ iteration }}')]]) });
      const run = await runWave(['run', 'count', '--output', 'text'], { cwd: project });
      expect(run.code, run.stderr + run.stdout).toBe(0);
      expect(logOf(project)).toBe('tick-0\ntick-1\ntick-2\n');
      expect(run.stdout + run.stderr).toContain('again loop ended after 3 iterations: max_iterations reached');
      const parent = (await runsOf(project)).find((r) => r.pipeline === 'count')!;
      expect(record(project, parent.id).steps.again).toMatchObject({ status: 'completed', loop: { iteration: 3, of: 3, ended: 'max_iterations' } });
    }
  }, 120_000);

  it('fails when a sub-step fails: no further iteration runs, nor the steps after the loop', async () => {
    const project = makeProject({
      'pipelines/broken.yaml': loopPipeline(
        'broken',
        { max: 4 },
        [['tick', [], `${logged('tick-{{ iteration }}')}; test {{ iteration }} -lt 1 || { echo boom >&2; exit 3; }`]],
        `  - id: after\n    dependencies: [again]\n    exec: { type: command, source: "${logged('after')}" }\n`,
      ),
    });
    const run = await runWave(['run', 'broken', '--output', 'text'], { cwd: project });
    expect(run.code).toBe(1);
    expect(logOf(project)).toBe('tick-0\ntick-1\n');
    const parent = (await runsOf(project)).find((r) => r.pipeline === 'broken')!;
    const step = record(project, parent.id).steps.again!;
    expect(step.status).toBe('failed');
    expect(step.failure).toMatchObject({ class: 'non_zero_exit' });
    expect(step.failure!.message).toContain('loop iteration 2 of 4: step tick of child run');
    expect(step.loop).toEqual({ iteration: 2, of: 4 });
    expect(record(project, parent.id).steps.after!.status).toBe('pending');
  }, 120_000);

  it('continues from the iteration a kill -9 stopped: finished iterations and sub-steps are not run again', async () => {
    const sleep = marker();
    const project = makeProject({
      'wave.yaml': `kind: WaveManifest\nmetadata: { name: t }\nruntime:\n  timeouts: { process_grace_seconds: 1 }\n  sandbox: { env_passthrough: [STEP_SLEEP] }\n`,
      'pipelines/slow.yaml': loopPipeline('slow', { max: 3 }, [
        ['before', [], logged('before-{{ iteration }}')],
        ['wait', ['before'], `${logged('wait-{{ iteration }}')}; test {{ iteration }} -ne 1 || test -e ../../../../go || sleep $STEP_SLEEP`],
      ]),
    });
    const wave = startWave(['run', 'slow', '--output', 'text'], { cwd: project, env: { STEP_SLEEP: sleep } });
    await waitFor(() => logOf(project).includes('wait-1'), 'the second iteration to reach its waiting sub-step', 60_000);
    wave.kill('SIGKILL');
    await wave;
    const before = await runsOf(project);
    const parent = before.find((r) => r.pipeline === 'slow')!;
    const killed = before.filter((r) => r.pipeline === 'slow.again').map((r) => r.id);
    expect(killed).toHaveLength(2);

    writeFileSync(join(project, 'go'), '');
    const resumed = await runWave(['resume', parent.id, '--output', 'text'], { cwd: project, env: { STEP_SLEEP: '0.1' } });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(logOf(project)).toBe('before-0\nwait-0\nbefore-1\nwait-1\nwait-1\nbefore-2\nwait-2\n');
    expect(resumed.stdout + resumed.stderr).toContain('again iteration 1/3 (completed in an earlier run, not run again)');
    const step = record(project, parent.id).steps.again!;
    expect(step).toMatchObject({ status: 'completed', loop: { iteration: 3, of: 3, ended: 'max_iterations' } });
    // The interrupted iteration was finished under its own id.
    expect(step.children!.map((c) => c.status)).toEqual(['completed', 'completed', 'completed']);
    expect(
      step
        .children!.slice(0, 2)
        .map((c) => c.runId)
        .sort(),
    ).toEqual(killed.sort());
    expect((await runsOf(project)).filter((r) => r.pipeline === 'slow.again')).toHaveLength(3);
  }, 120_000);

  it("is checked with its sub-steps before it runs, each problem at its line; Wave's child pipeline beside a loop is refused by name", async () => {
    const project = makeProject({
      'pipelines/bad.yaml': `kind: WavePipeline
metadata: { name: bad }
steps:
  - id: prep
    exec: { type: command, source: "true" }
  - id: again
    pipeline: other
    loop:
      max_iterations: 2
      steps:
        - id: tick
          exec: { type: command, source: "true" }
          bogus: 1
        - id: tock
          dependencies: [prep]
          exec: { type: command, source: "true" }
`,
    });
    const checked = await runWave(['validate', 'pipelines/bad.yaml'], { cwd: project });
    expect(checked.code).toBe(2);
    const text = checked.stdout + checked.stderr;
    expect(text).toContain('pipelines/bad.yaml:7:5: not_supported: step `again`: a child pipeline beside `loop`');
    expect(text).toContain('pipelines/bad.yaml:13:11: unknown_key: unknown key `bogus`');
    expect(text).toContain('pipelines/bad.yaml:15:26: unknown_dependency: step `tock` depends on `prep`, which is not a step of this pipeline');
  });

  it('shows its sub-steps under --dry-run, and `wave compile` refuses it by name', async () => {
    const project = makeProject({ 'pipelines/fix.yaml': UNTIL, 'pipelines/echo-item.yaml': ECHO_ITEM });
    const dry = await runWave(['run', 'fix', '--dry-run'], { cwd: project });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('  loops:     at most 5 iterations, until {{ check.out.verdict.done }} reads true, done or yes');
    expect(dry.stdout).toContain('  sub-steps: work, each, check (each iteration a child run; {{ iteration }} from 0)');
    expect(dry.stdout).toContain('  child plan of each iteration: the sub-steps (iteration 0 shown)');
    expect(dry.stdout).toContain('echo work-0 >> ../../../../steps.log; echo working on 0; cat <workspace>/.wave/artifacts/list');
    const compiled = await runWave(['compile', 'fix'], { cwd: project });
    expect(compiled.code).toBe(2);
    expect(compiled.stdout + compiled.stderr).toContain('not_supported: step `fixloop` is a loop, which `wave compile` does not turn into jobs yet');
  });
});
