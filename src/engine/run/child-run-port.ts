import type { PipelineArtifacts } from '../artifacts/pipeline-artifacts.js';
import type { ParentArtifacts } from '../../plan/parent-artifacts.js';
import type { Failure } from '../../core/errors/failure.js';
import type { ChildKind, RunStatus } from '../../events.js';
import type { RunRecord } from '../../state/record/run-record.js';

/** What a step asks of a child run: the pipeline (a name under pipelines/ or a file), its input, and what stops it. */
export interface ChildRunRequest {
  /** The step of this run that starts the child. */
  stepId: string;
  /** Why the step starts it (recorded in the child). */
  kind: ChildKind;
  pipeline: string;
  input: string;
  /** The step's signal: when it aborts, the child stops with the same reason. */
  signal: AbortSignal;
  /** What the child's composition fields read as `{{ env.<key> }}`. */
  env?: Readonly<Record<string, string>>;
  /** The item of an iterate step the child runs for (0-based), recorded with it. */
  item?: number;
  /** Other pipelines' artifacts the child's steps may inject: this run's and its earlier children's. */
  artifacts?: PipelineArtifacts;
  /** This run's artifacts the child's steps may name as `{{ artifacts.<name> }}` without injecting them. */
  parentArtifacts?: ParentArtifacts;
  /** The iteration limit of the child's loop steps that set none (config.max_cycles). */
  maxCycles?: number;
  /** A loop iteration's: the step references (`{{ <step>.out… }}`, `{{ <step>.output… }}`) its loop's run resolves, for the steps before the loop. */
  enclosing?: (name: string) => string | undefined;
}

/** What a step asks to finish an earlier child run of its own (one a killed or failed run left unfinished). */
export interface ChildResumeRequest {
  stepId: string;
  runId: string;
  signal: AbortSignal;
  item?: number;
  artifacts?: PipelineArtifacts;
  enclosing?: (name: string) => string | undefined;
}

/** How a child run ended, and where it is recorded. */
export interface ChildRunOutcome {
  status: Exclude<RunStatus, 'pending' | 'running'>;
  /** Why it did not complete. */
  failure?: Failure;
  /** The child's run.json as it ended: its outputs, steps and artifacts. */
  record: RunRecord;
  /** Its run folder. */
  dir: string;
}

/**
 * How the steps of a run start child runs (app/ provides it: the engine does not know how a run is loaded and
 * prepared). A child shares its parent's bus, sandbox, budget and cancellation; it has its own record, folder and
 * workspaces; the parent's step records it (child_run_started, child_run_finished, its cost charged to the step).
 */
export interface ChildRuns {
  /** Runs the child to its end. Throws when it cannot start (its files do not load, the run folder cannot be written). */
  run(request: ChildRunRequest): Promise<ChildRunOutcome>;
  /** Finishes an earlier child of the step (`wave resume` of it): its completed steps are not run again. */
  resume(request: ChildResumeRequest): Promise<ChildRunOutcome>;
}
