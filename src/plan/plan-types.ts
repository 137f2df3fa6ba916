import type { ResolvedAdapter, ResolvedPersona } from '../core/resolved-adapter.js';
import type { ModelTier } from '../core/models/model-tiers.js';
import type { ArtifactDef, Fidelity, InjectArtifact, Pipeline, Step } from '../config/schema/pipeline-schema.js';
import type { PlannedContract } from '../contracts/types.js';
import type { SourceLocation } from '../core/errors/errors.js';
import type { SandboxPolicy } from '../sandbox/types.js';
import type { OutcomeDef, PipelineOutputDef } from '../config/schema/deliverable-schema.js';
import type { ResolvedSkill } from '../core/resolved-skill.js';
import type { PlannedRequires } from './plan-requires.js';
import type { PlannedFanOut } from './plan-fan-out.js';
import type { RunBudgetLimits } from './plan-budget.js';
import type { PlannedForge } from './plan-token-scopes.js';
import type { EdgeCondition } from '../config/schema/graph-schema.js';

/** A step's extract: its schema read, the model that is asked when recovery is not enough. */
export interface PlannedExtract {
  readonly schema: Record<string, unknown>;
  /** Undefined: the step's own adapter. */
  readonly adapter?: ResolvedAdapter;
  readonly model?: string;
}

/** A `memory.inject_artifacts` entry with its `schema_path` read (engine/steps/injected-checks.ts checks it). */
export type PlannedInjection = InjectArtifact & { readonly schemaObject?: Record<string, unknown> };

export interface RetryPolicy {
  maxAttempts: number;
  backoff: 'fixed' | 'linear' | 'exponential';
  baseDelayMs: number;
  maxDelayMs: number;
  /** Whether a retry's prompt carries the previous failure (contract retries always carry their errors). */
  adaptPrompt: boolean;
  /** Whether an agent's retry continues the previous attempt's session, told only the feedback (else a fresh session, the whole prompt). */
  continueSession: boolean;
  /** What the run does with the step once its attempts are spent: fail it (halting the run), skip it, or fail it and go on. */
  onFailure: 'fail' | 'skip' | 'continue';
  /** `retry.on_failure: rework`: the step run to fix the work once the attempts are spent (its failure fails the step). */
  reworkStep?: string;
}

/** A step's place in a conversation thread. */
export interface PlannedThread {
  readonly name: string;
  readonly fidelity: Fidelity;
  /** The thread's steps this one depends on (transitively), in file order: whose transcripts it receives. */
  readonly earlier: readonly string[];
}

/** What every kind of step has: its place in the graph and in the pipeline file. */
interface StepBase {
  readonly id: string;
  readonly dependencies: readonly string[];
  readonly optional: boolean;
  /** Where the step's entry starts in the pipeline file (GitHub annotations point there). */
  readonly location: SourceLocation;
  /** Graph routing: where the walk goes after the step, the first edge whose condition holds; absent: on to its dependents. */
  readonly edges?: readonly PlannedEdge[];
  /** How many times the step may run in one run (Wave's max_visits); absent: 10. */
  readonly maxVisits?: number;
}

/** An edge of graph routing: its target (a step, or `_complete`) and when it is taken. */
export interface PlannedEdge {
  readonly target: string;
  readonly condition: EdgeCondition;
  /** The condition as written, for events and messages; empty: always. */
  readonly when: string;
}

