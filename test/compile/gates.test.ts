import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { gateEnvironmentName } from '../../src/compile/gate-job.js';
import { JOB_SETUP_MINUTES } from '../../src/compile/job-timeout.js';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave } from '../support/cli.js';
import { gatedPipeline } from '../support/gate-pipeline.js';
import { makeProject } from '../support/project.js';
import { parsedByGithub, planOf } from './compiled.js';
import { simulateWorkflow } from './simulate.js';

// An approval gate named by default and one named by `environment`, an `auto` gate, a timer, and a step that reads the decision.
const GATED = `kind: WavePipeline
metadata: { name: Release Train }
steps:
  - id: prep
    exec: { type: command, source: "echo prepared" }
  - id: approve
    dependencies: [prep]
    gate:
      type: approval
      message: Ship it?
      choices:
        - { key: y, label: Ship }
        - { key: n, label: Abort, target: _fail }
      default: y
  - id: sign.off
    dependencies: [prep]
    gate: { type: approval, environment: production }
  - id: robot
    dependencies: [prep]
    gate: { type: approval, auto: true }
  - id: pause
    dependencies: [approve]
    gate: { type: timer, timeout: 2s }
  - id: ship
    dependencies: [pause, approve, sign.off, robot]
    exec: { type: command, source: "echo shipped {{ gate.approve.choice }} {{ gate.approve.key }}" }
    output_artifacts: [{ name: out, source: stdout }]
`;

interface Job {
  needs?: string[];
  environment?: string;
  'timeout-minutes': number;
  steps: { name?: string; run?: string }[];
}

/** A job's `wave run` step. */
function waveRunStep(job: Job): { name?: string; run?: string; env?: Record<string, string> } {
  return job.steps.find((step) => step.run?.includes(' run '))!;
}

/** The command of a job's `wave run` step. */
function waveRun(job: Job): string {
  return waveRunStep(job).run!;
}

describe('gates in a compiled workflow', () => {
  let project: string;
  let text: string;
  let input: string;
  beforeAll(async () => {
    project = makeProject({ 'pipelines/gated.yaml': GATED });
    const plan = await planOf(join(project, 'wave.yaml'), join(project, 'pipelines/gated.yaml'));
    const { stdout, code } = await runWave(['compile', 'gated'], { cwd: project });
    expect(code).toBe(0);
    text = `${stdout}\n`;
    input = plan.input;
  });

  it('binds an approval gate’s job to its GitHub Environment (wave-<pipeline>-<step>, or the gate’s `environment`), as GitHub’s parser reads it', async () => {
    const { errors, jobs } = await parsedByGithub(text);
    expect(errors).toEqual([]);
    expect(jobs.get('approve')?.environment).toBe('wave-release-train-approve');
    expect(jobs.get('sign_off')?.environment).toBe('production');
    // `auto` resolves the gate at once, and a timer waits in its job: neither waits for a reviewer.
    expect(jobs.get('robot')?.environment).toBeUndefined();
    expect(jobs.get('pause')?.environment).toBeUndefined();
    expect(jobs.get('ship')?.needs).toEqual(['pause', 'approve', 'sign_off', 'robot']);
    const written = (parse(text) as { jobs: Record<string, Job> }).jobs;
    expect(waveRun(written.approve!)).toContain('--steps approve --approved-in "$WAVE_GATE_ENVIRONMENT" --output text');
    expect(waveRunStep(written.approve!).env).toMatchObject({ WAVE_GATE_ENVIRONMENT: 'wave-release-train-approve' });
    expect(waveRun(written.robot!)).toContain('--steps robot --output text');
    // The job's log and the decision say who let it run: the Environment's reviewers (GitHub keeps which one).
    expect(waveRunStep(written.sign_off!).name).toBe('Run step sign.off, approved through the GitHub Environment production');
    expect(waveRunStep(written.robot!).name).toBe('Run step robot');
    expect(written.approve!['timeout-minutes']).toBe(JOB_SETUP_MINUTES);
    // The timer's 2 s round up to a minute of the job's own.
    expect(written.pause!['timeout-minutes']).toBe(JOB_SETUP_MINUTES + 1);
  });

  it('runs the gates as jobs: once approved the gate records its default choice for the steps after it, and the timer waits', { timeout: 120_000 }, async () => {
    const sim = await simulateWorkflow(text, project, input);
    expect([...sim.results.values()].every((result) => result === 'success')).toBe(true);
    const runDir = join(sim.folders.get('run-record')!, '.wave/runs', sim.runId);
    const record = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')) as RunRecord;
    expect(record.status).toBe('completed');
    expect(readFileSync(join(runDir, 'artifacts/ship/out'), 'utf8')).toBe('shipped Ship y\n');
    expect(record.steps.approve!.gate?.decision).toMatchObject({ by: 'environment', environment: 'wave-release-train-approve', key: 'y', label: 'Ship' });
    expect(record.steps['sign.off']!.gate?.decision).toMatchObject({ by: 'environment', environment: 'production' });
    expect(record.steps.robot!.gate?.decision?.by).toBe('auto');
    expect(record.steps.pause!.gate?.decision?.by).toBe('timer');
    expect(record.steps.pause!.durationMs).toBeGreaterThanOrEqual(2000);
  });

  it('a reviewer’s rejection fails the gate’s job, and the steps after it do not run (nor does the run record job pass)', { timeout: 120_000 }, async () => {
    const sim = await simulateWorkflow(text, project, input, { rejected: new Set(['wave-release-train-approve']) });
    expect(Object.fromEntries(sim.results)).toEqual({
      prep: 'success',
      approve: 'failure',
      sign_off: 'success',
      robot: 'success',
      pause: 'skipped',
      ship: 'skipped',
      'run-record': 'failure',
    });
    const runDir = join(sim.folders.get('run-record')!, '.wave/runs', sim.runId);
    const record = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')) as RunRecord;
    // No part says why the gate's job did not run: the record keeps the gate and the steps after it pending, the run cancelled.
    expect(record.status).toBe('cancelled');
    expect(Object.fromEntries(Object.values(record.steps).map((step) => [step.id, step.status]))).toEqual({
      prep: 'completed',
      approve: 'pending',
      'sign.off': 'completed',
      robot: 'completed',
      pause: 'pending',
      ship: 'pending',
    });
  });

  it('names the Environments to create in the notice of -o, and says an Environment GitHub makes itself has no reviewers', async () => {
    const written = await runWave(['compile', 'gated', '-o', '.github/workflows/gated.yml'], { cwd: project });
    expect(written.code).toBe(0);
    expect(written.stderr).toContain(
      'create the GitHub Environments wave-release-train-approve and production (Settings → Environments) with required reviewers: without them GitHub creates each with none, and the gate passes unasked',
    );
  });
});

