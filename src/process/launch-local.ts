import { spawn } from 'node:child_process';
import type { LaunchedProcess, Launcher } from './launched-process.js';
import { isGroupAlive } from './liveness.js';
import { terminateGroup, trackGroup } from './process-group.js';

/** Starts a spec as a host process leading its own process group. */
export const launchLocal: Launcher = async (spec) => {
  let child;
  try {
    // detached: the child calls setsid(), so it leads a process group we can signal as a whole.
    child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: [spec.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
  } catch (error) {
    // Invalid arguments (a NUL byte in an argument, say) throw synchronously.
    return { error: error as NodeJS.ErrnoException };
  }
  let startError: NodeJS.ErrnoException | undefined;
  child.on('error', (error: NodeJS.ErrnoException) => (startError ??= error));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.once('exit', (code, signal) => resolve([code, signal]));
    // A process that never started emits 'close' without 'exit'.
    child.once('close', (code, signal) => resolve([code, signal]));
  });
  const pid = child.pid;
  const untrack = pid === undefined ? () => false : trackGroup(pid);
  const launched: LaunchedProcess = {
    pid,
    stdin: child.stdin,
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    closed,
    startError: () => startError,
    terminate: (graceMs) => (pid === undefined ? Promise.resolve() : terminateGroup(pid, graceMs)),
    hasLeftovers: () => (pid === undefined ? Promise.resolve(false) : isGroupAlive(pid)),
    limitExceeded: () => Promise.resolve(undefined),
    release: async () => void untrack(),
  };
  return { process: launched };
};
