import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Launcher } from '../../src/process/launched-process.js';
import { launchLocal } from '../../src/process/launch-local.js';
import { spawnInGroup } from '../../src/process/spawn.js';
import type { SpawnSpec } from '../../src/process/spawn-spec.js';
import { Redactor } from '../../src/redact.js';
import { killCgroupsAvailable } from '../support/sandbox.js';
import { waitFor } from '../support/wait.js';
import { firstMatch, fixture, isRunning, scratchPerTest } from './processes.js';

const GRACE_MS = 500;
/** Far above grace: the bound only says the kill sequence does not hang. */
const MARGIN_MS = 20_000;

let dir: string;
const groups = scratchPerTest((scratch) => (dir = scratch));

function spec(command: string, args: string[], extra: Partial<SpawnSpec> = {}): SpawnSpec {
  return {
    command,
    args,
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdoutPath: join(dir, 'attempt', 'stdout'),
    stderrPath: join(dir, 'attempt', 'stderr'),
    redactor: new Redactor([]),
    graceMs: GRACE_MS,
    ...extra,
  };
}

describe('spawnInGroup: killing the process group', () => {
  it.each([
    ['a timeout', { class: 'timeout', message: 'step ran past its time limit' }, []],
    ['a cancel', { class: 'aborted', message: 'cancelled' }, []],
    ['a timeout, leader ignoring SIGTERM too', { class: 'timeout', message: 'late' }, ['--leader-ignores-term']],
    ['a cancel, leader ignoring SIGTERM too', { class: 'aborted', message: 'cancelled' }, ['--leader-ignores-term']],
  ])('leaves no process of the group after %s', async (_name, reason, flags) => {
    const controller = new AbortController();
    const ready = firstMatch((line: string) => (line.startsWith('{"ready"') ? (JSON.parse(line).pids as number[]) : undefined));
    const running = spawnInGroup(
      spec(process.execPath, [fixture('group-ignores-term.mjs'), ...flags], { onLine: ready.feed, onSpawn: (pid) => groups.push(pid) }),
      controller.signal,
    );
    const pids = await ready.promise;
    expect(pids).toHaveLength(4);
    expect(pids.every(isRunning)).toBe(true);

    const abortedAt = Date.now();
    controller.abort(reason);
    const result = await running;
    const elapsed = Date.now() - abortedAt;

    expect(pids.filter(isRunning)).toEqual([]);
    expect(elapsed).toBeLessThan(GRACE_MS + MARGIN_MS);
    expect(result.aborted).toBe(true);
    expect(result.abortReason).toEqual(reason);
    expect(result.spawnError).toBeUndefined();
    expect(result.exitCode === null || result.exitCode !== 0).toBe(true);
  });

  it('ends what the leader left running in its group when it exits', async () => {
    const result = await spawnInGroup(spec('/bin/sh', ['-c', 'trap "" TERM; sleep 300 & echo $!'], { onSpawn: (pid) => groups.push(pid) }));
    const background = Number((await readFile(join(dir, 'attempt', 'stdout'), 'utf8')).trim());
    expect(result.exitCode).toBe(0);
    expect(background).toBeGreaterThan(0);
    expect(isRunning(background)).toBe(false);
  });

  it('kills live groups when the parent process exits', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [fixture('exit-with-live-group.mjs'), dir]);
    const pgid = Number(stdout.trim());
    expect(pgid).toBeGreaterThan(0);
    // The exit hook sends SIGKILL as the parent goes; wait for the kernel to finish the job.
    await waitFor(() => !isRunning(pgid), `group ${pgid} to die`);
    expect(isRunning(pgid)).toBe(false);
  });

  it('does not start anything when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort({ class: 'aborted', message: 'cancelled before start' });
    const marker = join(dir, 'started');
    const result = await spawnInGroup(spec('/bin/sh', ['-c', `touch ${marker}`]), controller.signal);
    expect(result).toMatchObject({ aborted: true, abortReason: { class: 'aborted' }, exitCode: null });
    expect(result.pid).toBeUndefined();
    await expect(stat(marker)).rejects.toThrow();
    expect(await readFile(join(dir, 'attempt', 'stdout'), 'utf8')).toBe('');
  });

  it('stops a process whose cancel landed while it was being launched', async () => {
    const controller = new AbortController();
    const launchThenCancel: Launcher = async (launched) => {
      const started = await launchLocal(launched);
      controller.abort({ class: 'aborted', message: 'cancelled during the launch' });
      return started;
    };
    const result = await spawnInGroup(spec('/bin/sh', ['-c', 'sleep 60'], { onSpawn: (pid) => groups.push(pid) }), controller.signal, launchThenCancel);
    expect(result).toMatchObject({ aborted: true, abortReason: { message: 'cancelled during the launch' } });
    expect(isRunning(result.pid!)).toBe(false);
  });
});

const killCgroups = await killCgroupsAvailable('a step that leaves its session and clears its environment outlives the step (the /proc sweep cannot find it)');

