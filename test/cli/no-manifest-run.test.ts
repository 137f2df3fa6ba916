import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave, startWave } from '../support/cli.js';
import { COMMANDS_PIPELINE, projectWithoutManifest } from '../support/no-manifest-project.js';
import { latestRun, runDirs } from '../support/runs.js';
import { waitFor } from '../support/wait.js';

describe('a commands-only pipeline with no wave.yaml anywhere', () => {
  it('runs by name from pipelines/, records the run in .wave/ here, and every inspecting command finds it', async () => {
    const dir = projectWithoutManifest({ 'pipelines/commands.yaml': COMMANDS_PIPELINE });
    const run = await runWave(['run', 'commands', '--output', 'text'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, 'wave.yaml'))).toBe(false);
    const record = latestRun(dir);
    expect(record.status).toBe('completed');
    expect(record.manifestFile).toBe('(built-in manifest)');
    expect(record.steps.make!.contracts).toEqual([expect.objectContaining({ contract: '1:json_schema out/greeting.json', passed: true })]);
    expect(readFileSync(join(runDirs(dir)[0]!, 'artifacts', 'make', 'greeting.json'), 'utf8')).toBe('{"greeting": "hello"}');

    const runs = await runWave(['runs', '--json'], { cwd: dir });
    expect(runs.code).toBe(0);
    expect(JSON.parse(runs.stdout)).toEqual([expect.objectContaining({ id: record.id, pipeline: 'commands', status: 'completed', stepsDone: 2, stepsTotal: 2 })]);

    const status = await runWave(['status', record.id], { cwd: dir });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`run ${record.id} completed`);

    const logs = await runWave(['logs', record.id, '--step', 'use'], { cwd: dir });
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain('{"greeting": "hello"} read by use');

    const thread = await runWave(['thread', record.id], { cwd: dir });
    expect(thread.code).toBe(0);
    expect(thread.stdout).toContain('[#1 make]');
    expect(thread.stdout).toContain('[#2 use]');

    const diff = await runWave(['diff', record.id, '--step', 'make'], { cwd: dir });
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('+++ b/out/greeting.json');
  });

  it('runs a pipeline given by path, prints its plan with --dry-run, and still honours -m', async () => {
    const dir = projectWithoutManifest({ 'elsewhere/commands.yaml': COMMANDS_PIPELINE });
    const dry = await runWave(['run', 'elsewhere/commands.yaml', '--dry-run'], { cwd: dir });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('Step use\n  runs on:   shell command\n  after:     make');
    expect(existsSync(join(dir, '.wave'))).toBe(false);

    const run = await runWave(['run', 'elsewhere/commands.yaml', '--output', 'quiet'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(latestRun(dir).status).toBe('completed');

    // -m names a manifest that is not there: still an error, not the built-in manifest.
    const missing = await runWave(['run', 'elsewhere/commands.yaml', '-m', 'nope.yaml'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('file_not_found: the manifest `nope.yaml` does not exist');
  });

  it('resumes a failed run without re-running its completed steps, also once a wave.yaml was written', async () => {
    const dir = projectWithoutManifest({});
    const flag = join(dir, 'ready');
    writeFileSync(
      join(dir, 'flaky.yaml'),
      `kind: WavePipeline\nmetadata: { name: flaky }\nsteps:\n  - id: a\n    exec: { type: command, source: "echo a >> ${join(dir, 'a-ran')}" }\n  - id: b\n    dependencies: [a]\n    exec: { type: command, source: "test -f ${flag}" }\n`,
    );
    const failed = await runWave(['run', 'flaky.yaml', '--output', 'quiet'], { cwd: dir });
    expect(failed.code).toBe(1);
    const { id } = latestRun(dir);
    const again = await runWave(['resume', id, '--output', 'quiet'], { cwd: dir });
    expect(again.stderr).toBe('');
    expect(again.code).toBe(1);
    // A wave.yaml written since does not change the run: it resumes on the built-in manifest it started with.
    writeFileSync(join(dir, 'wave.yaml'), 'kind: WaveManifest\nmetadata: { name: later }\n');
    writeFileSync(flag, '');
    const resumed = await runWave(['resume', id, '--output', 'quiet'], { cwd: dir });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(latestRun(dir).status).toBe('completed');
    expect(readFileSync(join(dir, 'a-ran'), 'utf8')).toBe('a\n');
  });

  it('is cancelled by `wave cancel` from the same folder', async () => {
    const dir = projectWithoutManifest({
      'pipelines/slow.yaml': 'kind: WavePipeline\nmetadata: { name: slow }\nsteps:\n  - id: wait\n    exec: { type: command, source: "sleep 300" }\n',
    });
    const child = startWave(['run', 'slow', '--output', 'quiet'], { cwd: dir });
    const running = await waitFor(() => runDirs(dir).length > 0 && latestRun(dir).steps.wait?.status === 'running' && latestRun(dir), 'the step to start');
    const cancel = await runWave(['cancel', running.id], { cwd: dir });
    expect(cancel.stdout).toContain(`cancelled run ${running.id}`);
    expect(cancel.code).toBe(0);
    await child;
    expect(latestRun(dir).status).toBe('cancelled');
  });
});
