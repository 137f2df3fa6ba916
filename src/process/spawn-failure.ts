import { existsSync } from 'node:fs';
import { describeCause, diskFaultHint, isDiskFault } from '../io-error.js';
import type { Redactor } from '../redact.js';
import { ARGUMENT_MAX_BYTES } from './argument-limit.js';
import { SANDBOX_DOWN_CODE, SANDBOX_DOWN_HINT, type Failure } from '../core/errors/failure.js';
import type { FailureClass } from '../core/errors/error-codes.js';
import type { SpawnResult, SpawnSpec } from './spawn-spec.js';

// The reasons an attempt is stopped from outside: its limits, a cancel, the run's budget (engine/run/run-budget.ts).
const ABORT_CLASSES: ReadonlySet<FailureClass> = new Set(['timeout', 'stalled', 'aborted', 'budget_exhausted']);
const STDERR_IN_MESSAGE_CHARS = 1_000;

/** The Failure an abort signal carried, or a plain cancellation when its reason is not one. */
export function abortFailure(reason: unknown): Failure {
  if (typeof reason === 'object' && reason !== null) {
    const candidate = reason as Partial<Failure>;
    if (typeof candidate.class === 'string' && ABORT_CLASSES.has(candidate.class) && typeof candidate.message === 'string') {
      return { class: candidate.class, message: candidate.message, ...(candidate.hint ? { hint: candidate.hint } : {}) };
    }
  }
  return { class: 'aborted', message: 'the step was cancelled' };
}

/** A spawn_failed Failure whose hint names the binary and the PATH that was searched. */
export function spawnFailure(error: NodeJS.ErrnoException, spec: Pick<SpawnSpec, 'command' | 'cwd' | 'env'>): Failure {
  if (error.code === SANDBOX_DOWN_CODE) return { class: 'sandbox_unavailable', message: error.message, hint: SANDBOX_DOWN_HINT };
  if (error.syscall !== undefined && !error.syscall.startsWith('spawn')) {
    const path = error.path ?? spec.cwd;
    return {
      class: 'spawn_failed',
      message: `could not prepare to start "${spec.command}": cannot ${error.syscall} ${path}: ${describeCause(error)}`,
      hint: diskFaultHint(path, error, 'resume the run'),
    };
  }
  if (error.code === 'ENOENT' && !existsSync(spec.cwd)) {
    return {
      class: 'spawn_failed',
      message: `could not start "${spec.command}": its working folder ${spec.cwd} does not exist`,
      hint: 'Check the step workspace; it may have been removed while the run was going.',
    };
  }
  if (error.code === 'ENOENT') {
    return {
      class: 'spawn_failed',
      message: `could not start "${spec.command}": not found`,
      hint: `Install ${spec.command} or set the adapter's binary to its full path (PATH searched: ${spec.env.PATH ?? 'none, PATH is not set'}).`,
    };
  }
  if (error.code === 'E2BIG') {
    return {
      class: 'spawn_failed',
      message: `could not start "${spec.command}": its arguments and environment are too large (E2BIG)`,
      hint: `Linux takes at most ${ARGUMENT_MAX_BYTES} bytes (128 KiB) in one argument or environment variable, and about 2 MiB in all (getconf ARG_MAX): hand large text to the program on stdin or in a file.`,
    };
  }
  if (error.code === 'EACCES') {
    return {
      class: 'spawn_failed',
      message: `could not start "${spec.command}": permission denied`,
      hint: `Make ${spec.command} executable (chmod +x) or point the adapter at the right file.`,
    };
  }
  if (error.code === 'ESANDBOX') {
    const cause = error.cause;
    return { class: 'sandbox_unavailable', message: error.message, ...(isDiskFault(cause) ? { hint: diskFaultHint(cause.path ?? spec.cwd, cause, 'resume the run') } : {}) };
  }
  if (error.code === 'EMFILE' || error.code === 'ENFILE') {
    return { class: 'spawn_failed', message: `could not start "${spec.command}": ${describeCause(error)}`, hint: diskFaultHint(spec.cwd, error, 'resume the run') };
  }
  return { class: 'spawn_failed', message: `could not start "${spec.command}": ${error.message}` };
}

/** The Failure of a process the sandbox stopped at a resource limit. */
export function limitFailure(message: string): Failure {
  return { class: 'limit_exceeded', message, hint: 'Raise the limit under runtime.sandbox.limits in the manifest, or make the step need less.' };
}

/** The Failure of a process whose stdout or stderr file could not be written: what, where and why, never "killed by SIGPIPE". */
export function outputFailure(error: NodeJS.ErrnoException): Failure {
  const path = error.path ?? "the step's output file";
  return {
    class: 'spawn_failed',
    message: `the step's output could not be saved to ${path}: ${describeCause(error)}; the process was stopped`,
    hint: diskFaultHint(path, error, 'resume the run'),
  };
}

/** The Failure of a finished process, or undefined when it succeeded. */
export function processFailure(result: SpawnResult, spec: Pick<SpawnSpec, 'command' | 'cwd' | 'env'>, label: string, redactor: Redactor): Failure | undefined {
  if (result.spawnError) return spawnFailure(result.spawnError, spec);
  if (result.outputError) return outputFailure(result.outputError);
  if (result.aborted) return abortFailure(result.abortReason);
  if (result.limitExceeded) return limitFailure(result.limitExceeded);
  if (result.exitCode === 0) return undefined;
  const how = result.exitCode === null ? `was killed by ${result.signal ?? 'a signal'}` : `exited with code ${result.exitCode}`;
  const stderr = result.stderrTail.trim().slice(-STDERR_IN_MESSAGE_CHARS);
  return { class: 'non_zero_exit', message: redactor.redact(`${label} ${how}${stderr ? `:\n${stderr}` : ''}`) };
}
