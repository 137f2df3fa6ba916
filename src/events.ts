import type { StreamEvent } from './adapters/types.js';
import type { AdapterType } from './core/resolved-adapter.js';
import type { Fidelity } from './config/schema/pipeline-schema.js';
import type { Failure } from './core/errors/failure.js';
import type { Outcome, RunOutput } from './core/deliverables.js';
import type { FileChange } from './core/file-change.js';
import type { TokenUsage } from './core/models/tokens.js';
import type { StepResult } from './state/record/step-result.js';

/** The version of the event format; bumped when a field changes meaning. */
export const EVENT_VERSION = 1;

/** `rejected`: a step's contract found nothing to do (on_failure: rejected) and the run stopped there: not a failure. */
export type RunStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled' | 'rejected';
/** What a gate step waits for. */
export type GateKind = 'approval' | 'timer' | 'pr_merge' | 'ci_pass';

/** Who or what resolved a gate: its `auto`, `wave run --auto-approve`, `wave run --simulate`, a person (`wave approve`/`wave reject`), its timeout (the default choice), its timer, the forge (a merged pull request, a passed CI run). */
export type GateResolver = 'auto' | 'auto_approve' | 'environment' | 'person' | 'timeout' | 'timer' | 'forge' | 'simulate';

/** Where a simulated attempt's answer came from: a `--simulate-outputs` fixture, a JSON Schema, placeholder text, or none (it failed). */
export type SimulatedAnswer = 'fixture' | 'schema' | 'placeholder' | 'none';

/** The outcome a step's edges are read against: its own, or (a conditional step's) the step's before it. */
export type RouteOutcome = 'success' | 'failure';

/** A choice of an approval gate as its events show it. */
export interface GateChoiceEntry {
  key: string;
  label: string;
  target?: string;
}

/** Why a step started a child run: a `pipeline:` step, an item of `iterate`, an arm of `branch`. */
/** Why a loop step stopped iterating. */
export type LoopEnd = 'until' | 'max_iterations';

/** Why a step started a child run. */
export type ChildKind = 'sub_pipeline' | 'iterate_item' | 'branch_arm' | 'loop_iteration';
/** `reworking`: its rework step is fixing its work; `rejected`: its contract found nothing to do (on_failure: rejected). */
export type StepStatus = 'pending' | 'running' | 'retrying' | 'reworking' | 'completed' | 'failed' | 'skipped' | 'cancelled' | 'rejected';

interface Base {
  v: typeof EVENT_VERSION;
  /** ISO 8601 time the event happened. */
  ts: string;
  runId: string;
}

