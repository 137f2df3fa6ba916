import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

const HAS_PROC = process.platform === 'linux' && existsSync('/proc/self/environ');
const POLL_MS = 20;
const GONE_WITHIN_MS = 5_000;

/** The run and step a process was started for, as its environment carries them. */
export interface StepOwner {
  runId: string;
  stepId: string;
}

/** Whether a /proc entry is a live (not zombie) process whose environment names this run and step. */
async function ownedBy(pid: string, marks: readonly string[]): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state === 'Z' || state === 'X') return false;
    const environ = (await readFile(`/proc/${pid}/environ`, 'latin1')).split('\0');
    return marks.every((mark) => environ.includes(mark));
  } catch {
    return false; // Gone, or not ours to read.
  }
}

/** Host pids of live processes started for this step: their environment carries its WAVE_RUN_ID and WAVE_STEP_ID. */
export async function stepProcesses(owner: StepOwner): Promise<number[]> {
  if (!HAS_PROC) return [];
  const marks = [`WAVE_RUN_ID=${owner.runId}`, `WAVE_STEP_ID=${owner.stepId}`];
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  const owned = await Promise.all(pids.map(async (pid) => ((await ownedBy(pid, marks)) ? Number(pid) : undefined)));
  return owned.filter((pid): pid is number => pid !== undefined);
}

/**
 * Kills what a step left behind outside its process group (setsid'd daemons, double-forked children) and waits until
 * it is gone. Best effort: a process that cleared its environment, or one of another user, is not found. Never rejects.
 */
export async function endStrayProcesses(owner: StepOwner): Promise<number> {
  const deadline = Date.now() + GONE_WITHIN_MS;
  let killed = 0;
  for (;;) {
    const strays = await stepProcesses(owner);
    if (strays.length === 0 || Date.now() > deadline) return killed;
    for (const pid of strays) {
      try {
        process.kill(pid, 'SIGKILL');
        killed++;
      } catch {
        // Already gone.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
