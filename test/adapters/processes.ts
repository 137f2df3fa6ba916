import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';
import { signalGroup } from '../../src/process/process-group.js';
import type { AdapterRunConfig } from '../../src/adapters/types.js';

/** Absolute path of a fixture script in test/fixtures/processes. */
export const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/processes/${name}`, import.meta.url));

/**
 * Whether a process is still running. A zombie counts as gone: it has exited, only nobody reaped it
 * (PID 1 in some containers never does).
 */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** A fresh scratch folder and its removal. */
export async function scratchDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'wave-process-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Per test: a fresh scratch folder handed to `use`, removed afterwards; the process groups a test pushes onto
 * the returned list are killed afterwards, so a failing test leaves nothing running.
 */
export function scratchPerTest(use: (dir: string) => void): number[] {
  const groups: number[] = [];
  let remove = async () => {};
  beforeEach(async () => {
    const scratch = await scratchDir();
    remove = scratch.remove;
    use(scratch.dir);
  });
  afterEach(async () => {
    for (const pgid of groups.splice(0)) signalGroup(pgid, 'SIGKILL');
    await remove();
  });
  return groups;
}

/** A promise resolved by the first value `take` accepts, and the callback to feed it. */
export function firstMatch<T, A extends unknown[]>(take: (...args: A) => T | undefined): { promise: Promise<T>; feed: (...args: A) => void } {
  let resolve!: (value: T) => void;
  let done = false;
  const promise = new Promise<T>((r) => (resolve = r));
  return {
    promise,
    feed: (...args: A) => {
      if (done) return;
      const value = take(...args);
      if (value !== undefined) {
        done = true;
        resolve(value);
      }
    },
  };
}

/** An attempt of a command step in `dir`, whose group pid is pushed to `groups` (reaped after the test). */
export function commandRunConfig(dir: string, groups: number[], extra: Partial<AdapterRunConfig> = {}): AdapterRunConfig {
  return {
    runId: 'test-20250101-000000-abcd',
    stepId: 'step',
    attempt: 1,
    adapter: { name: 'tool', type: 'process', env: {}, isolated: false },
    prompt: 'true',
    execType: 'command',
    workspace: dir,
    attemptDir: join(dir, 'attempt-1'),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    graceMs: 500,
    maxLineBytes: 10 * 1024 * 1024,
    onSpawn: (pid) => groups.push(pid),
    ...extra,
  };
}
