import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ownerIsGone } from './owner-tag.js';
import { readProcFile } from './proc-file.js';
import { sleep } from '../core/sleep.js';

/** What a cgroup holds its processes to. */
export interface CgroupLimits {
  memoryMb: number;
  pids: number;
  cpus: number;
}

const ROOT = '/sys/fs/cgroup';
const MIB = 1024 * 1024;
const CPU_PERIOD_US = 100_000;

/** A cgroup (one folder per v1 controller, or one v2 folder) holding one attempt. */
export interface CgroupJail {
  /** The cgroup.procs files the attempt's first process writes its pid into before it execs the program. */
  readonly procsFiles: readonly string[];
  /** Which limit stopped the attempt, read from the kernel's counters. */
  limitExceeded(): Promise<string | undefined>;
  /** Whether any process is left in the cgroup. */
  populated(): Promise<boolean>;
  /** Kills every process left in the cgroup and waits until it is empty; never rejects. */
  kill(): Promise<void>;
  /** Kills what is left, then removes the cgroup; never rejects. */
  remove(): Promise<void>;
}

/** A cgroup as made, before createCgroupJail adds what every jail does the same way. */
type MadeCgroup = Pick<CgroupJail, 'procsFiles' | 'limitExceeded' | 'remove'>;

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
async function v1Jail(name: string, limits: CgroupLimits, own: Map<string, string>): Promise<MadeCgroup> {
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
async function v2Jail(name: string, limits: CgroupLimits): Promise<MadeCgroup> {
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

/** Where the cgroup v2 hierarchy is, once looked up: a step's cgroup is made under it, and its mount does not move. */
let hierarchy: { root: string | undefined } | undefined;

/** The cgroup v2 hierarchy: /sys/fs/cgroup itself, or /sys/fs/cgroup/unified beside v1 controllers (a hybrid host). */
export function cgroup2Root(): string | undefined {
  hierarchy ??= { root: [ROOT, join(ROOT, 'unified')].find((dir) => existsSync(join(dir, 'cgroup.controllers'))) };
  return hierarchy.root;
}

/** Whether this kernel's cgroups have cgroup.kill, once a cgroup showed it: a kernel feature, the same for every step. */
let hasKillFile: boolean | undefined;

/** Kills what is left in the cgroups that Wave processes now gone (killed outright, crashed) made, and removes them; never rejects. */
export async function sweepOrphanedJails(): Promise<void> {
  const own = existsSync('/proc/self/cgroup') ? ownCgroups() : new Map<string, string>();
  const v1 = existsSync(join(ROOT, 'cgroup.controllers')) ? [] : ['memory', 'pids', 'cpu'].map((c) => join(ROOT, c, own.get(c) ?? '/'));
  for (const parent of [...v1, cgroup2Root()].filter((dir): dir is string => dir !== undefined)) {
    const names = await readdir(parent).catch(() => [] as string[]);
    for (const name of names.filter((n) => ownerIsGone(n, 'wave-'))) {
      const dir = join(parent, name);
      await emptyCgroup([join(dir, 'cgroup.procs')]);
      await rmdir(dir).catch(() => undefined);
    }
  }
}

/** Adds to a made cgroup what every jail does alike: the emptiness check, the kill, and a removal that kills first. */
function asJail(made: MadeCgroup): CgroupJail {
  const kill = () => emptyCgroup(made.procsFiles);
  return { ...made, populated: async () => pidsIn(made.procsFiles).length > 0, kill, remove: () => kill().then(() => made.remove()) };
}

/**
 * A cgroup v2 of its own for one step run on the host (backend none): no limits, only a place every process the step
 * starts stays in, whatever it does to its session or environment, so that cgroup.kill ends them all. Throws when the
 * host has no writable cgroup v2 with cgroup.kill (Linux 5.14).
 */
export async function createKillCgroup(name: string): Promise<CgroupJail> {
  const root = cgroup2Root();
  if (!root) throw new Error(`no cgroup v2 hierarchy at ${ROOT}`);
  if (hasKillFile === false) throw new Error(NO_KILL_FILE);
  const dir = join(root, name);
  await mkdir(dir);
  hasKillFile ??= existsSync(join(dir, 'cgroup.kill'));
  if (!hasKillFile) {
    await rmdir(dir).catch(() => undefined);
    throw new Error(NO_KILL_FILE);
  }
  const jail = asJail({ procsFiles: [join(dir, 'cgroup.procs')], limitExceeded: async () => undefined, remove: () => rmdir(dir).catch(() => undefined) });
  // The kernel removes only an empty cgroup: when the rmdir succeeds nothing was left to kill, else the kill comes first.
  return { ...jail, remove: () => rmdir(dir).catch(() => jail.remove()) };
}

const NO_KILL_FILE = 'this kernel has no cgroup.kill (Linux 5.14 or later)';

/** Creates the cgroup of one attempt with its limits; throws when this host does not let Wave make one. */
export async function createCgroupJail(name: string, limits: CgroupLimits): Promise<CgroupJail> {
  let jail: MadeCgroup;
  if (existsSync(join(ROOT, 'memory', 'memory.limit_in_bytes')) || existsSync(join(ROOT, 'memory', 'cgroup.procs'))) jail = await v1Jail(name, limits, ownCgroups());
  else if (existsSync(join(ROOT, 'cgroup.controllers'))) jail = await v2Jail(name, limits);
  else throw new Error(`no cgroup hierarchy at ${ROOT}`);
  return asJail(jail);
}

/** The text of a kernel file, or '' when it cannot be read: read at once, as the kernel makes it up in memory. */
function readKernelFileOr(path: string): string {
  try {
    return readProcFile(path);
  } catch {
    return '';
  }
}

/** The pids listed in cgroup.procs files; none for a file that cannot be read. */
function pidsIn(procsFiles: readonly string[]): number[] {
  return procsFiles.map(readKernelFileOr).join('\n').split('\n').filter(Boolean).map(Number);
}

/** The most an ended attempt's cgroup is waited on to empty. */
const EMPTY_WAIT_MS = 5000;
/** Pauses between looks at a cgroup being emptied: the kernel ends a namespace's processes within a few ms, so look soon, then less often. */
const EMPTY_POLLS_MS = [1, 2, 4, 8, 16, 32, 50];

/**
 * Ends what is left in an attempt's cgroup and waits until it is empty: once bwrap exits, its namespace's processes
 * are still being torn down by the kernel, and an attempt counts as ended only when none is left.
 */
async function emptyCgroup(procsFiles: readonly string[]): Promise<void> {
  const deadline = Date.now() + EMPTY_WAIT_MS;
  // cgroup v2 kills the whole cgroup at once, a process forking meanwhile included; the loop below is for v1.
  for (const file of procsFiles) await writeFile(join(dirname(file), 'cgroup.kill'), '1').catch(() => undefined);
  for (let look = 0; ; look++) {
    const pids = pidsIn(procsFiles);
    if (!pids.length || Date.now() > deadline) return;
    for (const pid of new Set(pids)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    await sleep(EMPTY_POLLS_MS[Math.min(look, EMPTY_POLLS_MS.length - 1)]!);
  }
}
