import { resolve } from 'node:path';
import { startRun as startRunSequence } from '../app/run-sequence.js';
import { runHandle, type RunControl, type RunHandle } from './run-handle.js';

/** What `startRun` runs and how: the options of `wave run`. */
export interface StartRunOptions extends RunControl {
  /** The project folder: the pipeline name, the manifest and the run folder are found from it (as `wave run` in it). */
  dir: string;
  /** A pipeline file, or a name under pipelines/. */
  pipeline: string;
  /** The input, available to prompts as {{ input }}; the pipeline's default when absent. */
  input?: string;
  /** The manifest file (default: wave.yaml in dir or a parent folder, else a built-in one for command steps). */
  manifest?: string;
  /** Run only these steps. */
  steps?: string[];
  /** Do not run these steps. */
  exclude?: string[];
  /** With steps: also run the steps they depend on. */
  withDeps?: boolean;
  /** halt (default): stop at the first failure; continue: run what does not depend on it. */
  onFailure?: 'halt' | 'continue';
  /** The default step timeout in minutes. */
  timeoutMinutes?: number;
  /** Keep the step workspaces after a successful run. */
  keepWorkspaces?: boolean;
  /** Approval gates take their default choice instead of waiting for `wave approve`. */
  autoApprove?: boolean;
  /** The required skills' install and init commands may run (in the sandbox). */
  installSkills?: boolean;
  /** Record the run under this id. */
  runId?: string;
}

/** Starts a pipeline run, as `wave run` does, printing nothing: the handle gives its events and its result. */
export function startRun(options: StartRunOptions): RunHandle {
  return runHandle(options, (host, err) =>
    startRunSequence({
      cwd: resolve(options.dir),
      pipeline: options.pipeline,
      manifest: options.manifest,
      readInput: () => options.input,
      steps: options.steps,
      exclude: options.exclude,
      withDeps: options.withDeps,
      onFailure: options.onFailure ?? 'halt',
      timeoutMinutes: options.timeoutMinutes,
      keepWorkspaces: options.keepWorkspaces,
      autoApprove: options.autoApprove,
      installSkills: options.installSkills,
      runId: options.runId,
      output: 'quiet',
      err,
      host,
    }),
  );
}
