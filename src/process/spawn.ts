import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { launchInOwnCgroup } from './launch-in-cgroup.js';
import type { LaunchedProcess, Launcher } from './launched-process.js';
import { OutputRecorder } from './output-recorder.js';
import type { SpawnResult, SpawnSpec } from './spawn-spec.js';
import { sweepMark, type StepOwner, type SweepMark } from './step-processes.js';
import { endStrayProcesses } from './stray-processes.js';

export { TAIL_CHARS } from './output-recorder.js';

/** How long the pipes may stay open once the group is gone (only a process that left the group can hold them). */
const DEFAULT_DRAIN_MS = 5_000;

/** The step a process belongs to, from the variables every step's environment carries. */
function ownerOf(env: Record<string, string>): StepOwner | undefined {
  return env.WAVE_RUN_ID && env.WAVE_STEP_ID ? { runId: env.WAVE_RUN_ID, stepId: env.WAVE_STEP_ID } : undefined;
}

/**
 * Runs a process as the leader of its own group, in a cgroup of its own where the host allows (or as `launch` starts it: inside a sandbox), streaming stdout and
 * stderr (redacted) to files with flat memory. On abort the whole group gets SIGTERM, then SIGKILL after graceMs; group members left
 * behind when the leader exits are ended the same way. Resolves once the group is gone; never rejects.
 */
export async function spawnInGroup(spec: SpawnSpec, signal?: AbortSignal, launch: Launcher = launchInOwnCgroup): Promise<SpawnResult> {
  const folders = await Promise.all([...new Set([dirname(spec.stdoutPath), dirname(spec.stderrPath)])].map((dir) => mkdir(dir, { recursive: true }))).catch(
    (error: NodeJS.ErrnoException) => error,
  );
  const output = new OutputRecorder(spec);
  if (folders instanceof Error) return output.result({ spawnError: folders });
  if (signal?.aborted) {
    await output.saveNothing();
    return output.result({ aborted: true, abortReason: signal.reason, outputError: output.outputError });
  }

  // Only processes started from here on can be the step's: the stray sweep reads no older one.
  const since = sweepMark();
  const started = await launch(spec);
  if ('error' in started) {
    await output.saveNothing();
    // A cancel that ended the launch (a container start) is a cancel, not a failure to start.
    if (signal?.aborted) return output.result({ aborted: true, abortReason: signal.reason, outputError: output.outputError });
    return output.result({ spawnError: started.error, outputError: output.outputError });
  }
  return superviseProcess(started.process, spec, output, since, signal);
}

/** Feeds a started process its input, records its output and ends its group on abort; resolves once the group is gone. */
async function superviseProcess(child: LaunchedProcess, spec: SpawnSpec, output: OutputRecorder, since: SweepMark, signal?: AbortSignal): Promise<SpawnResult> {
  if (child.stdin) {
    child.stdin.on('error', () => undefined); // EPIPE when the child does not read its input
    child.stdin.end(spec.stdin);
  }
  const saving = Promise.all([output.save(child.stdout, 'stdout'), output.save(child.stderr, 'stderr')]);

  const pid = child.pid;
  if (pid !== undefined) spec.onSpawn?.(pid);
  let hasExited = false;
  let aborted = false;
  let abortReason: unknown;
  let termination: Promise<void> | undefined;
  const terminate = (): Promise<void> => (termination ??= child.terminate(spec.graceMs));
  output.onOutputError = () => {
    if (!hasExited) void terminate();
  };
  if (output.outputError) output.onOutputError();
  const onAbort = () => {
    if (hasExited) return;
    aborted = true;
    abortReason = signal?.reason;
    void terminate();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  // A cancel that landed while the process was being launched (a container start takes a while) fires no event.
  if (signal?.aborted) onAbort();

  const [exitCode, exitSignal] = await child.exited;
  hasExited = true;
  // Whatever the leader left running in its group (background jobs, hung grandchildren) ends with it, and so does
  // what left the group (setsid, double forks) but still carries the step's identity in its environment.
  if (termination || (await child.hasLeftovers())) await terminate();
  const owner = spec.owner ?? ownerOf(spec.env);
  if (owner) await endStrayProcesses(owner, since);
  await drainPipes(child, spec.drainMs ?? DEFAULT_DRAIN_MS);
  await saving;
  output.stopMeter();
  signal?.removeEventListener('abort', onAbort);
  const limitExceeded = aborted ? undefined : await child.limitExceeded();
  await child.release();
  // A cancel is what ended the step, whatever its stopping found (a sandbox daemon gone meanwhile).
  const spawnError = aborted ? undefined : child.startError();
  const outputError = output.outputError;
  return output.result({ exitCode, signal: exitSignal, spawnError, aborted, abortReason, pid, outputError, ...(limitExceeded ? { limitExceeded } : {}) });
}

/** Waits up to drainMs for the pipes to close, then cuts them: a process that left the group may hold them open forever. */
async function drainPipes(child: LaunchedProcess, drainMs: number): Promise<void> {
  let drainTimer: NodeJS.Timeout | undefined;
  const drained = await Promise.race([child.closed.then(() => true), new Promise<false>((resolve) => (drainTimer = setTimeout(() => resolve(false), drainMs)))]);
  clearTimeout(drainTimer);
  if (!drained) {
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
}