/** A step run as attempts of one adapter, in a workspace of its own, its outputs checked. */
interface AttemptStepFields extends StepBase {
  /** The prompt or command before rendering. */
  readonly template: string;
  /** Where the template starts, for error positions. */
  readonly templateLocation: SourceLocation;
  readonly adapter: ResolvedAdapter;
  /** Its concurrency hint (max_concurrent_agents) already follows its system prompt. */
  readonly persona?: ResolvedPersona;
  /** What the agent finds in its CLI's skills folder (manifest, persona, pipeline and step skills); none for a command step. */
  readonly skills: readonly ResolvedSkill[];
  /** The step's max_concurrent_agents, as written (the hint is said only above 1). */
  readonly maxConcurrentAgents?: number;
  /** The model its CLI gets, never a tier. */
  readonly model?: string;
  /** The tier (`model: cheapest | balanced | strongest`) that `model` was resolved from. */
  readonly modelTier?: ModelTier;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly workspace: NonNullable<Step['workspace']>;
  readonly outputArtifacts: readonly ArtifactDef[];
  readonly injectArtifacts: readonly PlannedInjection[];
  /** Checked in order after a successful attempt; their requirements are already in a prompt step's template. */
  readonly contracts: readonly PlannedContract[];
  /** Turns the step's raw output into JSON matching a schema (see engine/attempt/extract.ts). */
  readonly extract?: PlannedExtract;
  readonly env: Readonly<Record<string, string>>;
  /** Adapters tried in order when this one is rate limited. */
  readonly fallbacks: readonly ResolvedAdapter[];
  /** Set when the step is in a `thread`. */
  readonly thread?: PlannedThread;
  /** Links and files taken from its files once it succeeds (engine/steps/step-outcomes.ts). */
  readonly outcomes?: readonly OutcomeDef[];
  /** `rework_only`: run only as another step's rework step (engine/steps/rework.ts), never in the run's order. */
  readonly reworkOnly?: boolean;
  /** Set when it runs as several workers (Wave's `strategy: matrix`, `concurrency`), each a child run (engine/steps/fan-out-step.ts). */
  readonly fanOut?: PlannedFanOut;
}

/** A prompt handed to an agent CLI (or an HTTP model) as its persona says; a retry is told what failed. */
export interface AgentStep extends AttemptStepFields {
  readonly kind: 'agent';
}

/** A command run by the shell; a retry runs it again as written. */
export interface CommandStep extends AttemptStepFields {
  readonly kind: 'command';
  /** Wave's `script:` form (or `type: command`): it runs in the copy of a `./` mount when it has one, as Wave runs it. */
  readonly runsInProjectCopy?: boolean;
}

/** What a step that runs child pipelines says of them. */
interface ChildPipelineFields extends StepBase {
  /** The child pipeline: a name under pipelines/ or .agents/pipelines/, or a file; may be a template (`{{ item }}`). */
  readonly pipeline: string;
  /** The child's input, a template resolved as Wave resolves it (unknown references stay as written); absent: this run's input. */
  readonly input?: string;
  /** This run's artifacts the child's steps may name as `{{ artifacts.<name> }}` (config.inject); a missing one fails the step. */
  readonly inject: readonly string[];
  /** Child artifacts also kept in this run as `<child pipeline>.<name>`; a missing one fails the step. */
  readonly extract: readonly string[];
  /** The whole child's time limit; absent: none beyond its own steps'. */
  readonly timeoutMs?: number;
  /** The iteration limit of the child's loop steps that set none (config.max_cycles). */
  readonly maxCycles?: number;
  /** `{{ env.<key> }}` in the child's templates. */
  readonly env: Readonly<Record<string, string>>;
}

/** A child pipeline run to its end as the step's work (Wave's `pipeline:`): its artifacts and outputs come back as the step's. */
export interface SubPipelineStep extends ChildPipelineFields {
  readonly kind: 'pipeline';
}

/** A child pipeline run once per item of a JSON list (Wave's `iterate`): their outputs collected in item order. */
export interface IterateStep extends ChildPipelineFields {
  readonly kind: 'iterate';
  /** A composition field that must resolve to a JSON array. */
  readonly over: string;
  readonly mode: 'sequential' | 'parallel';
  /** Parallel children at once; 0: every item (the run's max_concurrency still holds). */
  readonly maxConcurrent: number;
  /** fail: the first failed item fails the step and stops the others; continue: a failed item's slot is null, the step fails only if all did. */
  readonly onFailure: 'fail' | 'continue';
}

/** A step that runs attempts of an adapter: an agent or a command step. */
export type AttemptStep = AgentStep | CommandStep;

