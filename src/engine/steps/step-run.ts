import type { Failure } from '../../core/errors/failure.js';
import type { PlannedStep } from '../../plan/plan-types.js';
import type { RunContext } from '../run/context.js';

/** One step being run: the run it belongs to, the step, its dependencies' outputs, and the signal that stops it. */
export interface StepRun<S extends PlannedStep = PlannedStep> {
  readonly context: RunContext;
  readonly step: S;
  /** The output text of each step whose dependents may run, by step id. */
  readonly outputs: ReadonlyMap<string, string>;
  /** Aborted when the run is cancelled or halts. */
  readonly signal: AbortSignal;
  /** Set when the step runs as the rework step of another, failed step. */
  readonly rework?: ReworkOf;
  /** Runs another step of the run as this one's rework step (step-kinds.ts gives it). */
  readonly runRework?: (request: ReworkRun) => Promise<StepOutcome>;
}

/** What a rework step is told: whose work it fixes, in which round, and what failed (the prompt's REWORK CONTEXT). */
export interface ReworkOf {
  readonly of: string;
  readonly round: number;
  readonly context: string;
  /** For a command: the same, as environment variables. */
  readonly env: Readonly<Record<string, string>>;
}

/** A rework step to run: the step, what it is told, and the outputs it reads (the failed step's included). */
export interface ReworkRun {
  readonly step: PlannedStep;
  readonly rework: ReworkOf;
  readonly outputs: ReadonlyMap<string, string>;
}

/** How a step ended, as the scheduler needs it. */
export interface StepOutcome {
  /** `skipped`: the step failed and its `retry.on_failure: skip` set it aside (or it is a rework step, which waits to be asked). */
  status: 'completed' | 'failed' | 'cancelled' | 'skipped';
  output?: string;
  failure?: Failure;
  /** A contract with on_failure: continue failed the step; its dependents still run. */
  dependentsRun?: boolean;
  /** A gate choice's target: the step the walk goes to next (engine/run/step-router.ts runs it again when it already ran). */
  route?: string;
}

/** Runs one kind of step to its end and records it; never throws for the step's own failures. */
export type StepRunner<S extends PlannedStep> = (run: StepRun<S>) => Promise<StepOutcome>;
