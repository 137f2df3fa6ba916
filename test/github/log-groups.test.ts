import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandPipeline, makeProject, SHELL_MANIFEST } from '../support/project.js';
import { runAction, startAction, waitFor, withoutStopCommands } from './run-action.js';

/** The `::group::` titles in order; throws when a group opens inside another, as interleaved steps would. */
function groupTitles(stdout: string): string[] {
  const titles: string[] = [];
  let open = false;
  for (const line of stdout.split('\n')) {
    if (line.startsWith('::group::')) {
      if (open) throw new Error(`a group opened inside another:\n${stdout}`);
      open = true;
      titles.push(line.slice('::group::'.length));
    } else if (line === '::endgroup::') open = false;
  }
  return titles;
}

describe('the GitHub Action’s log groups', () => {
  it('streams a linear pipeline’s step into its group while it runs', async () => {
    const go = join(mkdtempSync(join(tmpdir(), 'wave-go-')), 'go');
    const pipeline = commandPipeline('linear', [
      ['first', [], `while [ ! -f ${go} ]; do sleep 0.1; done; echo first-out`],
      ['second', ['first'], 'echo second-out'],
    ]);
    const project = makeProject({ 'pipelines/linear.yaml': pipeline });
    const { stdoutSoFar, finished } = startAction(project, { pipeline: 'linear' });
    // The step waits for the go file: its group and started line can only have been printed while it ran.
    await waitFor(() => /^::group::first\n.*first started/m.test(withoutStopCommands(stdoutSoFar())));
    expect(stdoutSoFar()).not.toContain('::endgroup::');
    writeFileSync(go, '');
    const run = await finished;
    expect(run.code, run.stdout).toBe(0);
    expect(groupTitles(run.stdout)).toEqual(['first', 'second']);
    expect(withoutStopCommands(run.stdout)).toMatch(
      /::group::first\n.*first started.*\n.*first completed.*\n--- stdout \(attempt 1\) ---\nfirst-out\n::endgroup::\n::group::second\n/,
    );
  });

  it('streams steps one at a time under max_concurrency 1, even when they are independent', async () => {
    const project = makeProject({
      'wave.yaml': SHELL_MANIFEST.replace('max_concurrency: 4', 'max_concurrency: 1'),
      'pipelines/pair.yaml': commandPipeline('pair', [
        ['left', [], 'echo left-out'],
        ['right', [], 'echo right-out'],
      ]),
    });
    const run = await runAction(project, { pipeline: 'pair' });
    expect(run.code, run.stdout).toBe(0);
    expect(groupTitles(run.stdout)).toEqual(['left', 'right']);
  });

  it('buffers parallel steps and prints each group whole when its step ends, never interleaved', async () => {
    const project = makeProject({
      'pipelines/fan.yaml': commandPipeline('fan', [
        ['slow', [], 'echo slow-begins; sleep 1; echo slow-ends'],
        ['fast', [], 'echo fast-out'],
      ]),
    });
    const run = await runAction(project, { pipeline: 'fan' });
    expect(run.code, run.stdout).toBe(0);
    expect(groupTitles(run.stdout)).toEqual(['fast: completed', 'slow: completed']);
    expect(withoutStopCommands(run.stdout)).toMatch(
      /::group::slow: completed\n.*slow started.*\n.*slow completed.*\n--- stdout \(attempt 1\) ---\nslow-begins\nslow-ends\n::endgroup::/,
    );
  });
});
