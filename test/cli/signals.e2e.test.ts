import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { latestRunDir, letFinish, longRunProject, startLongRun, stepPids } from '../support/long-run.js';
import { latestRun } from '../support/runs.js';
import { isAlive, waitFor } from '../support/wait.js';

describe('a signal to `wave run` stops every step and records the run as cancelled, resumable', () => {
  it.each([
    ['SIGHUP', 129, 'cancelled: the terminal closed (SIGHUP)'],
    ['SIGTERM', 143, 'cancelled'],
    ['SIGQUIT', 131, 'cancelled (SIGQUIT)'],
    ['SIGINT', 130, 'interrupted (Ctrl-C)'],
  ] as const)('%s: exit %i, steps stopped, run cancelled, then resume finishes it', async (signal, code, reason) => {
    const dir = longRunProject();
    const { child, bPid } = await startLongRun(dir);
    child.kill(signal);
    const result = await child;
    expect(result.signal, result.stderr).toBeUndefined();
    expect(result.exitCode, result.stderr).toBe(code);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const run = latestRun(dir);
    expect(run.status).toBe('cancelled');
    expect(run.pid).toBeUndefined();
    expect(run.steps.a!.status).toBe('completed');
    expect(run.steps.b!.status).toBe('cancelled');
    expect(run.steps.b!.attempts.at(-1)!.failure).toEqual({ class: 'aborted', message: reason });
    await waitFor(() => !isAlive(bPid), 'the step process to be gone', 10_000);
    expect(existsSync(join(latestRunDir(dir), 'lock'))).toBe(false);

    letFinish(dir);
    const resumed = await runWave(['resume', run.id, '--output', 'text'], { cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(latestRun(dir).status).toBe('completed');
    expect(stepPids(dir)).toHaveLength(2);
  });
});
