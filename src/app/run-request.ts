import type { AgentTraceTarget } from '../trace/agent-trace.js';
import type { PipelineArtifacts } from '../engine/artifacts/pipeline-artifacts.js';
import type { WaveError } from '../core/errors/errors.js';
import type { StopSignal } from '../core/errors/exit-codes.js';
import type { ForgeInfo } from '../core/forge/forge.js';
import type { ParentArtifacts } from '../plan/parent-artifacts.js';
import type { Plan } from '../plan/plan-types.js';
import type { OutputMode } from '../report/sink.js';
import type { RunSink } from '../report/sink-types.js';
import type { EventBody } from '../engine/run/context.js';
import type { RunRecord } from '../state/record/run-record.js';
import type { RunStore } from '../state/run-store.js';
import type { ChildKind, EventBus, RunEvent } from '../events.js';
import type { Sandbox } from '../sandbox/types.js';
import type { TextWriter } from './text-writer.js';

/** What a parent run shares with a child run it drives: its events, its sandbox and its cancellation. */
export interface SharedRunParts {
  /** The parent's bus: the child's events go out on it too (each store and sink keeps only its own run's). */
  bus?: EventBus;
  /** The parent's open sandbox: the child's steps run in it, and the parent closes it. */
  sandbox?: Sandbox;
  /** The parent's cancellation: when it aborts, the child stops with the same reason (the parent listens for signals). */
  signal?: AbortSignal;
  /** How many runs the child is nested in (1 for a child of a run a person started). */
  depth?: number;
  /** Other pipelines' artifacts the child's steps may inject (the parent's and its earlier children's). */
  pipelineArtifacts?: PipelineArtifacts;
  /** What shows the parent's events (its sink, or its own parent's): the child's go there too, hidden by the child's redactor first. */
  show?: (event: RunEvent) => void;
  /** The trace the parent's agents report into (set only when spans go to a collector): the child's agents join it too. */
  agentTrace?: AgentTraceTarget;
  /** A loop iteration's: the step references (`{{ <step>.out… }}`, `{{ <step>.output… }}`) its loop's run resolves, for the steps before the loop. */
  enclosing?: (name: string) => string | undefined;
}

/** What a program embedding Wave takes instead of the terminal: the run's events (redacted), and its own cancellation. */
export type RunHost = Pick<SharedRunParts, 'show' | 'signal'>;

/** What a run passes on to the child runs its steps start. */
export interface ChildRunBase {
  plan: Plan;
  runId: string;
  bus: EventBus;
  sandbox?: Sandbox;
  onFailure: 'halt' | 'continue';
  keepWorkspaces: boolean;
  /** The run's `--auto-approve`, which its children keep. */
  autoApprove: boolean;
  /** The run's `--install-skills`, which its children keep. */
  installSkills: boolean;
  /** The run's `--simulate` and `--simulate-outputs`, which its children keep. */
  simulate?: boolean;
  simulateOutputs?: string;
  /** The run's replay (app/replay-options.ts): each child replays the recorded parent's child of the same step. */
  replayOf?: string;
  replayMode?: 'strict' | 'live';
  replaySpeed?: number;
  err: TextWriter;
  /** Records an event in the parent run (its journal, then its bus). */
  emit: (body: EventBody) => void;
  /** How many runs this one is nested in: 0 for a run started by a person. */
  depth: number;
  /** What shows this run's events: its children's are shown there too. */
  show?: (event: RunEvent) => void;
  /** The trace the run's agents report into, which its children's join. */
  agentTrace?: AgentTraceTarget;
}

/** The run a child run belongs to (recorded as its parentId), and what the child shares of it instead of making its own. */
export interface ParentRun extends SharedRunParts {
  runId: string;
  /** The parent's step that starts the child, and why (recorded as its parentStepId and childKind). */
  stepId?: string;
  kind?: ChildKind;
  /** The child's `{{ env.<key> }}` values, recorded in its options so a resume has them too. */
  env?: Readonly<Record<string, string>>;
  /** The parent's artifacts the child's steps may name as `{{ artifacts.<name> }}`, recorded in its options so a resume plans the same. */
  parentArtifacts?: ParentArtifacts;
  /** The iteration limit of the child's loop steps that set none (its parent step's config.max_cycles), recorded in its options too. */
  maxCycles?: number;
}

/** A recorded run as the extra sinks are made for it. */
export interface RecordedRunView {
  plan: Plan;
  store: RunStore;
  selected?: ReadonlySet<string>;
}

