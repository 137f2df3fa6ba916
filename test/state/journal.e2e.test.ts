import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WAVE_BIN, runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { waitFor } from '../support/wait.js';

/** a -> b (slow unless b.fast exists) -> c, each leaving an artifact. */
function project(): string {
  const dir = makeProject({});
  const pipeline = `kind: WavePipeline
metadata: { name: chain }
steps:
  - id: a
    exec: { type: command, source: "echo A > a.txt" }
    output_artifacts: [{ name: a, path: a.txt }]
  - id: b
    dependencies: [a]
    exec: { type: command, source: "echo $$ > ${join(dir, 'b.pid')}; if [ ! -f ${join(dir, 'b.fast')} ]; then sleep 60; fi; echo B > b.txt" }
    output_artifacts: [{ name: b, path: b.txt }]
  - id: c
    dependencies: [b]
    exec: { type: command, source: "echo C" }
`;
  mkdirSync(join(dir, 'pipelines'));
  writeFileSync(join(dir, 'pipelines', 'chain.yaml'), pipeline);
  return dir;
}

/** `wave status <run> --json`, parsed. */
async function statusJson(dir: string, runId: string): Promise<Record<string, unknown>> {
  const result = await runWave(['status', runId, '--json'], { cwd: dir });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

const runDirOf = (dir: string, runId: string) => join(dir, '.wave', 'runs', runId);

describe('events.ndjson is the truth, run.json its snapshot', () => {
  it('a finished run with run.json deleted shows the same record', async () => {
    const dir = project();
    writeFileSync(join(dir, 'b.fast'), '');
    const ran = await runWave(['run', 'chain', '--run-id', 'done-run', '--output', 'quiet'], { cwd: dir });
    expect(ran.code, ran.stderr).toBe(0);
    const before = await statusJson(dir, 'done-run');
    expect(before.status).toBe('completed');
    rmSync(join(runDirOf(dir, 'done-run'), 'run.json'));
    expect(await statusJson(dir, 'done-run')).toEqual(before);
  });

  it('a killed run with run.json deleted shows the same record, and `wave resume` finishes it', async () => {
    const dir = project();
    const child = execa(process.execPath, [WAVE_BIN, 'run', 'chain', '--run-id', 'killed-run', '--output', 'quiet'], { cwd: dir, reject: false, stdin: 'ignore' });
    await waitFor(() => existsSync(join(runDirOf(dir, 'killed-run'), 'steps', 'b', 'attempt-1', 'pid')), 'step b to start');
    child.kill('SIGKILL');
    await child;
    const before = await statusJson(dir, 'killed-run');
    // The snapshot may lag; the events it lacks are folded in: `a` completed, `b` started.
    expect((before.steps as Record<string, { status: string }>).a!.status).toBe('completed');
    expect((before.steps as Record<string, { status: string }>).b!.status).toBe('running');
    rmSync(join(runDirOf(dir, 'killed-run'), 'run.json'));
    expect(await statusJson(dir, 'killed-run')).toEqual(before);
    writeFileSync(join(dir, 'b.fast'), '');
    const resumed = await runWave(['resume', 'killed-run', '--output', 'quiet'], { cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = await statusJson(dir, 'killed-run');
    expect(after.status).toBe('completed');
    expect(Object.values(after.steps as Record<string, { status: string }>).map((s) => s.status)).toEqual(['completed', 'completed', 'completed']);
    expect(JSON.parse(readFileSync(join(runDirOf(dir, 'killed-run'), 'run.json'), 'utf8')).status).toBe('completed');
  });
});
