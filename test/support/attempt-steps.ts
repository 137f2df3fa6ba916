import { isAttemptStep, type AttemptStep, type Plan } from '../../src/plan/plan-types.js';

/** A plan's steps as agent or command steps, for tests that read their attempt fields; a child pipeline's step fails the test. */
export function attemptSteps(plan: Pick<Plan, 'steps'>): AttemptStep[] {
  return plan.steps.map((step) => {
    if (!isAttemptStep(step)) throw new Error(`step ${step.id} runs a child pipeline, not attempts`);
    return step;
  });
}
