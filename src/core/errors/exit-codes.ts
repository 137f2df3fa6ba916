import { constants } from 'node:os';
import { ERROR_KINDS, type ErrorCode, type ErrorKind } from './error-codes.js';

/** Exit codes, documented in docs/errors-and-exit-codes.md. */
export const EXIT = {
  ok: 0,
  runFailed: 1,
  invalidInput: 2,
  /** The run ended rejected: a step's contract found nothing to do (on_failure: rejected). Not a failure, and not a success either. */
  rejected: 3,
  /** Ctrl-C (SIGINT); other signals that stop a run exit 128 + their number (signalExitCode). */
  interrupted: 130,
} as const;

/** The signals that stop a run the way Ctrl-C does: its steps are stopped and it is recorded as cancelled (resumable). */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const satisfies readonly NodeJS.Signals[];
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** The shell's convention for a process stopped by a signal: 128 + its number (SIGHUP 129, SIGINT 130, SIGQUIT 131, SIGTERM 143). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? constants.signals.SIGINT);
}

const EXIT_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  input: EXIT.invalidInput,
  failure: EXIT.runFailed,
  interrupted: EXIT.interrupted,
};

/** The exit code an error with `code` ends the CLI with (the kind column of src/core/errors/error-codes.ts): 2 only for invalid input. */
export function exitCodeOf(code: ErrorCode): number {
  return EXIT_OF_KIND[ERROR_KINDS[code]];
}

/** The exit code of several errors reported together: invalid input only when every one of them is. */
export function exitCodeOfAll(codes: readonly ErrorCode[]): number {
  const exits = codes.map(exitCodeOf);
  return exits.find((exit) => exit !== EXIT.invalidInput) ?? EXIT.invalidInput;
}
