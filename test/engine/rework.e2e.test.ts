import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun, runDirs } from '../support/runs.js';

// Rework (Wave's rework_step, rework_only): a failed step's work is handed to its rework step, then its contracts are checked again.

/** A project whose pipeline `fixing` is `body` (its steps), `{{ROOT}}` standing for the project folder. */
function projectWith(body: string): string {
  const project = makeProject({ 'pipelines/fixing.yaml': '' });
  writeFileSync(join(project, 'pipelines', 'fixing.yaml'), `kind: WavePipeline\nmetadata: { name: fixing }\nsteps:\n${body.replaceAll('{{ROOT}}', project)}`);
  return project;
}

/** A rework step that adds one `fixed-<n>` file to the project folder a round, saying whose work it fixes and why. */
const FIX = `  - id: fix
    rework_only: true
    exec:
      type: command
      source: 'n=$(ls {{ROOT}}/fixed-* 2>/dev/null | wc -l); touch {{ROOT}}/fixed-$((n+1)); echo "fixing $WAVE_REWORK_OF round $WAVE_REWORK_ROUND: $WAVE_REWORK_FAILURE"'
`;

/** A step whose contract wants `fixed-<n>` in the project folder, reworked by `fix` for up to `rounds` rounds; `ship` after it. */
const contractRework = (n: number, rounds: number) => `  - id: build
    exec: { type: command, source: "echo built" }
    handover:
      contract: { type: test_suite, command: "test -f fixed-${n}", dir: project_root, on_failure: rework, rework_step: fix, max_retries: ${rounds} }
${FIX}  - id: ship
    dependencies: [build]
    exec: { type: command, source: "echo shipped" }
`;

function stdoutOf(project: string, step: string, attempt: number): string {
  return readFileSync(join(runDirs(project)[0]!, 'steps', step, `attempt-${attempt}`, 'stdout'), 'utf8');
}

describe('rework', () => {
  it('hands a failed contract to the rework step, checks the contract again after each round, and goes on once it passes', async () => {
    const project = projectWith(contractRework(2, 2));
    const run = await runWave(['run', 'fixing', '--output', 'text'], { cwd: project });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(existsSync(join(project, 'fixed-2'))).toBe(true);
    const record: RunRecord = latestRun(project);
    expect(record.status).toBe('completed');
    expect(record.steps.build).toMatchObject({ status: 'completed', rework: { target: 'fix', rounds: 2 } });
    // Checked after the attempt, then again after each round: failed, failed, passed.
    expect(record.steps.build!.contracts.map((c) => [c.passed, c.action, c.round])).toEqual([
      [false, 'rework', undefined],
      [false, 'rework', 1],
      [true, 'pass', 2],
    ]);
    // Each round is an attempt of kind rework of `fix`, linked to `build`.
    expect(record.steps.fix!.attempts.map((a) => [a.attempt, a.kind, a.reworkOf])).toEqual([
      [1, 'rework', 'build'],
      [2, 'rework', 'build'],
    ]);
    expect(record.steps.fix!.status).toBe('completed');
    expect(stdoutOf(project, 'fix', 2)).toMatch(/^fixing build round 2: contract_failed: contract 1:test_suite test -f fixed-2 failed/);
    expect(record.steps.ship!.status).toBe('completed');
    expect(run.stdout).toContain('build reworking: fix fixes its work (round 1) after: contract_failed');
    expect(run.stdout).toMatch(/build +contract 1:test_suite test -f fixed-2 passed after rework round 2/);
    const status = await runWave(['status', record.id], { cwd: project });
    expect(status.stdout).toMatch(/build +completed .*reworked by fix in 2 rounds/);
    expect(status.stdout).toMatch(/fix +completed .*rework of build/);
  });

  it('fails the step when the contract still fails after its rework rounds', async () => {
    const project = projectWith(contractRework(3, 2));
    const run = await runWave(['run', 'fixing'], { cwd: project });
    expect(run.code).toBe(1);
    const record = latestRun(project);
    expect(record.steps.build).toMatchObject({ status: 'failed', failure: { class: 'contract_failed' }, rework: { rounds: 2 } });
    expect(record.steps.build!.failure!.hint).toContain('The rework step `fix` ran 2 time(s) and the contract still fails');
    expect(record.steps.ship!.status).toBe('pending');
  });

  it('reworks a step whose attempts are spent (retry.on_failure: rework), then checks its contracts on the fixed work', async () => {
    const project = projectWith(`  - id: build
    exec: { type: command, source: "test -f {{ROOT}}/fixed-1" }
    retry: { max_attempts: 2, base_delay: 10ms, on_failure: rework, rework_step: fix }
    handover:
      contract: { type: test_suite, command: "test -f fixed-1", dir: project_root }
${FIX}`);
    const run = await runWave(['run', 'fixing'], { cwd: project });
    expect(run.code, run.stderr).toBe(0);
    const record = latestRun(project);
    expect(record.steps.build).toMatchObject({ status: 'completed', rework: { target: 'fix', rounds: 1 } });
    expect(record.steps.build!.attempts).toHaveLength(2);
    expect(record.steps.build!.contracts).toEqual([expect.objectContaining({ passed: true, round: 1 })]);
    expect(stdoutOf(project, 'fix', 1)).toMatch(/^fixing build round 1: non_zero_exit/);
  });

  it('fails the step when its rework step fails too, and skips an unneeded rework step at the end', async () => {
    const failing = projectWith(`  - id: build
    exec: { type: command, source: "exit 3" }
    retry: { on_failure: rework, rework_step: fix }
  - id: fix
    rework_only: true
    exec: { type: command, source: "exit 4" }
`);
    const run = await runWave(['run', 'fixing'], { cwd: failing });
    expect(run.code).toBe(1);
    const record = latestRun(failing);
    expect(record.steps.build!.failure!.message).toMatch(/^rework step `fix` also failed: /);
    expect(record.steps.fix!.status).toBe('failed');

    const fine = projectWith(contractRework(0, 1).replace('test -f fixed-0', 'true'));
    expect((await runWave(['run', 'fixing'], { cwd: fine })).code).toBe(0);
    expect(latestRun(fine).steps.fix).toMatchObject({ status: 'skipped', skipReason: 'a rework step: no step needed it', attempts: [] });
  });

  it('refuses a rework that names no rework_only step, or a rework step that is depended on', async () => {
    const project = projectWith(`  - id: build
    exec: { type: command, source: "true" }
    retry: { on_failure: rework, rework_step: ship }
    handover:
      contract: { type: test_suite, command: "true", on_failure: rework }
  - id: ship
    dependencies: [build]
    exec: { type: command, source: "true" }
  - id: fix
    rework_only: true
    exec: { type: command, source: "true" }
  - id: after
    dependencies: [fix]
    exec: { type: command, source: "true" }
`);
    const validate = await runWave(['validate', 'fixing'], { cwd: project });
    expect(validate.code).toBe(2);
    expect(validate.stdout).toContain("the rework step `ship` of step `build` is not `rework_only`, so it would also run in the run's order");
    expect(validate.stdout).toContain("step `after` depends on the rework step `fix`, which runs only when a step's work needs fixing");
    const compiled = await runWave(['compile', 'fixing'], { cwd: projectWith(contractRework(1, 1)) });
    expect(compiled.code).toBe(2);
    expect(compiled.stderr).toContain('not_supported: step `fix` is a rework step, which `wave compile` does not turn into jobs yet');
  });
});
