import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';

// A child pipeline step's `config.max_cycles` (Wave's): the limit of the child's loop steps that set no max_iterations.

/** Each step appends a line to steps.log in the project (a child's workspace is .wave/workspaces/<run>/<step>). */
const logged = (line: string) => `echo ${line} >> ../../../../steps.log`;

/** Two loops: `open` takes its limit from the parent, `own` keeps its own; `last` fails while the project has fail.flag. */
const COUNTER = `kind: WavePipeline
metadata: { name: counter }
steps:
  - id: open
    loop:
      until: "{{ tick.output }}"
      steps:
        - id: tick
          exec: { type: command, source: "${logged('tick-{{ iteration }}')}; echo no" }
  - id: own
    dependencies: [open]
    loop:
      max_iterations: 3
      steps:
        - id: tock
          exec: { type: command, source: "${logged('tock-{{ iteration }}')}" }
  - id: last
    dependencies: [own]
    exec: { type: command, source: "test ! -e ../../../../fail.flag" }
`;

const PARENT = `kind: WavePipeline
metadata: { name: outer }
steps:
  - id: sub
    pipeline: counter
    config: { max_cycles: 2 }
`;

function logOf(project: string): string {
  return existsSync(join(project, 'steps.log')) ? readFileSync(join(project, 'steps.log'), 'utf8') : '';
}

describe('config.max_cycles', () => {
  it("limits the child's loop that sets no max_iterations, leaves the one that does, and a resume of the parent plans the child the same", async () => {
    const project = makeProject({ 'pipelines/counter.yaml': COUNTER, 'pipelines/outer.yaml': PARENT, 'fail.flag': '' });
    const failed = await runWave(['run', 'outer', '--output', 'text'], { cwd: project });
    expect(failed.code, failed.stderr + failed.stdout).toBe(1);
    expect(logOf(project)).toBe('tick-0\ntick-1\ntock-0\ntock-1\ntock-2\n');
    expect(failed.stdout + failed.stderr).toContain('open loop ended after 2 iterations: max_iterations reached');
    const runs = JSON.parse((await runWave(['runs', '--json'], { cwd: project })).stdout) as Array<{ id: string; pipeline: string }>;
    const child = runs.find((r) => r.pipeline === 'counter')!;
    const recorded = JSON.parse(readFileSync(join(project, '.wave', 'runs', child.id, 'run.json'), 'utf8')) as RunRecord;
    expect(recorded.options.maxCycles).toBe(2);
    writeFileSync(join(project, 'steps.log'), '');
    rmSync(join(project, 'fail.flag'));
    const parent = runs.find((r) => r.pipeline === 'outer')!;
    const resumed = await runWave(['resume', parent.id, '--output', 'text'], { cwd: project });
    expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
    // The loops were done: only `last` ran again.
    expect(logOf(project)).toBe('');
  }, 120_000);

  it('a loop without max_iterations run on its own is refused at the loop, saying where a limit may come from', async () => {
    const project = makeProject({ 'pipelines/counter.yaml': COUNTER });
    const run = await runWave(['run', 'counter'], { cwd: project });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('counter.yaml:6:7: missing_field: loop step `open` sets no `max_iterations`');
    expect(run.stderr).toContain("Set `loop.max_iterations`; run as a child, the loop may take it from its parent step's `config.max_cycles` instead.");
    expect(logOf(project)).toBe('');
  });

  it('--dry-run of the parent shows the limit the child takes', async () => {
    const project = makeProject({ 'pipelines/counter.yaml': COUNTER, 'pipelines/outer.yaml': PARENT });
    const dry = await runWave(['run', 'outer', '--dry-run'], { cwd: project });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('at most 2 iterations, until {{ tick.output }} reads true, done or yes');
    expect(dry.stdout).toContain('at most 3 iterations');
  });

  it('`wave validate` refuses a max_cycles no loop of the child takes, at the key', async () => {
    const bounded = COUNTER.replace('    loop:\n      until', '    loop:\n      max_iterations: 4\n      until');
    const project = makeProject({ 'pipelines/counter.yaml': bounded, 'pipelines/outer.yaml': PARENT });
    const checked = await runWave(['validate', 'pipelines/outer.yaml'], { cwd: project });
    expect(checked.code).toBe(2);
    expect(checked.stdout + checked.stderr).toContain(
      'outer.yaml:6:27: conflicting_fields: step `sub` sets `config.max_cycles`, but the child `counter` has no loop step without a `max_iterations` of its own, so it would do nothing',
    );
    const fine = await runWave(['validate', 'pipelines/outer.yaml'], { cwd: makeProject({ 'pipelines/counter.yaml': COUNTER, 'pipelines/outer.yaml': PARENT }) });
    expect(fine.code, fine.stdout + fine.stderr).toBe(0);
  });
});
