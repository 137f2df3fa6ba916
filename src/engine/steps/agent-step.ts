import { contractFeedback } from '../../contracts/retry-feedback.js';
import type { AgentStep } from '../../plan/plan-types.js';
import { runAttempts, type RetryFeedback } from './attempt-loop.js';
import { failureFeedback } from './retry-prompt.js';
import type { StepRunner } from './step-run.js';

/**
 * An agent step: attempts of its persona's adapter. A retry is told what failed (a contract's errors, or the failure
 * and the end of the output unless `retry.adapt_prompt: false`), continuing the agent's session where it can.
 */
export const runAgentStep: StepRunner<AgentStep> = (run) =>
  // A browser runs the same action list again: it reads no feedback.
  runAttempts(
    run,
    run.step.adapter.type === 'browser'
      ? NO_FEEDBACK
      : {
          afterContract: (attempt, label, errors, output) => contractFeedback(attempt, label, errors, output),
          afterFailure: (attempt, failure, tail) => (run.step.retry.adaptPrompt ? failureFeedback(attempt, failure, tail) : undefined),
        },
  );

/** What a step that reads no feedback tells its retries: nothing. */
const NO_FEEDBACK: RetryFeedback = { afterContract: () => undefined, afterFailure: () => undefined };