describe.runIf(killCgroups)('spawnInGroup: a step in a cgroup of its own', () => {
  it('ends a double-forked daemon that left its session and cleared its environment when the step exits', async () => {
    const pidFile = join(dir, 'daemon.pid');
    const daemon = `(setsid env -i /bin/sh -c 'echo $$ > "$0"; exec /bin/sleep 300' ${pidFile} > /dev/null 2>&1 &); while [ ! -s ${pidFile} ]; do sleep 0.01; done`;
    const result = await spawnInGroup(spec('/bin/sh', ['-c', daemon], { onSpawn: (pid) => groups.push(pid) }));
    expect(result.exitCode).toBe(0);
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(isRunning(pid)).toBe(false);
  });

  it("kills a live step's cgroup when the parent process exits, a daemon that left the group included", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [fixture('exit-with-live-group.mjs'), dir, 'daemon']);
    const daemon = Number(stdout.trim());
    expect(daemon).toBeGreaterThan(0);
    await waitFor(() => !isRunning(daemon), `daemon ${daemon} to die`, 5_000).catch(() => undefined);
    expect(isRunning(daemon)).toBe(false);
  });

  it('still reports a missing binary as a spawn error and keeps the exit codes of the program', async () => {
    expect((await spawnInGroup(spec('wave-no-such-binary', []))).spawnError?.code).toBe('ENOENT');
    expect((await spawnInGroup(spec('/bin/sh', ['-c', 'exit 7']))).exitCode).toBe(7);
  });
});

describe('spawnInGroup: input and output', () => {
  it('writes stdin then closes it, and leaves stdin empty when none is given', async () => {
    const args = [fixture('print-argv.mjs')];
    await spawnInGroup(spec(process.execPath, args, { stdin: 'line one\nline "two" \u00e9\n' }));
    expect(JSON.parse(await readFile(join(dir, 'attempt', 'stdout'), 'utf8'))).toEqual({ argv: [], stdin: 'line one\nline "two" é\n' });
    await spawnInGroup(spec(process.execPath, args));
    expect(JSON.parse(await readFile(join(dir, 'attempt', 'stdout'), 'utf8'))).toEqual({ argv: [], stdin: '' });
  });

  it('streams both outputs to files and lines, with tails', async () => {
    const lines: string[] = [];
    const pids: number[] = [];
    const result = await spawnInGroup(
      spec('/bin/sh', ['-c', 'printf "out1\\r\\nout2"; printf "err1\\n" >&2; exit 3'], {
        onLine: (line, stream) => lines.push(`${stream}:${line}`),
        onSpawn: (pid) => pids.push(pid),
        captureStdoutBytes: 1024,
      }),
    );
    expect(result.exitCode).toBe(3);
    expect(lines.sort()).toEqual(['stderr:err1', 'stdout:out1', 'stdout:out2']);
    expect(await readFile(join(dir, 'attempt', 'stdout'), 'utf8')).toBe('out1\r\nout2');
    expect(await readFile(join(dir, 'attempt', 'stderr'), 'utf8')).toBe('err1\n');
    expect(result.stdoutTail).toBe('out1\r\nout2');
    expect(result.stderrTail).toBe('err1\n');
    expect(result.tail).toContain('err1');
    expect(pids).toEqual([result.pid]);
  });

  it('reports output bytes while output flows, every byte counted once', async () => {
    const reports: number[] = [];
    // Writes for about a second in small pieces, so several intervals pass while output flows.
    const script = 'let n = 0; const t = setInterval(() => { process.stdout.write("x".repeat(1000)); if (++n === 40) clearInterval(t); }, 25);';
    await spawnInGroup(spec(process.execPath, ['-e', script], { onOutput: (bytes) => reports.push(bytes) }));
    expect(reports.length).toBeGreaterThan(1);
    expect(reports.reduce((a, b) => a + b, 0)).toBe(40_000);
  });

  it('skips and counts a 20 MB line and still delivers the lines after it', async () => {
    const lines: string[] = [];
    const result = await spawnInGroup(spec(process.execPath, [fixture('long-line.mjs')], { onLine: (line) => lines.push(line), maxLineBytes: 10 * 1024 * 1024 }));
    expect(result.exitCode).toBe(0);
    expect(result.skippedLines).toBe(1);
    expect(lines).toEqual(['before', 'after']);
    expect((await stat(join(dir, 'attempt', 'stdout'))).size).toBe(20 * 1024 * 1024 + 'before\n\nafter\n'.length);
  });

  it('reports a missing binary as a spawn error', async () => {
    const result = await spawnInGroup(spec('wave-no-such-binary', []));
    expect(result.spawnError?.code).toBe('ENOENT');
    expect(result.exitCode).not.toBe(0);
    expect(await readFile(join(dir, 'attempt', 'stdout'), 'utf8')).toBe('');
  });

  it('reports an output folder that cannot be made as a spawn error, starting nothing', async () => {
    const result = await spawnInGroup(spec('/bin/true', [], { stdoutPath: '/dev/null/attempt/stdout' }));
    expect(result.spawnError?.syscall).toBe('mkdir');
    expect(result.pid).toBeUndefined();
  });

  it('reports an argument the OS cannot take as a spawn error instead of throwing', async () => {
    const result = await spawnInGroup(spec('/bin/echo', ['nul\0byte']));
    expect(result.spawnError).toMatchObject({ name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' });
    expect(result.pid).toBeUndefined();
  });
});
