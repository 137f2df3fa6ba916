import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processFailure } from '../../src/process/spawn-failure.js';
import { spawnInGroup } from '../../src/process/spawn.js';
import type { SpawnSpec } from '../../src/process/spawn-spec.js';
import { EVENT_VERSION, type RunEvent } from '../../src/events.js';
import { Redactor } from '../../src/redact.js';
import { RunStore } from '../../src/state/run-store.js';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';
import { requirementMet } from '../support/requirement.js';
import { waitFor } from '../support/wait.js';
import { sampleRecord, sampleStep } from './sample-run.js';

// A full disk is a small tmpfs; a read-only run folder is a tmpfs remounted read-only (mode bits do not stop root).
const mounted: string[] = [];

function isMountPoint(dir: string): boolean {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .some((line) => line.split(' ')[4] === dir);
}

function mountTmpfs(dir: string, size = '1m'): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  mounted.push(dir);
}

function remount(dir: string, options: string): void {
  execFileSync('mount', ['-o', `remount,${options}`, dir]);
}

/** Removes every mount stacked on `dir` (a step may have bound a read-only one over the tmpfs). */
function unmountAll(dir: string): void {
  // Lazily: a file a failed test left open must not keep the mount (and the next test run's tmpdir) busy.
  for (let i = 0; i < 10 && isMountPoint(dir); i++) execFileSync('umount', ['-l', dir]);
}

