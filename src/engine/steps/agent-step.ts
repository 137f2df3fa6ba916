import { contractFeedback } from '../../contracts/retry-feedback.js';
import type { AgentStep } from '../../plan/plan-types.js';
import { runAttempts } from './attempt-loop.js';
import { failureFeedback } from './retry-prompt.js';
import type { StepRunner } from './step-run.js';

/**
 * An agent step: attempts of its persona's adapter. A retry is told what failed (a contract's errors, or the failure
 * and the end of the output unless `retry.adapt_prompt: false`), continuing the agent's session where it can.
 */
export const runAgentStep: StepRunner<AgentStep> = (run) =>
  runAttempts(run, {
    afterContract: (attempt, label, errors, output) => contractFeedback(attempt, label, errors, output),
    afterFailure: (attempt, failure, tail) => (run.step.retry.adaptPrompt ? failureFeedback(attempt, failure, tail) : undefined),
  });