describe('the name of a gate’s GitHub Environment', () => {
  it('is the gate’s `environment` as written, else wave-<pipeline>-<step> in lowercase letters, digits and `-`, at most 255 characters', () => {
    expect(gateEnvironmentName('Release Train', 'sign.off', undefined)).toBe('wave-release-train-sign-off');
    expect(gateEnvironmentName('Release Train', 'sign.off', 'Prod (EU)')).toBe('Prod (EU)');
    expect(gateEnvironmentName('p', '__', undefined)).toBe('wave-p-gate');
    const long = gateEnvironmentName('x'.repeat(300), 'y'.repeat(300), undefined);
    expect(long).toBe(`wave-${'x'.repeat(48)}-${'y'.repeat(255 - 54)}`);
  });
});

describe('gates `wave compile` refuses by name', () => {
  const gateLine = gatedPipeline('').split('\n').indexOf('  - id: approve') + 1;

  it.each([
    ['a pr_merge gate', '      type: pr_merge\n      pr_number: 7', 'is a pr_merge gate', "GitHub's own event"],
    ['a ci_pass gate', '      type: ci_pass', 'is a ci_pass gate', 'required checks'],
    [
      'an approval whose choice loops back',
      '      type: approval\n      choices:\n        - { key: y, label: Ship }\n        - { key: r, label: Again, target: prep }\n      default: y',
      'is an approval gate whose choice `r` goes to `prep`',
      'A GitHub Environment approval only lets the job run or not',
    ],
    [
      'an approval with choices and no default',
      '      type: approval\n      choices:\n        - { key: y, label: Ship }',
      'is an approval gate with choices and no default',
      'set `default`',
    ],
    ['an approval that takes text', '      type: approval\n      freeform: true', 'is an approval gate with `freeform: true`', 'remove `freeform`'],
    [
      'a timer longer than a hosted job',
      '      type: timer\n      timeout: 6h',
      'is a timer gate longer than a GitHub-hosted job may run (350 minutes and its setup)',
      '`on: schedule`',
    ],
  ])('%s, at the step, with a hint (exit 2)', async (_, gate, message, hint) => {
    const project = makeProject({ 'pipelines/gated.yaml': gatedPipeline(gate) });
    const out = await runWave(['compile', 'gated'], { cwd: project });
    expect([out.code, out.stdout]).toEqual([2, '']);
    expect(out.stderr).toContain(
      `${join(project, 'pipelines/gated.yaml')}:${gateLine}:5: not_supported: step \`approve\` ${message}, which \`wave compile\` cannot turn into a job`,
    );
    expect(out.stderr).toMatch(new RegExp(`hint: .*${hint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('`wave validate` refuses an `environment` GitHub cannot name, and one on a gate that is no approval', async () => {
    const project = makeProject({
      'pipelines/gated.yaml': gatedPipeline('      type: approval\n      environment: "prod-${{ github.actor }}"'),
      'pipelines/timer.yaml': gatedPipeline('      type: timer\n      timeout: 1s\n      environment: production'),
    });
    const named = await runWave(['validate', 'pipelines/gated.yaml'], { cwd: project });
    expect(named.code).toBe(2);
    expect(named.stdout + named.stderr).toContain('a GitHub Environment name: one line of up to 255 characters, without `${{`');
    const timer = await runWave(['validate', 'pipelines/timer.yaml'], { cwd: project });
    expect(timer.code).toBe(2);
    expect(timer.stdout + timer.stderr).toContain('conflicting_fields: step `approve`: a timer gate does nothing with `environment`');
  });
});
