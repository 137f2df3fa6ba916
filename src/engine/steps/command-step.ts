import type { CommandStep } from '../../plan/plan-types.js';
import { runAttempts } from './attempt-loop.js';
import type { StepRunner } from './step-run.js';

/** A command step: run by the shell, its retries run it again as written (it may be stateful, like a flaky test). */
export const runCommandStep: StepRunner<CommandStep> = (run) =>
  runAttempts(run, {
    afterContract: () => undefined,
    afterFailure: () => undefined,
  });
