import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sleep } from '../core/sleep.js';
import type { SandboxLimits } from './types.js';

const ROOT = '/sys/fs/cgroup';
const MIB = 1024 * 1024;
const CPU_PERIOD_US = 100_000;

/** A cgroup (one folder per v1 controller, or one v2 folder) holding one sandboxed attempt. */
export interface CgroupJail {
  /** The cgroup.procs files the attempt's first process writes its pid into before it execs bubblewrap. */
  readonly procsFiles: readonly string[];
  /** Which limit stopped the attempt, read from the kernel's counters. */
  limitExceeded(): Promise<string | undefined>;
  /** Removes the cgroup once its processes are gone; never rejects. */
  remove(): Promise<void>;
}

/** This process's cgroup path per v1 controller, and its v2 path under "". */
function ownCgroups(): Map<string, string> {
  const paths = new Map<string, string>();
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const [, controllers, path] = line.split(':');
    if (path === undefined || controllers === undefined) continue;
    for (const controller of controllers.split(',')) paths.set(controller, path);
  }
  return paths;
}

const count = (text: string, key: string): number => Number(new RegExp(`^${key} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
const readOr = (path: string) => readFile(path, 'utf8').catch(() => '');

/** The cgroup v1 jail: memory, pids and cpu folders beside this process's own cgroups. */
async function v1Jail(name: string, limits: SandboxLimits, own: Map<string, string>): Promise<CgroupJail> {
  const dirs = {
    memory: join(ROOT, 'memory', own.get('memory') ?? '/', name),
    pids: join(ROOT, 'pids', own.get('pids') ?? '/', name),
    cpu: join(ROOT, 'cpu', own.get('cpu') ?? own.get('cpu,cpuacct') ?? '/', name),
  };
  const made: string[] = [];
  const remove = async () => {
    for (const dir of made) await rmdir(dir).catch(() => undefined);
  };
  try {
    for (const dir of Object.values(dirs)) {
      await mkdir(dir);
      made.push(dir);
    }
    await writeFile(join(dirs.memory, 'memory.limit_in_bytes'), String(limits.memoryMb * MIB));
    // No swap either, where the kernel accounts it: a limit that swaps is no limit.
    if (existsSync(join(dirs.memory, 'memory.memsw.limit_in_bytes'))) await writeFile(join(dirs.memory, 'memory.memsw.limit_in_bytes'), String(limits.memoryMb * MIB));
    await writeFile(join(dirs.pids, 'pids.max'), String(limits.pids));
    await writeFile(join(dirs.cpu, 'cpu.cfs_period_us'), String(CPU_PERIOD_US));
    await writeFile(join(dirs.cpu, 'cpu.cfs_quota_us'), String(Math.round(limits.cpus * CPU_PERIOD_US)));
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    procsFiles: Object.values(dirs).map((dir) => join(dir, 'cgroup.procs')),
    limitExceeded: async () => {
      if (count(await readOr(join(dirs.memory, 'memory.oom_control')), 'oom_kill') > 0) return `memory limit of ${limits.memoryMb} MB reached (runtime.sandbox.limits.memory_mb)`;
      if (count(await readOr(join(dirs.pids, 'pids.events')), 'max') > 0) return `process limit of ${limits.pids} reached (runtime.sandbox.limits.pids)`;
      return undefined;
    },
    remove,
  };
}

/** The cgroup v2 jail, at the root: only a cgroup with no processes of its own may hand controllers to a child. */
async function v2Jail(name: string, limits: SandboxLimits): Promise<CgroupJail> {
  const dir = join(ROOT, name);
  await writeFile(join(ROOT, 'cgroup.subtree_control'), '+memory +pids +cpu');
  await mkdir(dir);
  try {
    await writeFile(join(dir, 'memory.max'), String(limits.memoryMb * MIB));
    await writeFile(join(dir, 'memory.swap.max'), '0').catch(() => undefined);
    await writeFile(join(dir, 'pids.max'), String(limits.pids));
    await writeFile(join(dir, 'cpu.max'), `${Math.round(limits.cpus * CPU_PERIOD_US)} ${CPU_PERIOD_US}`);
  } catch (error) {
    await rmdir(dir).catch(() => undefined);
    throw error;
  }
  return {
    procsFiles: [join(dir, 'cgroup.procs')],
    limitExceeded: async () => {
      if (count(await readOr(join(dir, 'memory.events')), 'oom_kill') > 0) return `memory limit of ${limits.memoryMb} MB reached (runtime.sandbox.limits.memory_mb)`;
      if (count(await readOr(join(dir, 'pids.events')), 'max') > 0) return `process limit of ${limits.pids} reached (runtime.sandbox.limits.pids)`;
      return undefined;
    },
    remove: () => rmdir(dir).catch(() => undefined),
  };
}

/** Whether a process is alive; EPERM means it exists under another user. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the empty cgroups that Wave processes killed outright (kill -9) left behind; never rejects. */
export async function sweepOrphanedJails(): Promise<void> {
  const own = existsSync('/proc/self/cgroup') ? ownCgroups() : new Map<string, string>();
  const parents = existsSync(join(ROOT, 'cgroup.controllers')) ? [ROOT] : ['memory', 'pids', 'cpu'].map((c) => join(ROOT, c, own.get(c) ?? '/'));
  for (const parent of parents) {
    const names = await readdir(parent).catch(() => [] as string[]);
    for (const name of names) {
      const pid = Number(/^wave-(\d+)-/.exec(name)?.[1]);
      if (pid && !alive(pid)) await rmdir(join(parent, name)).catch(() => undefined);
    }
  }
}

/** Creates the cgroup of one attempt with its limits; throws when this host does not let Wave make one. */
export async function createCgroupJail(name: string, limits: SandboxLimits): Promise<CgroupJail> {
  let jail: CgroupJail;
  if (existsSync(join(ROOT, 'memory', 'memory.limit_in_bytes')) || existsSync(join(ROOT, 'memory', 'cgroup.procs'))) jail = await v1Jail(name, limits, ownCgroups());
  else if (existsSync(join(ROOT, 'cgroup.controllers'))) jail = await v2Jail(name, limits);
  else throw new Error(`no cgroup hierarchy at ${ROOT}`);
  return { ...jail, remove: () => emptyCgroup(jail.procsFiles).then(() => jail.remove()) };
}

/** The most an ended attempt's cgroup is waited on to empty. */
const EMPTY_WAIT_MS = 5000;

/**
 * Ends what is left in an attempt's cgroup and waits until it is empty: once bwrap exits, its namespace's processes
 * are still being torn down by the kernel, and an attempt counts as ended only when none is left.
 */
async function emptyCgroup(procsFiles: readonly string[]): Promise<void> {
  const deadline = Date.now() + EMPTY_WAIT_MS;
  for (;;) {
    const pids = (await Promise.all(procsFiles.map(readOr))).join('\n').split('\n').filter(Boolean).map(Number);
    if (!pids.length || Date.now() > deadline) return;
    for (const pid of new Set(pids)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    await sleep(50);
  }
}
