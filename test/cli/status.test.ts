import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunStore } from '../../src/state/run-store.js';
import { RUN_ID, SCRIPTED_SUMMARY_LINES, scriptedRecord } from '../report/scripted-run.js';
import { sampleProject, sampleRecord, sampleStep } from '../state/sample-run.js';
import { runWave } from '../support/cli.js';

describe('wave status', () => {
  it('prints the summary of a run found by a prefix of its id', async () => {
    const project = sampleProject();
    RunStore.create(project.runsRoot, scriptedRecord());
    const result = await runWave(['status', RUN_ID.slice(0, 12)], { cwd: project.dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(SCRIPTED_SUMMARY_LINES.join('\n')); // runWave drops the final newline
  });

  it('prints run.json with --json', async () => {
    const project = sampleProject();
    const store = RunStore.create(project.runsRoot, scriptedRecord());
    const result = await runWave(['status', RUN_ID, '--json'], { cwd: project.dir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(readFileSync(join(store.dir, 'run.json'), 'utf8')));
  });

  it('points at resume when the process driving a running run is gone', async () => {
    const project = sampleProject();
    RunStore.create(project.runsRoot, sampleRecord('hello-20240503-090000-eeee', { status: 'running', pid: 999_999_999 }, [sampleStep('a', { status: 'running' })]));
    const result = await runWave(['status', 'hello-20240503-090000-eeee'], { cwd: project.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('note: the process that ran it (pid 999999999) is gone; continue with `wave resume hello-20240503-090000-eeee`');
  });

  it('an unknown run is exit 2 with run_not_found and a hint', async () => {
    const project = sampleProject();
    const result = await runWave(['status', 'nope'], { cwd: project.dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('run_not_found: no run `nope`');
    expect(result.stderr).toContain('hint: List the recorded runs with `wave runs`.');
  });
});
