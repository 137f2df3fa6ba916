import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runWave, startWave } from '../support/cli.js';
import { OwnDockerd } from '../support/own-dockerd.mjs';
import { makeProject } from '../support/project.js';
import { latestEvents, latestRun } from '../support/runs.js';
import { marker, ownDockerdAvailable, processesWith, sandboxRuntime } from '../support/sandbox.js';
import { waitFor } from '../support/wait.js';

/** A project of one docker-sandboxed step running `command`, STEP_SLEEP handed in from Wave's environment. */
function dockerProject(command: string, stepExtra = ''): string {
  const manifest = `kind: WaveManifest
metadata: { name: daemon }
runtime:
  timeouts: { process_grace_seconds: 1 }
${sandboxRuntime('docker', '    env_passthrough: [STEP_SLEEP]\n')}`;
  const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: step
    exec: { type: command, source: ${JSON.stringify(command)} }
${stepExtra}`;
  return makeProject({ 'wave.yaml': manifest, 'pipelines/p.yaml': pipeline });
}

/** What the step's first attempt has printed so far. */
function firstStdout(project: string): string {
  return readFileSync(join(project, '.wave', 'runs', latestRun(project).id, 'steps', 'step', 'attempt-1', 'stdout'), 'utf8');
}

describe.skipIf(!ownDockerdAvailable())('docker sandbox: a daemon that goes away', () => {
  const daemon = new OwnDockerd();
  beforeAll(() => daemon.start(), 180_000);
  // Each case starts with a daemon that answers, whatever the one before left.
  beforeEach(async () => {
    if (!daemon.answers()) await daemon.start();
  }, 180_000);
  afterAll(() => daemon.remove(), 120_000);

  it('fails the running attempt as sandbox_unavailable when the daemon is killed mid-step, and the run resumes once it is back', async () => {
    const sleep = marker();
    const project = dockerProject('echo started; sleep $STEP_SLEEP; echo finished');
    const env = { DOCKER_HOST: daemon.host, STEP_SLEEP: sleep };
    const wave = startWave(['run', 'p', '--output', 'text'], { cwd: project, env });
    await waitFor(() => firstStdout(project).includes('started'), 'the step to start', 90_000);
    const killedAt = Date.now();
    daemon.kill();
    const run = await wave;
    // The step would sleep for an hour or more: the run ended on the daemon's death, not on the step's end.
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    expect(run.exitCode, String(run.stdout) + String(run.stderr)).toBe(1);
    const record = latestRun(project);
    expect(record.status).toBe('failed');
    const failure = record.steps.step!.failure!;
    expect(failure.class).toBe('sandbox_unavailable');
    // Killed mid-request, the daemon resets the connection; killed between requests, its socket refuses or is gone.
    expect(failure.message).toMatch(/^the Docker daemon stopped answering while the step ran \(connect (ECONNREFUSED|ECONNRESET|ENOENT) /);
    expect(failure.hint).toContain('wave resume');
    // What the orphaned container ran was killed with it.
    await waitFor(() => processesWith(`sleep ${sleep}`).length === 0, 'the step to be gone', 10_000);

    await daemon.start();
    const resumed = await runWave(['resume', record.id, '--output', 'text'], { cwd: project, env: { ...env, STEP_SLEEP: '0.2' } });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(latestRun(project).status).toBe('completed');
  }, 240_000);

  it('ends the run on Ctrl-C while the daemon is frozen, recorded cancelled', async () => {
    const project = dockerProject('echo started; sleep $STEP_SLEEP');
    const wave = startWave(['run', 'p', '--output', 'text'], { cwd: project, env: { DOCKER_HOST: daemon.host, STEP_SLEEP: marker() } });
    await waitFor(() => firstStdout(project).includes('started'), 'the step to start', 90_000);
    daemon.freeze();
    try {
      wave.kill('SIGINT');
      const run = await wave;
      expect(run.exitCode, String(run.stdout) + String(run.stderr)).toBe(130);
      expect(latestRun(project).status).toBe('cancelled');
      expect(latestRun(project).steps.step!.failure!.class).toBe('aborted');
    } finally {
      daemon.thaw();
    }
  }, 240_000);

  it('gives an attempt started while the daemon is stopped sandbox_unavailable with the hint to start it and resume', async () => {
    // The first attempt fails on its own; the daemon is stopped during the backoff before the second.
    const project = dockerProject('exit 3', '    retry: { max_attempts: 2, backoff: fixed, base_delay: 6s }\n');
    const wave = startWave(['run', 'p', '--output', 'text'], { cwd: project, env: { DOCKER_HOST: daemon.host } });
    await waitFor(() => latestEvents(project).some((event) => event.type === 'attempt_finished'), 'the first attempt to fail', 90_000);
    await daemon.stop();
    const run = await wave;
    expect(run.exitCode, String(run.stdout) + String(run.stderr)).toBe(1);
    const step = latestRun(project).steps.step!;
    expect(step.attempts.map((attempt) => attempt.failure?.class)).toEqual(['non_zero_exit', 'sandbox_unavailable']);
    expect(step.failure!.message).toMatch(/^the Docker daemon is not answering: connect ENOENT .*d\.sock$/);
    expect(step.failure!.hint).toBe('Start the Docker daemon again (dockerd), or point DOCKER_HOST at one that answers, then `wave resume <run-id>` finishes the run.');
    await daemon.start();
  }, 240_000);
});
