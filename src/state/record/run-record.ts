import type { Failure } from '../../core/errors/failure.js';
import type { Outcome, RunOutput } from '../../core/deliverables.js';
import type { FileChange } from '../../core/file-change.js';
import type { AdapterType } from '../../core/resolved-adapter.js';
import type { TokenUsage } from '../../core/models/tokens.js';
import type { ChildKind, GateChoiceEntry, GateKind, GateResolver, LoopEnd, RunOptions, RunStatus, StepStatus } from '../../events.js';
import type { StepResult } from './step-result.js';

export interface AttemptRecord {
  attempt: number;
  adapter: string;
  /** The adapter's type: a `process` attempt's output is plain text, any other's a stream of events (`wave logs` renders it). */
  adapterType?: AdapterType;
  model?: string;
  startedAt: string;
  finishedAt?: string;
  durationMs?: number;
  exitCode?: number | null;
  /** Process-group leader of the attempt, while it may still be alive. */
  pid?: number;
  tokens: TokenUsage;
  costUsd?: number;
  failure?: Failure;
  /** The Wave process driving it was killed before it ended (its failure says so too); set by resume or cancel. */
  interrupted?: boolean;
  /** The agent session the attempt ran in, as its CLI reported it (only an id safe to resume is kept). */
  sessionId?: string;
  /** The earlier attempt whose session this one continued (retry.continue_session). */
  continuedFrom?: number;
  /** Which run of its step it belongs to (1 the first; a loop or a gate choice that goes back runs a step again). */
  visit?: number;
  /** `rework`: the attempt fixed the work of the failed step `reworkOf` (the step is its rework_step). */
  kind?: 'rework';
  reworkOf?: string;
  /** `wave run --simulate` answered it instead of its adapter. */
  simulated?: boolean;
  /** `wave replay` served it from the recorded run instead of its adapter. */
  replayed?: boolean;
}

export interface ArtifactRecord {
  name: string;
  /** Path inside the run folder, relative to it. */
  path: string;
  bytes: number;
  type?: string;
}

export interface ContractRecord {
  /** The attempt whose output was checked. */
  attempt: number;
  contract: string;
  passed: boolean;
  action: string;
  errors: string[];
  /** Checked again after this rework round. */
  round?: number;
}

/** An agent_review of one attempt: running, or how it ended (review_started, review_completed, review_failed). */
export interface ReviewRecord {
  attempt: number;
  contract: string;
  reviewer: string;
  status: 'running' | 'passed' | 'failed';
  verdict?: 'pass' | 'warn' | 'fail';
  issues?: number;
  summary?: string;
  /** Why it failed: the fail verdict's summary, or what kept the reviewer from giving a verdict. */
  reason?: string;
}

export interface StepRecord {
  id: string;
  status: StepStatus;
  optional: boolean;
  dependencies: string[];
  workspace?: string;
  startedAt?: string;
  finishedAt?: string;
  durationMs?: number;
  attempts: AttemptRecord[];
  tokens: TokenUsage;
  costUsd?: number;
  artifacts: ArtifactRecord[];
  contracts: ContractRecord[];
  /** Its agent_review contracts' reviews, in the order they started. */
  reviews?: ReviewRecord[];
  /** The step's result text (capped), for {{ steps.<id>.output }} on resume. */
  output?: string;
  /** Its last attempt's result in brief (a few lines), as the summary shows it. */
  result?: StepResult;
  failure?: Failure;
  skipReason?: string;
  /** Its attempts and model requests `wave run --simulate` answered, over all its visits. */
  simulated?: number;
  /** Its attempts and model requests `wave replay` served from the recorded run, over all its visits. */
  replayed?: number;
  /** Requests the egress proxy refused, over all attempts (sandboxed steps only). */
  egressDenied?: number;
  /** The files its last attempt created, modified and deleted in its workspace (Wave's own files left out). */
  filesChanged?: FileChange[];
  /** Links and files its `outcomes` yielded once it succeeded, and why any could not be taken. */
  outcomes?: Outcome[];
  outcomeWarnings?: string[];
  /** The child runs it started, in the order they started (each has its own run folder). */
  children?: ChildRunRecord[];
  /** A gate step's wait, and its decision once resolved. */
  gate?: GateRecord;
  /** How many times it began in this run (kept when it is requeued or resumed). */
  visits?: number;
  /** The step whose edge or gate choice last sent the walk here; cleared when it is requeued. */
  routedBy?: string;
  /** Put back to pending by a resume after it began: its next begin goes on with the same visit. */
  resumedVisit?: boolean;
  /** Its work was given to its rework step: which, in how many rounds, after what failure. */
  rework?: { target: string; rounds: number; failure: Failure };
  /** A loop step's iteration (1-based) of at most `of`, and why it stopped once it did. */
  loop?: { iteration: number; of: number; ended?: LoopEnd };
}

/** A gate step's wait as its record keeps it. */
export interface GateRecord {
  status: 'waiting' | 'resolved';
  gate: GateKind;
  /** When it began to wait. */
  since: string;
  message?: string;
  choices?: GateChoiceEntry[];
  defaultChoice?: string;
  /** A person may add text to the answer. */
  freeform?: boolean;
  /** pr_merge, ci_pass: what it polls the forge for. */
  polls?: string;
  decision?: { by: GateResolver; environment?: string; key?: string; label?: string; text?: string; target?: string; at: string };
}

/** A run a step started, as its parent records it. */
export interface ChildRunRecord {
  runId: string;
  pipeline: string;
  /** The item of an iterate step it ran for (0-based). */
  item?: number;
  status: RunStatus;
  failure?: Failure;
}

/** run.json: the fold of a run's events (state/record/apply-event.ts), written as a snapshot now and then and when the run ends. */
export interface RunRecord {
  version: 1;
  id: string;
  /** The run whose step started this one (a child run); absent for a run started on its own. */
  parentId?: string;
  /** The parent's step that started it, and why. */
  parentStepId?: string;
  childKind?: ChildKind;
  pipeline: string;
  /** Absolute paths, so `wave resume` finds the same files. */
  pipelineFile: string;
  manifestFile: string;
  input: string;
  status: RunStatus;
  /** PID of the `wave run` process driving it (for `wave cancel`). */
  pid?: number;
  startedAt: string;
  finishedAt?: string;
  durationMs?: number;
  options: RunOptions;
  /** How many events of events.ndjson this snapshot folds: a reader folds only those after them onto it. */
  eventCount?: number;
  steps: Record<string, StepRecord>;
  tokens: TokenUsage;
  costUsd?: number;
  /** The pipeline_outputs, resolved when the run ended; one that could not be is absent, and a warning says why. */
  outputs?: Record<string, RunOutput>;
  outputWarnings?: string[];
  /** Why the run itself was stopped when no step's own failure says it (its budget_ceiling was reached). */
  failure?: Failure;
}
