import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEventsFile } from '../../src/state/events-file.js';
import { runWave } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';

const FAILING = commandPipeline('build', [['compile', [], 'echo building; echo "warning: old flag" >&2; echo "error: no rule to make target all" >&2; exit 3']]);
const CHATTY = commandPipeline('chatty', [['count', [], 'echo one; sleep 1.5; echo two; sleep 1.5; echo three']]);

describe('why a command step failed is where a person looks', () => {
  it('the summary shows the end of its stderr under the step, and --output quiet the cause in one line', async () => {
    const project = makeProject({ 'pipelines/build.yaml': FAILING });
    const text = await runWave(['run', 'build', '--output', 'text'], { cwd: project });
    expect(text.code).toBe(1);
    const summary = text.stdout.slice(text.stdout.lastIndexOf('  ✗ compile'));
    expect(summary).toMatch(/✗ compile +failed .*non_zero_exit: .*exited with code 3:\n +warning: old flag\n +error: no rule to make target all\n/);
    const quiet = await runWave(['run', 'build', '--output', 'quiet'], { cwd: project });
    expect(quiet.code).toBe(1);
    const [status, cause, ...rest] = quiet.stdout.trimEnd().split('\n');
    expect(status).toMatch(/^✗ run build-\S+ failed/);
    expect(cause).toMatch(/^ {2}compile: non_zero_exit: .*exited with code 3: error: no rule to make target all$/);
    expect(rest).toEqual([]);
  });

  it('a running command’s last line is recorded as it changes, for the live view', async () => {
    const project = makeProject({ 'pipelines/chatty.yaml': CHATTY });
    const result = await runWave(['run', 'chatty', '--output', 'quiet'], { cwd: project });
    expect(result.code).toBe(0);
    const runId = /run (\S+) completed/.exec(result.stdout)![1]!;
    const events = readEventsFile(join(project, '.wave', 'runs', runId, 'events.ndjson'));
    const lines = events.flatMap((event) => (event.type === 'step_output' ? [event.line] : []));
    // One, two and three each printed a second and more apart; the last may come with the process's end.
    expect(lines.slice(0, 2)).toEqual(['one', 'two']);
    expect(lines.every((line, i) => i === 0 || line !== lines[i - 1])).toBe(true);
    expect(readFileSync(join(project, '.wave', 'runs', runId, 'steps', 'count', 'attempt-1', 'stdout'), 'utf8')).toBe('one\ntwo\nthree\n');
  });
});