function canMountTmpfs(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const dir = mkdtempSync(join(tmpdir(), 'wave-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir]);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const enabled = requirementMet('mounting a tmpfs', canMountTmpfs(), 'run these tests as root on Linux (they mount small tmpfs file systems)');

afterAll(() => {
  for (const dir of mounted.splice(0)) unmountAll(dir);
});

/** Fills the file system holding `dir` to the last byte. */
function fill(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(16 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return file;
}

/** A fault ends the command with exit 1 and one io_error naming the cause and what to do: never a stack trace, never `internal`. */
function expectCleanFault(result: { code: number; stdout: string; stderr: string }, cause: 'ENOSPC' | 'EROFS', path: string): void {
  const all = `${result.stdout}\n${result.stderr}`;
  expect(result.code, all).toBe(1);
  expect(result.stderr, all).toMatch(new RegExp(`(^|\\n)io_error: cannot [^\\n]*${escape(path)}[^\\n]*\\(${cause}\\)`));
  expect(result.stderr, all).toMatch(cause === 'ENOSPC' ? /\n {2}hint: Free space on the disk holding / : /\n {2}hint: Make \S+ writable/);
  expect(all).not.toContain('internal');
  expect(all).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function runRecord(runDir: string): RunRecord {
  return JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')) as RunRecord;
}

function onlyRun(runsRoot: string, result?: { stdout: string; stderr: string }): string {
  const runs = readdirSync(runsRoot).filter((name) => name !== 'filler');
  expect(runs, result && `${result.stdout}\n${result.stderr}`).toHaveLength(1);
  return join(runsRoot, runs[0]!);
}

/** A project whose run folder is a fresh 1 MiB tmpfs; `count(id)` is a command appending to a counter file outside it. */
function faultProject(pipelines: (count: (id: string) => string, dir: string) => Record<string, string>) {
  const dir = makeProject({});
  const count = (id: string) => `echo x >> ${join(dir, `${id}.count`)}`;
  mkdirSync(join(dir, 'pipelines'), { recursive: true });
  for (const [name, text] of Object.entries(pipelines(count, dir))) writeFileSync(join(dir, 'pipelines', `${name}.yaml`), text);
  const runsRoot = join(dir, '.wave', 'runs');
  mountTmpfs(runsRoot);
  const runs = (id: string) =>
    existsSync(join(dir, `${id}.count`))
      ? readFileSync(join(dir, `${id}.count`), 'utf8')
          .split('\n')
          .filter(Boolean).length
      : 0;
  return { dir, runsRoot, runs };
}

describe.runIf(enabled)('disk faults in the run folder', () => {
  it('a full disk at the start: io_error with exit 1, no run folder left; a run starts once there is space', async () => {
    const { dir, runsRoot } = faultProject((count) => ({ p: commandPipeline('p', [['a', [], count('a')]]) }));
    const filler = fill(runsRoot);
    const result = await runWave(['run', 'p', '--output', 'text'], { cwd: dir });
    expectCleanFault(result, 'ENOSPC', runsRoot);
    expect(readdirSync(runsRoot)).toEqual(['filler']);
    rmSync(filler);
    expect((await runWave(['run', 'p', '--output', 'quiet'], { cwd: dir })).code).toBe(0);
  });

  it('a read-only run folder at the start: io_error with exit 1 and a hint to make it writable', async () => {
    const { dir, runsRoot } = faultProject((count) => ({ p: commandPipeline('p', [['a', [], count('a')]]) }));
    remount(runsRoot, 'ro');
    try {
      const result = await runWave(['run', 'p', '--output', 'text'], { cwd: dir });
      expectCleanFault(result, 'EROFS', runsRoot);
    } finally {
      remount(runsRoot, 'rw');
    }
  });

  it('a disk that fills mid-run: the step fails saying its output could not be saved, the run exits 1, resume finishes it', async () => {
    const { dir, runsRoot, runs } = faultProject((count) => ({
      big: commandPipeline('big', [
        ['a', [], count('a')],
        ['b', ['a'], `${count('b')}; yes 0123456789abcdef | head -c 3000000`],
        ['c', ['b'], count('c')],
      ]),
    }));
    const result = await runWave(['run', 'big', '--output', 'text'], { cwd: dir });
    const runDir = onlyRun(runsRoot, result);
    expectCleanFault(result, 'ENOSPC', runDir);
    // Whichever write meets the full disk first (b's stdout, run.json) is named; the step never dies of a closed pipe.
    expect(result.stdout).not.toContain('SIGPIPE');
    expect(runs('c')).toBe(0);
    expect(runRecord(runDir).id).toBe(runDir.split('/').at(-1)); // never a torn run.json
    // The disk is still full, yet the run is recorded as over (resumable), never left saying it is running.
    expect(runRecord(runDir).status).toBe('failed');
    expect(Object.values(runRecord(runDir).steps).map((step) => step.status)).not.toContain('running');
    expect(readdirSync(runDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    remount(runsRoot, 'size=16m');
    const resumed = await runWave(['resume', runDir.split('/').at(-1)!, '--output', 'text'], { cwd: dir });
    expect(resumed.code, `${resumed.stdout}\n${resumed.stderr}`).toBe(0);
    const record = runRecord(runDir);
    expect(record.status).toBe('completed');
    expect([runs('a'), runs('b'), runs('c')]).toEqual([1, 2, 1]);
    const attempts = record.steps.b!.attempts.map((a) => a.attempt);
    expect(new Set(attempts).size).toBe(attempts.length);
  });

  it('a run folder that turns read-only mid-run: exit 1 naming the path, and resume finishes once it is writable', async () => {
    const { dir, runsRoot, runs } = faultProject((count, project) => {
      const [once, go] = [join(project, 'waited'), join(project, 'go')];
      // The first time, b waits (its output files open) while the test makes the folder read-only under it.
      const wait = `if [ ! -e ${once} ]; then touch ${once}; echo waiting; while [ ! -e ${go} ]; do sleep 0.05; done; fi`;
      return {
        ro: commandPipeline('ro', [
          ['a', [], count('a')],
          ['b', ['a'], `${count('b')}; ${wait}; echo done`],
          ['c', ['b'], count('c')],
        ]),
      };
    });
    const running = runWave(['run', 'ro', '--output', 'text'], { cwd: dir });
    const stdout = await waitFor(() => {
      const [id] = readdirSync(runsRoot);
      const file = id && join(runsRoot, id, 'steps', 'b', 'attempt-1', 'stdout');
      return file && existsSync(file) && readFileSync(file, 'utf8').includes('waiting') && file;
    }, 'step b to wait');
    // A read-only mount bound over the folder: what Wave opens from now on is refused with EROFS (files open stay writable).
    execFileSync('mount', ['--bind', runsRoot, runsRoot]);
    remount(runsRoot, 'bind,ro');
    writeFileSync(join(dir, 'go'), '');
    const result = await running;
    const runDir = join(runsRoot, readdirSync(runsRoot)[0]!);
    expect(stdout.startsWith(runDir)).toBe(true);
    expectCleanFault(result, 'EROFS', runDir);
    expect(runs('c')).toBe(0);
    expect(runRecord(runDir).id).toBe(runDir.split('/').at(-1));

    execFileSync('umount', [runsRoot]); // the bound read-only mount; the tmpfs below is writable
    const resumed = await runWave(['resume', runDir.split('/').at(-1)!, '--output', 'text'], { cwd: dir });
    expect(resumed.code, `${resumed.stdout}\n${resumed.stderr}`).toBe(0);
    expect(runRecord(runDir).status).toBe('completed');
    expect([runs('a'), runs('c')]).toEqual([1, 1]);
  });

  it.each(['EROFS', 'ENOSPC'] as const)('a resume that meets %s exits 1 cleanly, and a later one finishes the run', async (cause) => {
    const { dir, runsRoot, runs } = faultProject((count, project) => ({
      flaky: commandPipeline('flaky', [
        ['a', [], count('a')],
        ['b', ['a'], `${count('b')}; test -e ${join(project, 'fixed')}`],
      ]),
    }));
    const first = await runWave(['run', 'flaky', '--output', 'quiet'], { cwd: dir });
    expect(first.code).toBe(1);
    const runId = onlyRun(runsRoot, first).split('/').at(-1)!;
    const before = readFileSync(join(runsRoot, runId, 'run.json'), 'utf8');
    writeFileSync(join(dir, 'fixed'), '');
    let filler: string | undefined;
    if (cause === 'EROFS') remount(runsRoot, 'ro');
    else filler = fill(runsRoot);
    let refused;
    try {
      refused = await runWave(['resume', runId, '--output', 'text'], { cwd: dir });
    } finally {
      if (cause === 'EROFS') remount(runsRoot, 'rw');
      if (filler) rmSync(filler);
    }
    // Whichever write came first (the run's lock, run.json) names the run folder.
    expect(refused.code, `${refused.stdout}\n${refused.stderr}`).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`(^|\\n)io_error: [^\\n]*${escape(join(runsRoot, runId))}[^\\n]*${cause}`));
    expect(refused.stderr).toMatch(/\n {2}hint: /);
    expect(`${refused.stdout}${refused.stderr}`).not.toMatch(/internal|\n\s+at .+:\d+:\d+/);
    expect(readFileSync(join(runsRoot, runId, 'run.json'), 'utf8')).toBe(before);

    const resumed = await runWave(['resume', runId, '--output', 'text'], { cwd: dir });
    expect(resumed.code, `${resumed.stdout}\n${resumed.stderr}`).toBe(0);
    expect(runRecord(join(runsRoot, runId)).status).toBe('completed');
    expect(runs('a')).toBe(1);
  });
});

describe.runIf(enabled)('RunStore on a failing disk', () => {
  const event = (runId: string, stepId: string): RunEvent => ({ v: EVENT_VERSION, ts: new Date().toISOString(), runId, type: 'step_cancelled', stepId });

  it('a failed run.json write is a fault told to its listeners, never a throw, and the last good run.json stays', () => {
    const root = join(mkdtempSync(join(tmpdir(), 'wave-store-fault-')), 'runs');
    mountTmpfs(root);
    const store = RunStore.create(root, sampleRecord('r-fault', { status: 'pending' }, [sampleStep('a')]));
    const faults: string[] = [];
    store.onFault((fault) => faults.push(fault.message));
    remount(root, 'ro');
    try {
      expect(() => {
        store.appendEvent({ v: EVENT_VERSION, ts: new Date().toISOString(), runId: 'r-fault', type: 'run_started', pipeline: 'hello', steps: ['a'], resumed: false });
        store.flush();
        store.appendEvent(event('r-fault', 'a'));
      }).not.toThrow();
    } finally {
      remount(root, 'rw');
    }
    // The first write that failed is the first event's; the run.json snapshots after it failed too.
    expect(faults).toEqual([`cannot write ${join(store.dir, 'events.ndjson')}: the file system is read-only (EROFS)`]);
    expect(store.fault?.code).toBe('io_error');
    expect(store.fault?.hint).toContain('`wave resume r-fault`');
    expect(runRecord(store.dir).status).toBe('pending');
    // Once the disk is back the next flush writes what was waiting.
    expect(store.flush()).toBe(true);
    expect(runRecord(store.dir).status).toBe('running');
    expect(() => store.close()).toThrow(/EROFS/);
  });

  it('an event append torn by a full disk stays alone on its line: the next events read back', () => {
    const root = join(mkdtempSync(join(tmpdir(), 'wave-store-torn-')), 'runs');
    mountTmpfs(root, '64k');
    const store = RunStore.create(root, sampleRecord('r-torn', {}, [sampleStep('a')]));
    const filler = fill(root);
    // One page free: the 16 KB line is written in part, then the disk is full.
    truncateSync(filler, statSync(filler).size - 4096);
    store.appendEvent(event('r-torn', 'lost'.repeat(4000)));
    expect(store.fault?.message).toContain('(ENOSPC)');
    expect(readFileSync(join(store.dir, 'events.ndjson')).length).toBeGreaterThan(0);
    rmSync(filler);
    store.appendEvent(event('r-torn', 'after'));
    expect(store.readEvents().flatMap((e) => ('stepId' in e ? [e.stepId] : []))).toEqual(['after']);
    expect(() => store.close()).toThrow(/ENOSPC/);
  });
});

describe.runIf(enabled)('a step whose output file cannot be written', () => {
  const spec = (dir: string, script: string): SpawnSpec => ({
    command: 'sh',
    args: ['-c', script],
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdoutPath: join(dir, 'attempt', 'stdout'),
    stderrPath: join(dir, 'attempt', 'stderr'),
    redactor: new Redactor([]),
    graceMs: 500,
  });
  // SIGPIPE ignored: the process would print (and fail) forever, so only Wave stopping it ends the step.
  const endless = "trap '' PIPE; while :; do echo 0123456789abcdef 0123456789abcdef || true; done";

  it.each([
    ['full', 'ENOSPC', 'no space left on the device (ENOSPC)', 'Free space on the disk holding'],
    ['read-only', 'EROFS', 'the file system is read-only (EROFS)', 'writable'],
  ] as const)('on a %s disk fails saying so, and its process is stopped', async (kind, code, cause, hint) => {
    const dir = join(mkdtempSync(join(tmpdir(), 'wave-output-fault-')), 'disk');
    mountTmpfs(dir, '64k');
    mkdirSync(join(dir, 'attempt'));
    if (kind === 'full') fill(dir);
    else remount(dir, 'ro');
    try {
      const started = Date.now();
      const result = await spawnInGroup(spec(dir, endless));
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(result.outputError?.code).toBe(code);
      const failure = processFailure(result, spec(dir, endless), 'command', new Redactor([]));
      // Either file may be refused first when both are opened on a read-only disk.
      expect(failure?.message).toMatch(
        new RegExp(`^the step's output could not be saved to ${escape(join(dir, 'attempt'))}/std(out|err): ${escape(cause)}; the process was stopped$`),
      );
      expect(failure?.hint).toContain(hint);
    } finally {
      if (kind === 'read-only') remount(dir, 'rw');
    }
  });
});
