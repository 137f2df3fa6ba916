import { resolve } from 'node:path';
import { resumeRun as resumeRunSequence } from '../app/run-sequence.js';
import { runHandle, type RunControl, type RunHandle } from './run-handle.js';

/** Which run `resumeRun` finishes and how: the options of `wave resume`. */
export interface ResumeRunOptions extends RunControl {
  /** The project folder: its nearest wave.yaml finds the run folder. */
  dir: string;
  /** A run id, or a unique prefix of one. */
  runId: string;
  /** The manifest file (default: wave.yaml in dir or a parent folder). */
  manifest?: string;
  /** Run this step and everything after it again, even if completed. */
  fromStep?: string;
  /** Resume a rejected run too (its rejected step runs again). */
  force?: boolean;
}

/** Finishes a failed, cancelled or killed run without re-running its completed steps, as `wave resume` does, printing nothing. */
export function resumeRun(options: ResumeRunOptions): RunHandle {
  return runHandle(options, (host, err) =>
    resumeRunSequence({
      cwd: resolve(options.dir),
      run: options.runId,
      manifest: options.manifest,
      fromStep: options.fromStep,
      force: options.force,
      output: 'quiet',
      err,
      host,
    }),
  );
}