/** What `wave run`, the GitHub Action (and a child run) ask the run sequence for. */
export interface StartRunRequest {
  /** The folder a pipeline argument, a relative manifest and a missing wave.yaml are resolved from. */
  cwd: string;
  /** A pipeline file, or a name under pipelines/. */
  pipeline: string;
  /** The manifest file (default: wave.yaml in cwd or a parent folder). */
  manifest?: string;
  /** With no wave.yaml found, refuse (the Action) rather than run on the built-in manifest for command steps (`wave run`). */
  manifestRequired?: boolean;
  /** Reads the input text once the files are loaded (so their errors come first); the pipeline's input default when it gives none. */
  readInput?: () => string | undefined;
  steps?: string[];
  exclude?: string[];
  /** With steps: also run the steps they depend on. */
  withDeps?: boolean;
  onFailure: 'halt' | 'continue';
  /** The default step timeout in minutes. */
  timeoutMinutes?: number;
  keepWorkspaces?: boolean;
  /** Approval gates take their default choice instead of waiting for a person. */
  autoApprove?: boolean;
  /** Approval gates take their default choice, approved by the reviewers of this GitHub Environment (a compiled gate job). */
  approvedIn?: string;
  /** The required skills' install and init commands may run (in the sandbox). */
  installSkills?: boolean;
  /** `--simulate`: agent and model attempts are simulated and gates approved (app/simulate-options.ts). */
  simulate?: boolean;
  /** `--simulate-outputs`: the absolute folder of fixtures by step id; only with `simulate`. */
  simulateOutputs?: string;
  /** `wave replay` / `--replay`: the recorded run folder (absolute) whose attempts serve this run's (app/replay-options.ts). */
  replayOf?: string;
  /** `--replay-mode`: `strict` (default) or `live`. */
  replayMode?: 'strict' | 'live';
  /** `--speed`: how much faster than recorded the streams are fed; absent, as fast as possible. */
  replaySpeed?: number;
  /** Records the run under this id; step parts already in its folder (other jobs of a compiled workflow) count as run. */
  runId?: string;
  output: OutputMode;
  /** More sinks beside the output mode's, made once the run is recorded (the Action's needs the run folder). */
  sinks?: (run: RecordedRunView) => RunSink[];
  /** Called between the phases before the run is recorded with what was going on; throws to stop there (the Action's cancel). */
  checkStop?: (phase: string) => void;
  /** Runs once the plan is built, before the steps are selected (the Action masks the secrets and installs the agent CLIs). */
  withPlan?: (plan: Plan) => Promise<void>;
  /** A stop signal that came before the run listened, read once the run is recorded and locked: the run starts stopped. */
  stoppedBy?: () => StopSignal | undefined;
  /** What becomes of the loaded files' warnings; written to err as `warning:` lines when absent. */
  reportConfigWarnings?: (warnings: readonly WaveError[]) => void;
  /** Where notes and warnings go (process.stderr by default). */
  err?: TextWriter;
  /** Makes this a child run of another: it prints nothing of its own (its events go out on the parent's bus). */
  parent?: ParentRun;
  /** A run of a program embedding Wave (src/api): it prints nothing and listens for no process signal; its events go to the host. */
  host?: RunHost;
  /** The project's forge when already found (a child run takes its parent's): its git remote is not looked up again. */
  forge?: ForgeInfo;
  /** Told the run's record as soon as it is recorded, before anything runs. */
  onRecorded?: (record: RunRecord) => void;
}

export interface ResumeRunRequest {
  /** The folder the nearest wave.yaml is looked for from. */
  cwd: string;
  /** A run id, or a unique prefix of one. */
  run: string;
  /** The manifest used to find the run folder. */
  manifest?: string;
  /** Runs this step and everything after it again, even if completed. */
  fromStep?: string;
  /** Resumes a rejected run too (its rejected step runs again); a child's resume is forced by its parent's. */
  force?: boolean;
  output: OutputMode;
  /** Where notes and warnings go (process.stderr by default). */
  err?: TextWriter;
  /** A child run's parent (its step resumes it): what the child shares instead of making its own. */
  parent?: ParentRun;
  /** A resume by a program embedding Wave (src/api): it prints nothing and listens for no process signal; its events go to the host. */
  host?: RunHost;
  /** Called once the run is opened for good, with its record. */
  onRecorded?: (record: RunRecord) => void;
}