/** A step with everything resolved, by kind: what `wave run --dry-run` prints and the engine runs. */
/** One artifact made of earlier steps' outputs (Wave's `aggregate`): no process runs. */
export interface AggregateStep extends StepBase {
  readonly kind: 'aggregate';
  /** A composition field: the text to aggregate. */
  readonly from: string;
  /** The artifact's file name; its name is the base name without extension. */
  readonly into: string;
  readonly strategy: 'merge_arrays' | 'concat' | 'reduce';
  readonly key?: string;
}

/** One child pipeline chosen by a value (Wave's `branch`): a case's, the default's, or none (`skip`). */
export interface BranchStep extends StepBase {
  readonly kind: 'branch';
  /** A composition field: the value whose case is taken. */
  readonly on: string;
  /** Value → child pipeline, or `skip`; the `default` key is taken when no value matches. */
  readonly cases: Readonly<Record<string, string>>;
  /** The chosen child's input; absent: this run's. */
  readonly input?: string;
}

/** A choice of an approval gate: what a person picks, and where the run goes with it. */
export interface GateChoice {
  readonly key: string;
  readonly label: string;
  /** A step of the pipeline, or `_fail`; absent: the run goes on in order. */
  readonly target?: string;
}

/** A step where the run waits until the gate is resolved (Wave's `gate`): a person's approval, or a timer. */
export interface GateStep extends StepBase {
  readonly kind: 'gate';
  readonly gateType: 'approval' | 'timer' | 'pr_merge' | 'ci_pass';
  readonly auto: boolean;
  /** timer: how long it waits; approval: how long before the default is taken (no default: the step fails). */
  readonly timeoutMs?: number;
  /** What the waiting gate says: its message, else its prompt. */
  readonly message?: string;
  readonly choices: readonly GateChoice[];
  /** The key of the choice auto, --auto-approve and the timeout take. */
  readonly defaultChoice?: string;
  readonly freeform: boolean;
  /** pr_merge, ci_pass: what the forge is asked and how often. */
  readonly poll?: GatePoll;
}

/** What a pr_merge or ci_pass gate polls: GitHub, through `gh`. */
export interface GatePoll {
  readonly prNumber?: number;
  /** `owner/repo`; absent: the project's. */
  readonly repo?: string;
  /** ci_pass: absent: the project's checked-out branch. */
  readonly branch?: string;
  readonly intervalMs: number;
}

/** A step that only routes (Wave's `type: conditional`): its edges read the outcome and context of the step before it. */
export interface ConditionalStep extends StepBase {
  readonly kind: 'conditional';
}

/** Sub-steps run again and again (Wave's `loop`): each iteration a child run of the loop's body, until `until` says so. */
export interface LoopStep extends StepBase {
  readonly kind: 'loop';
  readonly maxIterations: number;
  /** A composition field read after each iteration (its sub-steps' outputs and `{{ iteration }}` too): `true`, `done` or `yes` ends the loop. */
  readonly until?: string;
  /** The sub-steps' ids, in file order: iteration `n` runs them as the child pipeline `<pipeline file>::<id>::<n>`. */
  readonly subSteps: readonly string[];
}

export type PlannedStep = AttemptStep | SubPipelineStep | IterateStep | AggregateStep | BranchStep | GateStep | ConditionalStep | LoopStep;

/** A step that runs no attempts of its own: a child pipeline's, an iterate's, an aggregate's, a branch's. */
export type CompositionStep = Exclude<PlannedStep, AttemptStep>;

/** What the run does with a failed step: its retry policy's, or `fail` for a step that runs no attempts (as in Wave). */
export function onFailureOf(step: PlannedStep): RetryPolicy['onFailure'] {
  return isAttemptStep(step) ? step.retry.onFailure : 'fail';
}

/** Whether a step runs only as another step's rework step. */
export function isReworkOnly(step: PlannedStep): step is AttemptStep {
  return isAttemptStep(step) && step.reworkOnly === true;
}

/** Whether a step runs attempts of an adapter (rather than child runs). */
export function isAttemptStep(step: PlannedStep): step is AttemptStep {
  return step.kind === 'agent' || step.kind === 'command';
}