export type RunEvent = Base &
  /** The run was recorded: what it runs and how; the first line of events.ndjson. `ts` is when it started. */
  (
    | {
        type: 'run_created';
        pipeline: string;
        pipelineFile: string;
        manifestFile: string;
        input: string;
        options: RunOptions;
        steps: PlannedStepEntry[];
        parentId?: string;
        parentStepId?: string;
        childKind?: ChildKind;
      }
    | { type: 'run_started'; pipeline: string; steps: string[]; resumed: boolean; pid?: number }
    /** A resume puts these steps back to pending (their attempts kept) and the run with them. */
    | { type: 'steps_reset'; steps: PlannedStepEntry[] }
    /** The step began: its earlier results are set aside (attempts are kept), before its workspace is prepared. */
    | { type: 'step_began'; stepId: string }
    /** An attempt of a step started; `reworkOf`: it is an attempt of kind `rework`, fixing that failed step's work. */
    | {
        type: 'step_started';
        stepId: string;
        attempt: number;
        adapter: string;
        adapterType?: AdapterType;
        model?: string;
        workspace: string;
        kind?: 'rework';
        reworkOf?: string;
      }
    /** The attempt's process started, leading its own process group. */
    | { type: 'attempt_spawned'; stepId: string; attempt: number; pid: number }
    /** The Wave process driving the attempt was killed before it ended: recorded by the resume or cancel that found it. */
    | { type: 'attempt_interrupted'; stepId: string; attempt: number; adapter: string; model?: string; startedAt: string; pid?: number }
    /** A model asked for the step outside its attempts (an extract, a judge, a thread summary): what it cost. */
    | { type: 'model_request'; stepId: string; attempt: number; purpose: string; adapter: string; model?: string; ok: boolean; tokens: TokenUsage; costUsd?: number }
    /**
     * `wave run --simulate` answered the attempt (`purpose` `step`) or model request (`extract`, `judge`, …) instead of
     * its adapter: where its answer came from, and which of its files were generated from a schema, placeholder text or fixtures.
     */
    | {
        type: 'simulated';
        stepId: string;
        attempt: number;
        purpose: string;
        answer: SimulatedAnswer;
        generated: string[];
        placeholders: string[];
        fixtures: string[];
      }
    /** `wave replay` served the attempt (`purpose` `step`) or model request from the recorded run's attempt folder `from` (relative to the runs folder); `unsetSecrets`: the variables that were unset, so their `{{wave-secret:NAME}}` placeholder stayed in the restored files. */
    | { type: 'replay_matched'; stepId: string; attempt: number; purpose: string; from: string; unsetSecrets?: string[] }
    /**
     * `wave replay` found no recorded attempt for it: the first differing `field` (`step`, `attempt`, `adapter`, `prompt`,
     * or `exhausted` when none is left), and in `live` mode it ran live instead.
     */
    | { type: 'replay_mismatch'; stepId: string; attempt: number; purpose: string; field: string; message: string; live: boolean }
    | { type: 'step_event'; stepId: string; attempt: number; event: Exclude<StreamEvent, { kind: 'output' }> }
    /** The last line a running command printed (redacted), when it changed, at most once a second. */
    | { type: 'step_output'; stepId: string; attempt: number; line: string }
    /** The step's running tokens and cost (its earlier attempts included), published as they change while an attempt runs. */
    | { type: 'step_tokens'; stepId: string; attempt: number; tokens: TokenUsage; costUsd?: number }
    /** The transcripts of the step's thread that open its prompt (`steps`), and those left out to fit the budget. */
    | { type: 'thread_context'; stepId: string; attempt: number; thread: string; fidelity: Fidelity; steps: string[]; omitted: string[]; chars: number; note?: string }
    | { type: 'step_retrying'; stepId: string; attempt: number; delayMs: number; failure: Failure }
    | { type: 'step_fallback'; stepId: string; from: string; to: string; failure: Failure }
    /** A retry continues the agent session attempt `from` left: its prompt is only what failed. */
    | { type: 'session_continued'; stepId: string; attempt: number; sessionId: string; from: number }
    /** A retry that could have continued its agent session starts a fresh one with the whole prompt, and why. */
    | { type: 'session_fresh'; stepId: string; attempt: number; reason: string }
    | { type: 'artifact_saved'; stepId: string; name: string; path: string; bytes: number; artifactType?: string }
    /** A file the attempt created, modified or deleted in the step's workspace. */
    | ({ type: 'file_change'; stepId: string; attempt: number } & FileChange)
    /** The stored copy at `path` had `count` of the run's secrets replaced by [REDACTED]; the workspace file keeps them. */
    | { type: 'artifact_redacted'; stepId: string; name: string; path: string; count: number }
    /** A mount narrowed by `subset_from`: files copied, listed entries skipped (the first 50, with why; `skippedTotal` all), or why the whole source was mounted. */
    | {
        type: 'mount_subset';
        stepId: string;
        source: string;
        subsetFrom: string;
        copied: number;
        skipped: Array<{ path: string; reason: string }>;
        skippedTotal: number;
        fallback?: string;
      }
    /** An agent_review contract asked its reviewer persona to review the attempt's work. */
    | { type: 'review_started'; stepId: string; attempt: number; contract: string; reviewer: string }
    /** The reviewer passed the work (verdict pass or warn), with how many issues it listed. */
    | { type: 'review_completed'; stepId: string; attempt: number; contract: string; reviewer: string; verdict: 'pass' | 'warn'; issues: number; summary: string }
    /** The review failed the work: a fail verdict (with its issue count), or no usable verdict; `reason` says which. */
    | { type: 'review_failed'; stepId: string; attempt: number; contract: string; reviewer: string; reason: string; verdict?: 'fail'; issues?: number }
    /** A contract's verdict on an attempt's work; `round`: checked again after that rework round. */
    | { type: 'contract_checked'; stepId: string; attempt: number; contract: string; passed: boolean; action: string; errors: string[]; round?: number }
    /** One attempt ended (a round of `wave thread`): its result text (an agent's final answer, a command's output tail) capped, and its JSON output's fields. */
    | {
        type: 'attempt_finished';
        stepId: string;
        attempt: number;
        persona?: string;
        adapter: string;
        model?: string;
        passed: boolean;
        exitCode: number | null;
        durationMs: number;
        tokens: TokenUsage;
        costUsd?: number;
        failure?: Failure;
        text: string;
        output?: Record<string, unknown>;
        /** Its result in brief, as the summary shows it. */
        result?: StepResult;
        /** The agent session it ran in (only an id safe to resume). */
        sessionId?: string;
      }
    | {
        type: 'step_completed';
        stepId: string;
        attempt: number;
        durationMs: number;
        tokens: TokenUsage;
        costUsd?: number;
      }
    | {
        type: 'step_failed';
        stepId: string;
        attempt: number;
        durationMs: number;
        failure: Failure;
        optional: boolean;
      }
    /** The step failed and its rework step `target` runs to fix its work (round `round`); its contracts are checked again after. */
    | { type: 'step_reworking'; stepId: string; target: string; round: number; failure: Failure }
    /** A contract with `on_failure: rejected` failed: the step found nothing to do, and the run stops rejected. */
    | { type: 'step_rejected'; stepId: string; attempt: number; durationMs: number; failure: Failure; optional: boolean }
    | { type: 'egress'; stepId: string; attempt: number; host: string; port: number; allowed: boolean; via: 'connect' | 'http' | 'endpoint'; reason?: string }
    /** The run's cost reached runtime.cost.warn_at (once a session); `step` is the step whose cost crossed it. */
    | { type: 'budget_warning'; spentUsd: number; warnAtUsd: number; ceilingUsd?: number; step?: string }
    /** The run's cost reached runtime.cost.budget_ceiling: no new step starts, running ones stop with budget_exhausted. */
    | { type: 'budget_exhausted'; spentUsd: number; ceilingUsd: number; step?: string }
    /** A persona's token_scopes could not be checked before the run (no token set, a token that does not list its scopes, …). */
    | { type: 'token_scopes_unchecked'; persona: string; scopes: string[]; reason: string }
    /** What the step's `outcomes` yielded once it succeeded (links, files), and why any could not be taken. */
    | { type: 'step_outcomes'; stepId: string; outcomes: Outcome[]; warnings: string[] }
    /** The pipeline_outputs as the run ended: those resolved, and why the others are absent. */
    | { type: 'run_outputs'; outputs: Record<string, RunOutput>; warnings: string[] }
    /** Set aside: a dependency blocked it, or it failed under `retry.on_failure: skip` (then its failure and duration are kept). */
    | { type: 'step_skipped'; stepId: string; reason: string; failure?: Failure; durationMs?: number }
    | { type: 'step_cancelled'; stepId: string; failure?: Failure; durationMs?: number }
    /** A gate step began to wait: for a person's decision (`wave approve`), or for its timer. */
    | {
        type: 'gate_waiting';
        stepId: string;
        gate: GateKind;
        message?: string;
        choices?: GateChoiceEntry[];
        defaultChoice?: string;
        freeform?: boolean;
        timeoutMs?: number;
        /** pr_merge, ci_pass: what it polls the forge for (`pull request #12 of o/r to merge`). */
        polls?: string;
      }
    /** A gate was resolved: by whom or what, with which choice and text. */
    | { type: 'gate_resolved'; stepId: string; by: GateResolver; environment?: string; key?: string; label?: string; text?: string; target?: string }
    /** The walk goes on from the step to `target` (a step, or `_complete`) by an edge or a gate choice; `requeued` steps go back to pending to run again. */
    | { type: 'step_routed'; stepId: string; target: string; outcome: RouteOutcome; when?: string; requeued: string[] }
    /** An iterate step read its list: how many items it runs a child for, and how many of them an earlier run of the step completed (not run again). */
    | { type: 'iterate_items'; stepId: string; items: number; reused: number }
    /** A loop step began an iteration (1-based) of at most `of`; an iteration an earlier run completed is `reused`, not run again. */
    | { type: 'loop_iteration'; stepId: string; iteration: number; of: number; reused?: boolean }
    /** A loop step's iterations ended: after how many, and why (its `until` was met, or max_iterations was reached). */
    | { type: 'loop_ended'; stepId: string; iterations: number; reason: LoopEnd }
    /** The step started a child run (a run of another pipeline, sharing this run's bus, sandbox, budget and cancellation). */
    | { type: 'child_run_started'; stepId: string; childRunId: string; pipeline: string; item?: number }
    /** A child run the step started ended: how, what it cost in all (its own child runs included; charged to the step), and why when it did not complete. */
    | {
        type: 'child_run_finished';
        stepId: string;
        childRunId: string;
        status: Exclude<RunStatus, 'pending' | 'running'>;
        tokens: TokenUsage;
        costUsd?: number;
        failure?: Failure;
        /** How many attempts `wave run --simulate` answered in it (its own child runs' included); counted to the step. */
        simulated?: number;
        /** How many attempts `wave replay` served in it from the recording (its own child runs' included); counted to the step. */
        replayed?: number;
      }
    | { type: 'run_finished'; status: Exclude<RunStatus, 'pending' | 'running'>; durationMs: number; tokens: TokenUsage; costUsd?: number }
  );

