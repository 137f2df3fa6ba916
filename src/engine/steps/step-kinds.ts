import { isAttemptStep, isReworkOnly, type AttemptStep, type PlannedStep, type StepKind } from '../../plan/plan-types.js';
import { runFanOut } from './fan-out-step.js';
import { runAgentStep } from './agent-step.js';
import { runCommandStep } from './command-step.js';
import { runSubPipelineStep } from './pipeline-step.js';
import { runIterateStep } from './iterate-step.js';
import { runAggregateStep } from './aggregate-step.js';
import { runBranchStep } from './branch-step.js';
import { runGateStep } from './gate-step.js';
import { runConditionalStep } from './conditional-step.js';
import { runLoopStep } from './loop-step.js';
import type { StepOutcome, StepRun, StepRunner } from './step-run.js';

/** The runner of each kind of step: a new kind is its file, its member of PlannedStep, and one line here (the type asks for it). */
const STEP_RUNNERS: { readonly [K in StepKind]: StepRunner<Extract<PlannedStep, { kind: K }>> } = {
  agent: runAgentStep,
  command: runCommandStep,
  pipeline: runSubPipelineStep,
  iterate: runIterateStep,
  aggregate: runAggregateStep,
  branch: runBranchStep,
  gate: runGateStep,
  conditional: runConditionalStep,
  loop: runLoopStep,
};

/** Runs a step to its end with the runner of its kind; a rework step runs only when a failed step asks for it. */
export function runStep(run: StepRun): Promise<StepOutcome> {
  // Left pending: the run marks it skipped at its end if no step needed it (engine/run/run-pipeline.ts).
  if (isReworkOnly(run.step) && !run.rework) return Promise.resolve({ status: 'skipped' });
  // A fanned-out agent or command step runs as workers, each a child run of it alone.
  if (isAttemptStep(run.step) && run.step.fanOut) return runFanOut(run as StepRun<AttemptStep>, run.step.fanOut);
  const runner = STEP_RUNNERS[run.step.kind] as StepRunner<PlannedStep>;
  return runner({ ...run, runRework: ({ step, rework, outputs }) => runStep({ ...run, step, rework, outputs }) });
}
