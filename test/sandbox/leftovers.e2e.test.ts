import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { cgroup2Root } from '../../src/process/cgroup-limits.js';
import { runWave, WAVE_BIN } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { backendAvailable, killCgroupsAvailable, marker, processesWith, sandboxRuntime } from '../support/sandbox.js';
import { waitFor } from '../support/wait.js';

function manifest(backend: 'none' | 'bubblewrap'): string {
  return `kind: WaveManifest
metadata: { name: leftovers }
runtime:
  timeouts: { process_grace_seconds: 1 }
${sandboxRuntime(backend)}`;
}

/** A project of one command step, and `wave run` of it started in the background with Wave's temp folder set. */
function startRun(backend: 'none' | 'bubblewrap', command: string, temp: string) {
  const project = makeProject({ 'wave.yaml': manifest(backend), 'pipelines/p.yaml': commandPipeline('p', [['step', [], command]]) });
  const wave = execa(process.execPath, [WAVE_BIN, 'run', 'p', '--output', 'quiet'], { cwd: project, reject: false, env: { TMPDIR: temp } });
  return { project, wave };
}

/** The attempt temp folders in `temp`. */
const roomsIn = (temp: string): string[] => readdirSync(temp).filter((name) => name.startsWith('wave-sbx-'));

describe.skipIf(!backendAvailable('bubblewrap'))('bubblewrap: what a killed run leaves', () => {
  it("the next run removes a killed run's attempt folder, and leaves a live run's alone", async () => {
    const temp = mkdtempSync(join(tmpdir(), 'wave-leftovers-'));
    const killed = startRun('bubblewrap', `sleep ${marker()}`, temp);
    const [killedRoom] = await waitFor(() => roomsIn(temp).length === 1 && roomsIn(temp), 'the first run to prepare its sandbox');
    const live = startRun('bubblewrap', 'while [ ! -e release ]; do sleep 0.05; done', temp);
    const liveRoom = await waitFor(() => roomsIn(temp).find((name) => name !== killedRoom), 'the second run to prepare its sandbox');
    killed.wave.kill('SIGKILL');
    await killed.wave;
    expect(existsSync(join(temp, killedRoom!, 'passwd'))).toBe(true);

    const next = makeProject({ 'wave.yaml': manifest('none'), 'pipelines/q.yaml': commandPipeline('q', [['quick', [], 'true']]) });
    const run = await runWave(['run', 'q', '--output', 'quiet'], { cwd: next, env: { TMPDIR: temp } });
    expect(run.code, run.stderr).toBe(0);
    expect(roomsIn(temp)).toEqual([liveRoom]);

    // The live step waits for a file in its workspace, the one host folder it sees.
    const workspace = await waitFor(() => latestRun(live.project).steps.step?.workspace, 'the live step to record its workspace');
    writeFileSync(join(workspace, 'release'), '');
    expect((await live.wave).exitCode).toBe(0);
    expect(roomsIn(temp)).toEqual([]);
  });
});

/** The cgroups a Wave process made for its attempts: named `wave-<pid>-…` beside this process's own, under v1 or v2. */
function attemptCgroups(pid: number): string[] {
  const own = readFileSync('/proc/self/cgroup', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .filter((parts) => parts.length === 3);
  const parents = own.flatMap(([, controllers, path]) =>
    controllers!
      .split(',')
      .filter(Boolean)
      .map((c) => join('/sys/fs/cgroup', c, path!)),
  );
  const roots = [...parents, cgroup2Root()].filter((dir): dir is string => dir !== undefined && existsSync(dir));
  return roots.flatMap((dir) => readdirSync(dir).filter((name) => name.startsWith(`wave-${pid}-`)));
}

describe.skipIf(!backendAvailable('bubblewrap'))('bubblewrap: what a finished run leaves', () => {
  it('nothing: its attempt folders, FIFO pool and cgroups are gone once `wave run` exits', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'wave-leftovers-'));
    const { project, wave } = startRun('bubblewrap', 'while [ ! -e release ]; do sleep 0.05; done', temp);
    const workspace = await waitFor(() => latestRun(project).steps.step?.workspace, 'the step to record its workspace');
    await waitFor(() => roomsIn(temp).length === 1, "the step's attempt folder");
    const ours = (name: string) => name.startsWith(`wave-fifos-${wave.pid}-`);
    expect(readdirSync(temp).filter(ours)).toHaveLength(1);
    // Made only where this host lets Wave make cgroups, as the limits are.
    const jailed = attemptCgroups(wave.pid!).length > 0;
    writeFileSync(join(workspace, 'release'), '');
    expect((await wave).exitCode).toBe(0);
    expect(roomsIn(temp)).toEqual([]);
    expect(readdirSync(temp).filter(ours)).toEqual([]);
    if (jailed) expect(attemptCgroups(wave.pid!)).toEqual([]);
  });
});

const killCgroups = await killCgroupsAvailable('the processes of a killed run on backend none stay until `wave resume` or `wave cancel` of that run stops them');

describe.runIf(killCgroups)('none: what a killed run leaves', () => {
  it("the next run ends a killed run's step, daemon included, and removes its cgroup", async () => {
    const temp = mkdtempSync(join(tmpdir(), 'wave-leftovers-'));
    const [step, daemon] = [marker(), marker()];
    const killed = startRun('none', `(setsid env -i /bin/sleep ${daemon} > /dev/null 2>&1 &); sleep ${step}`, temp);
    await waitFor(() => processesWith(`sleep ${step}`).length > 0 && processesWith(`sleep ${daemon}`).length > 0, 'the step and its daemon to start');
    const cgroups = () => readdirSync(cgroup2Root()!).filter((name) => name.startsWith(`wave-${killed.wave.pid}-`));
    // Checked while Wave lives: once it is killed, any Wave's next run on this machine may sweep them.
    expect(cgroups()).toHaveLength(1);
    killed.wave.kill('SIGKILL');
    await killed.wave;

    const next = makeProject({ 'wave.yaml': manifest('none'), 'pipelines/q.yaml': commandPipeline('q', [['quick', [], 'true']]) });
    expect((await runWave(['run', 'q', '--output', 'quiet'], { cwd: next, env: { TMPDIR: temp } })).code).toBe(0);
    expect(processesWith(`sleep ${step}`)).toEqual([]);
    expect(processesWith(`sleep ${daemon}`)).toEqual([]);
    expect(cgroups()).toEqual([]);
  });
});