export type RunEventType = RunEvent['type'];

/** How a run was asked to run: kept so a resume runs it the same way. */
export interface RunOptions {
  steps?: string[];
  exclude?: string[];
  onFailure: 'halt' | 'continue';
  timeoutMinutes?: number;
  keepWorkspaces: boolean;
  /** `--auto-approve`: an approval gate takes its default choice instead of waiting for a person. */
  autoApprove?: boolean;
  /** `--approved-in`: approval gates take their default choice, approved by the reviewers of this GitHub Environment. */
  approvedIn?: string;
  /** `--install-skills`: the required skills' install and init commands may run (in the sandbox). */
  installSkills?: boolean;
  /** `--simulate`: agent and model attempts are simulated (engine/attempt/simulate), gates approved; its children and resumes are simulated too. */
  simulate?: boolean;
  /** `--simulate-outputs`: the absolute folder of fixtures by step id a simulated attempt takes its files and answer from. */
  simulateOutputs?: string;
  /** `wave replay` / `--replay`: the recorded run (its folder, absolute) whose attempts serve this run's; its children and resumes replay too. */
  replayOf?: string;
  /** `--replay-mode`: `strict` (default) fails an unmatched attempt, `live` runs it live. */
  replayMode?: 'strict' | 'live';
  /** `--speed`: how much faster than recorded the streams are fed; absent, as fast as possible. */
  replaySpeed?: number;
  /** A child run's `{{ env.<key> }}` values (its parent step's config.env). */
  env?: Record<string, string>;
  /** A child run's: the parent's artifacts its steps may name as `{{ artifacts.<name> }}` (config.inject and the step's dependencies'). */
  parentArtifacts?: Record<string, string>;
  /** A child run's: the iteration limit of its loop steps that set none (its parent step's config.max_cycles). */
  maxCycles?: number;
}

/** A step as the run record first knows it. */
export interface PlannedStepEntry {
  id: string;
  optional: boolean;
  dependencies: string[];
}

/** Distributes the same events to every subscriber (store, terminal, --json, GitHub). */
export class EventBus {
  private readonly listeners = new Set<(event: RunEvent) => void>();

  subscribe(listener: (event: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: RunEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
