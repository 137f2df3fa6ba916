import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WAVE_BIN } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

/** Three steps in a row, each printing after a pause: most of the run's output comes after the reader has gone. */
function project(): string {
  return makeProject({
    'pipelines/p.yaml': commandPipeline('p', [
      ['one', [], 'sleep 0.3; echo one'],
      ['two', ['one'], 'sleep 0.3; echo two'],
      ['three', ['two'], 'sleep 0.3; echo three'],
    ]),
  });
}

describe('a closed stdout (`wave run … | head`) never crashes Wave and never loses the run', () => {
  it.each([
    ['--json', 1],
    ['--output text', 3],
    ['--output quiet', 0],
  ])('wave run p %s | head -%i: printing stops, the run goes on and is recorded completed', async (flags, lines) => {
    const dir = project();
    const stderrFile = join(dir, 'wave.stderr');
    // The attack as a shell runs it; the script exits with wave's own status.
    const shell = await execa('bash', ['-c', `node "$1" run p ${flags} 2>"$2" | head -${lines}; exit "\${PIPESTATUS[0]}"`, 'sh', WAVE_BIN, stderrFile], {
      cwd: dir,
      reject: false,
      env: { NO_COLOR: '1' },
    });
    const stderr = readFileSync(stderrFile, 'utf8');
    expect(stderr).not.toMatch(/EPIPE|internal:|\n\s+at /);
    expect(shell.exitCode, stderr).toBe(0);
    expect(shell.stdout.split('\n').filter(Boolean)).toHaveLength(lines);
    const run = latestRun(dir);
    expect(run.status).toBe('completed');
    expect(Object.values(run.steps).map((s) => s.status)).toEqual(['completed', 'completed', 'completed']);
    expect(readFileSync(join(dir, '.wave', 'runs', run.id, 'events.ndjson'), 'utf8')).toContain('"type":"run_finished"');
  });

  it('a closed stderr too (`2>&1 | head -1`)', async () => {
    const dir = project();
    const shell = await execa('bash', ['-c', 'node "$1" run p --output text 2>&1 | head -1; exit "${PIPESTATUS[0]}"', 'sh', WAVE_BIN], { cwd: dir, reject: false });
    expect(shell.exitCode).toBe(0);
    expect(latestRun(dir).status).toBe('completed');
  });
});