/** The kinds of step the engine runs, one runner each (engine/steps/step-kinds.ts). */
export type StepKind = PlannedStep['kind'];

/** The adapter's view of a step's kind: what the attempt's input is, a prompt or a command. */
export function execTypeOf(step: AttemptStep): 'prompt' | 'command' {
  return step.kind === 'agent' ? 'prompt' : 'command';
}

export interface PlanRuntime {
  readonly maxConcurrency: number;
  readonly graceMs: number;
  /** How long a required skill's install, check or init command may run (runtime.timeouts.skill_install_seconds). */
  readonly skillCommandMs: number;
  /** How long a stopped step's output pipes are still read. */
  readonly drainMs: number;
  /** Largest stdout of a step with a `source: stdout` artifact. */
  readonly maxStdoutBytes: number;
  /** When set, stdout artifacts are also written into the workspace at `<artifactDir>/<step>/<name>` (relative to it). */
  readonly artifactDir?: string;
  /** Where injected artifacts land, relative to the consumer's workspace (see plan/injected-artifacts-dir.ts). */
  readonly injectedArtifactsDir: string;
  /** 0 disables the stall watchdog. */
  readonly stallMs: number;
  readonly maxLineBytes: number;
  readonly workspaceRoot: string;
  readonly runsRoot: string;
  readonly envPassthrough: readonly string[];
  /** runtime.sandbox.secret_env: variables whose values are redacted whatever their names. */
  readonly secretEnv: readonly string[];
  readonly sandbox: SandboxPolicy;
  /** runtime.cost: absent when the run has no limit. */
  readonly budget?: RunBudgetLimits;
  /** runtime.recording: the defaults (on, 8 MiB a file, 64 MiB an attempt) when absent. */
  readonly recording?: RecordingPolicy;
  /** runtime.telemetry: where the run's spans are sent live and whether they keep content; absent, otel.jsonl only, no content. */
  readonly telemetry?: TelemetryPolicy;
}

/** runtime.telemetry resolved. */
export interface TelemetryPolicy {
  readonly otlp?: { readonly endpoint: string; readonly headers: Readonly<Record<string, string>> };
  readonly captureContent: boolean;
}

/** What each attempt keeps for a replay (runtime.recording). */
export interface RecordingPolicy {
  /** False: no copy of the changed files and no http.ndjson. */
  readonly enabled: boolean;
  readonly maxFileBytes: number;
  readonly maxAttemptBytes: number;
}

/** Manifest + pipeline + input, fully resolved and immutable. */
export interface Plan {
  readonly pipelineName: string;
  readonly pipelineFile: string;
  readonly manifestFile: string;
  readonly projectRoot: string;
  readonly input: string;
  readonly project: Readonly<Record<string, string>>;
  readonly steps: readonly PlannedStep[];
  /** Groups of step ids that may run in parallel, in dependency order. */
  readonly layers: readonly (readonly string[])[];
  readonly runtime: PlanRuntime;
  /** Variables the manifest's `${VAR}` references took from the environment (run-secrets.ts redacts them); a pipeline's are its shell's. */
  readonly envTaken: Readonly<Record<string, string>>;
  /** `forge.<name>` template variables: the project's forge, found when the pipeline was loaded (config/load.ts). */
  readonly forgeVariables: Readonly<Record<string, string>>;
  /** The pipeline's `input` block as written: what --dry-run shows of the input. */
  readonly inputSpec?: Pipeline['input'];
  /** pipeline_outputs: resolved from the steps' artifacts when the run ends (engine/run/run-outputs.ts). */
  readonly outputs?: Readonly<Record<string, PipelineOutputDef>>;
  /** Tools and skills checked before any step runs (engine/steps/requirements.ts). */
  readonly requires: PlannedRequires;
  /** The forge and the token scopes of the personas the steps run as, checked before the run (src/forge). */
  readonly forge: PlannedForge;
  /** Set when a step has edges or is conditional (Wave's graph mode): the limit of all step runs. */
  readonly graph?: { readonly maxStepVisits: number };
}
