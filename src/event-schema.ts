import { z } from 'zod';
import { FIDELITIES } from './config/schema/fidelity.js';
import type { StreamEvent } from './adapters/types.js';
import type { Failure } from './core/errors/failure.js';
import { OUTCOME_TYPES } from './core/deliverables.js';
import { FAILURE_CLASSES, type FailureClass } from './core/errors/error-codes.js';
import type { TokenUsage } from './core/models/tokens.js';
import { EVENT_VERSION, type RunEvent } from './events.js';
import { ADAPTER_TYPES } from './core/resolved-adapter.js';

/** The values events carry: counts, tokens, failures, stream events, outcomes and outputs. */
function valueSchemas() {
  const Count = z.number().int().nonnegative();

  const FailureClassSchema = z.enum(FAILURE_CLASSES as [FailureClass, ...FailureClass[]]);

  const TokenUsageSchema = z.strictObject({ input: Count, output: Count, cacheRead: Count, cacheWrite: Count }).describe('Tokens as the provider reported them.');

  const FailureSchema = z
    .strictObject({
      class: FailureClassSchema,
      message: z.string(),
      hint: z.string().optional(),
      retryAfterMs: z.number().nonnegative().optional(),
    })
    .describe('Why an attempt failed.');

  /** A parsed agent stream event as stored (raw `output` byte counts are never stored). */
  const StreamEventSchema = z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('system'),
      subtype: z.string().optional(),
      sessionId: z.string().optional(),
      model: z.string().optional(),
      message: z.string().optional(),
    }),
    z.strictObject({ kind: z.literal('text'), text: z.string() }),
    z.strictObject({ kind: z.literal('thinking'), text: z.string() }),
    z.strictObject({ kind: z.literal('tool_use'), id: z.string().optional(), name: z.string(), target: z.string().optional() }),
    z.strictObject({ kind: z.literal('tool_result'), id: z.string().optional(), isError: z.boolean(), content: z.string().optional() }),
    z.strictObject({
      kind: z.literal('retry'),
      attempt: z.number().optional(),
      delayMs: z.number().optional(),
      status: z.number().optional(),
      message: z.string().optional(),
    }),
    z.strictObject({ kind: z.literal('error'), message: z.string(), failureClass: FailureClassSchema.optional() }),
    z.strictObject({ kind: z.literal('usage'), tokens: TokenUsageSchema, costUsd: z.number().optional() }),
    z.strictObject({
      kind: z.literal('result'),
      ok: z.boolean(),
      text: z.string().optional(),
      subtype: z.string().optional(),
      tokens: TokenUsageSchema.optional(),
      costUsd: z.number().optional(),
    }),
  ]);

  const OutcomeSchema = z
    .strictObject({
      type: z.enum(OUTCOME_TYPES),
      label: z.string(),
      value: z.string().describe('The link, or for file and artifact the absolute path of the file.'),
      source: z.string().describe("The outcome's extract_from, relative to the step's workspace."),
      jsonPath: z.string().optional(),
    })
    .describe('A link or file a step produced (an outcome).');

  const RunOutputSchema = z
    .strictObject({
      step: z.string(),
      artifact: z.string(),
      field: z.string().optional(),
      type: z.string().describe('Its declared I/O type (string when none).'),
      path: z.string().describe("The artifact's stored copy, relative to the run folder."),
      value: z.string().optional().describe("The artifact's text, or its field's; absent when too large, not text, or a folder."),
    })
    .describe('A named pipeline output, resolved.');
  return { Count, FailureClassSchema, TokenUsageSchema, FailureSchema, StreamEventSchema, OutcomeSchema, RunOutputSchema };
}

/** What every event holds, and the parts of the run and step events. */
function entrySchemas(Count: ReturnType<typeof valueSchemas>['Count']) {
  const base = {
    v: z.literal(EVENT_VERSION).describe('The event format version.'),
    ts: z.iso.datetime().describe('When the event happened (ISO 8601, UTC).'),
    runId: z.string(),
  };
  const Attempt = z.number().int().positive();
  const Duration = z.number().nonnegative();

  const PlannedStepEntrySchema = z.strictObject({ id: z.string(), optional: z.boolean(), dependencies: z.array(z.string()) });

  const RunOptionsSchema = z
    .strictObject({
      steps: z.array(z.string()).optional(),
      exclude: z.array(z.string()).optional(),
      onFailure: z.enum(['halt', 'continue']),
      timeoutMinutes: z.number().positive().optional(),
      keepWorkspaces: z.boolean(),
      autoApprove: z.boolean().optional().describe('--auto-approve: approval gates take their default choice.'),
      approvedIn: z.string().optional().describe('--approved-in: approval gates take their default choice, approved by the reviewers of this GitHub Environment.'),
      installSkills: z.boolean().optional().describe("--install-skills: the required skills' install and init commands may run, in the sandbox."),
      simulate: z.boolean().optional().describe('--simulate: agent and model attempts are simulated, gates approved; a resume stays simulated.'),
      simulateOutputs: z.string().optional().describe('--simulate-outputs: the absolute folder of fixtures by step id.'),
      replayOf: z.string().optional().describe('wave replay: the recorded run folder whose attempts serve this run; a resume keeps replaying.'),
      replayMode: z.enum(['strict', 'live']).optional().describe('--replay-mode: strict fails an unmatched attempt, live runs it live.'),
      replaySpeed: z.number().positive().optional().describe('--speed: how much faster than recorded the streams are fed; absent, as fast as possible.'),
      env: z.record(z.string(), z.string()).optional(),
      parentArtifacts: z.record(z.string(), z.string()).optional(),
      maxCycles: z.number().int().positive().optional(),
    })
    .describe('How the run was asked to run (--steps, --exclude, --on-failure, --timeout, --keep-workspaces).');

  const StepResultSchema = z
    .strictObject({ kind: z.enum(['answer', 'output', 'fields']), lines: z.array(z.string()), total: Count, cut: z.boolean() })
    .describe("An attempt's result in brief, as the run summary shows it.");

  return { base, Attempt, Duration, PlannedStepEntrySchema, RunOptionsSchema, StepResultSchema };
}

type Parts = ReturnType<typeof valueSchemas> & ReturnType<typeof entrySchemas>;

/** The run's and its steps' start, and an attempt's spawn and interruption. */
function startEvents(p: Parts) {
  const { base, Attempt, PlannedStepEntrySchema, RunOptionsSchema } = p;
  return [
    z
      .strictObject({
        ...base,
        type: z.literal('run_created'),
        pipeline: z.string(),
        pipelineFile: z.string(),
        manifestFile: z.string(),
        input: z.string(),
        options: RunOptionsSchema,
        steps: z.array(PlannedStepEntrySchema),
        parentId: z.string().optional().describe('The run whose step started this one.'),
        parentStepId: z.string().optional().describe('The step of the parent run that started this one.'),
        childKind: z.enum(['sub_pipeline', 'iterate_item', 'branch_arm', 'loop_iteration']).optional().describe('Why the parent step started it.'),
      })
      .describe('The run was recorded: what it runs and how. The first line of events.ndjson; `ts` is when the run started.'),
    z.strictObject({
      ...base,
      type: z.literal('run_started'),
      pipeline: z.string(),
      steps: z.array(z.string()),
      resumed: z.boolean(),
      pid: z.number().int().positive().optional().describe('The Wave process driving the run.'),
    }),
    z
      .strictObject({ ...base, type: z.literal('steps_reset'), steps: z.array(PlannedStepEntrySchema) })
      .describe('A resume put these steps back to pending (their attempts kept), and the run with them.'),
    z
      .strictObject({ ...base, type: z.literal('step_began'), stepId: z.string() })
      .describe('The step began: its earlier results are set aside (its attempts are kept), before its workspace is prepared.'),
    z.strictObject({
      ...base,
      type: z.literal('step_started'),
      stepId: z.string(),
      attempt: Attempt,
      adapter: z.string(),
      adapterType: z.enum(ADAPTER_TYPES).optional(),
      model: z.string().optional(),
      workspace: z.string(),
      kind: z.literal('rework').optional().describe('An attempt of kind rework: fixing the work of the step `reworkOf`.'),
      reworkOf: z.string().optional(),
    }),
    z
      .strictObject({ ...base, type: z.literal('step_output'), stepId: z.string(), attempt: Attempt, line: z.string() })
      .describe('The last line a running command printed (redacted), when it changed, at most once a second.'),
    z
      .strictObject({ ...base, type: z.literal('attempt_spawned'), stepId: z.string(), attempt: Attempt, pid: z.number().int().positive() })
      .describe("The attempt's process started, leading its own process group."),
    z
      .strictObject({
        ...base,
        type: z.literal('attempt_interrupted'),
        stepId: z.string(),
        attempt: Attempt,
        adapter: z.string(),
        model: z.string().optional(),
        startedAt: z.iso.datetime(),
        pid: z.number().int().positive().optional(),
      })
      .describe('The Wave process driving the attempt was killed before it ended; recorded by the resume or cancel that found it.'),
  ] as const;
}

/** What an attempt asks and streams: model requests, simulation and replay, stream events, tokens, thread context. */
function attemptEvents(p: Parts) {
  const { Count, TokenUsageSchema, StreamEventSchema, base, Attempt } = p;
  return [
    z
      .strictObject({
        ...base,
        type: z.literal('model_request'),
        stepId: z.string(),
        attempt: Attempt,
        purpose: z.string(),
        adapter: z.string(),
        model: z.string().optional(),
        ok: z.boolean(),
        tokens: TokenUsageSchema,
        costUsd: z.number().optional(),
      })
      .describe('A model asked for the step outside its attempts (an extract, a judge, a thread summary), and what it cost.'),
    z
      .strictObject({
        ...base,
        type: z.literal('simulated'),
        stepId: z.string(),
        attempt: Attempt,
        purpose: z.string(),
        answer: z.enum(['fixture', 'schema', 'placeholder', 'none']),
        generated: z.array(z.string()),
        placeholders: z.array(z.string()),
        fixtures: z.array(z.string()),
      })
      .describe(
        '`wave run --simulate` answered the attempt (purpose `step`) or model request instead of its adapter: where its answer came from, and which files were generated from a schema, placeholder text or fixtures.',
      ),
    z
      .strictObject({
        ...base,
        type: z.literal('replay_matched'),
        stepId: z.string(),
        attempt: Attempt,
        purpose: z.string(),
        from: z.string(),
        unsetSecrets: z.array(z.string()).optional(),
      })
      .describe('`wave replay` served the attempt (purpose `step`) or model request from a recorded attempt folder (relative to the runs folder).'),
    z
      .strictObject({
        ...base,
        type: z.literal('replay_mismatch'),
        stepId: z.string(),
        attempt: Attempt,
        purpose: z.string(),
        field: z.string(),
        message: z.string(),
        live: z.boolean(),
      })
      .describe('`wave replay` found no recorded attempt for it: the first differing field (or `exhausted`), and whether it ran live (`--replay-mode live`).'),
    z.strictObject({ ...base, type: z.literal('step_event'), stepId: z.string(), attempt: Attempt, event: StreamEventSchema }),
    z
      .strictObject({ ...base, type: z.literal('step_tokens'), stepId: z.string(), attempt: Attempt, tokens: TokenUsageSchema, costUsd: z.number().optional() })
      .describe("A step's running tokens and cost, earlier attempts included; the attempt's final result replaces what its stream reported."),
    z
      .strictObject({
        ...base,
        type: z.literal('thread_context'),
        stepId: z.string(),
        attempt: Attempt,
        thread: z.string(),
        fidelity: z.enum(FIDELITIES),
        steps: z.array(z.string()),
        omitted: z.array(z.string()),
        chars: Count,
        note: z.string().optional(),
      })
      .describe("The transcripts of the step's thread its prompt starts with; `omitted` were left out to fit the budget."),
  ] as const;
}

/** Retries, fallbacks and sessions, saved artifacts and changed files. */
function retryAndArtifactEvents(p: Parts) {
  const { Count, FailureSchema, base, Attempt, Duration } = p;
  return [
    z.strictObject({
      ...base,
      type: z.literal('step_retrying'),
      stepId: z.string(),
      attempt: Attempt,
      delayMs: Duration,
      failure: FailureSchema,
    }),
    z.strictObject({ ...base, type: z.literal('step_fallback'), stepId: z.string(), from: z.string(), to: z.string(), failure: FailureSchema }),
    z
      .strictObject({ ...base, type: z.literal('session_continued'), stepId: z.string(), attempt: Attempt, sessionId: z.string(), from: Attempt })
      .describe('A retry continues the agent session attempt `from` left (retry.continue_session): its prompt is only what failed.'),
    z
      .strictObject({ ...base, type: z.literal('session_fresh'), stepId: z.string(), attempt: Attempt, reason: z.string() })
      .describe('A retry that could have continued its agent session starts a fresh one with the whole prompt, and why.'),
    z.strictObject({
      ...base,
      type: z.literal('artifact_saved'),
      stepId: z.string(),
      name: z.string(),
      path: z.string(),
      bytes: Count,
      artifactType: z.string().optional().describe("The artifact's declared type."),
    }),
    z
      .strictObject({
        ...base,
        type: z.literal('file_change'),
        stepId: z.string(),
        attempt: Attempt,
        path: z.string(),
        change: z.enum(['added', 'modified', 'deleted']),
        added: Count.optional(),
        removed: Count.optional(),
        binary: z.boolean().optional(),
      })
      .describe("A file the attempt created, modified or deleted in the step's workspace, with its added and removed lines (none for a binary file)."),
    z
      .strictObject({ ...base, type: z.literal('artifact_redacted'), stepId: z.string(), name: z.string(), path: z.string(), count: Count })
      .describe('Secrets of the run were replaced by [REDACTED] in the stored copy of an artifact; the workspace file is unchanged.'),
    z
      .strictObject({
        ...base,
        type: z.literal('mount_subset'),
        stepId: z.string(),
        source: z.string(),
        subsetFrom: z.string(),
        copied: Count,
        skipped: z.array(z.strictObject({ path: z.string(), reason: z.string() })).describe('The first 50 listed entries not copied, and why.'),
        skippedTotal: Count,
        fallback: z.string().optional().describe('Why the whole source was mounted instead (the artifact is not in this run).'),
      })
      .describe('A mount narrowed to the files an artifact lists (workspace.mount[].subset_from): what was copied and skipped.'),
  ] as const;
}

/** Reviews, contract checks, an attempt's end and a step's completion. */
function checkEvents(p: Parts) {
  const { TokenUsageSchema, FailureSchema, base, Attempt, Duration, StepResultSchema } = p;
  return [
    z
      .strictObject({ ...base, type: z.literal('review_started'), stepId: z.string(), attempt: Attempt, contract: z.string(), reviewer: z.string() })
      .describe("An agent_review contract asked its reviewer persona to review the attempt's work."),
    z
      .strictObject({
        ...base,
        type: z.literal('review_completed'),
        stepId: z.string(),
        attempt: Attempt,
        contract: z.string(),
        reviewer: z.string(),
        verdict: z.enum(['pass', 'warn']),
        issues: z.number().int().nonnegative(),
        summary: z.string(),
      })
      .describe('The reviewer passed the work (verdict pass or warn), with how many issues it listed.'),
    z
      .strictObject({
        ...base,
        type: z.literal('review_failed'),
        stepId: z.string(),
        attempt: Attempt,
        contract: z.string(),
        reviewer: z.string(),
        reason: z.string(),
        verdict: z.literal('fail').optional(),
        issues: z.number().int().nonnegative().optional(),
      })
      .describe('The review failed the work: a fail verdict (with its issue count), or no usable verdict; reason says which.'),
    z.strictObject({
      ...base,
      type: z.literal('contract_checked'),
      stepId: z.string(),
      attempt: Attempt,
      contract: z.string(),
      passed: z.boolean(),
      action: z.string(),
      errors: z.array(z.string()),
      round: z.number().int().positive().optional().describe('Checked again after this rework round.'),
    }),
    z
      .strictObject({
        ...base,
        type: z.literal('attempt_finished'),
        stepId: z.string(),
        attempt: Attempt,
        persona: z.string().optional(),
        adapter: z.string(),
        model: z.string().optional(),
        passed: z.boolean(),
        exitCode: z.number().int().nullable(),
        durationMs: Duration,
        tokens: TokenUsageSchema,
        costUsd: z.number().optional(),
        failure: FailureSchema.optional(),
        text: z.string().describe("The attempt's result: an agent's final answer or a command's output tail, its last characters when long."),
        output: z.record(z.string(), z.unknown()).optional().describe("The fields of the step's JSON output, when its output is a JSON object."),
        result: StepResultSchema.optional(),
        sessionId: z.string().optional().describe('The agent session it ran in (only an id safe to resume).'),
      })
      .describe('One attempt of a step ended: a round of `wave thread`.'),
    z.strictObject({
      ...base,
      type: z.literal('step_completed'),
      stepId: z.string(),
      attempt: Attempt,
      durationMs: Duration,
      tokens: TokenUsageSchema,
      costUsd: z.number().optional(),
    }),
  ] as const;
}

/** Failures, rework and rejection, egress, budgets, outcomes and outputs, skips, cancels and gates. */
function failureBudgetAndGateEvents(p: Parts) {
  const { FailureSchema, OutcomeSchema, RunOutputSchema, base, Attempt, Duration } = p;
  return [
    z.strictObject({
      ...base,
      type: z.literal('step_failed'),
      stepId: z.string(),
      attempt: Attempt,
      durationMs: Duration,
      failure: FailureSchema,
      optional: z.boolean(),
    }),
    z
      .strictObject({ ...base, type: z.literal('step_reworking'), stepId: z.string(), target: z.string(), round: z.number().int().positive(), failure: FailureSchema })
      .describe('The step failed and its rework step `target` runs to fix its work; its contracts are checked again after.'),
    z
      .strictObject({ ...base, type: z.literal('step_rejected'), stepId: z.string(), attempt: Attempt, durationMs: Duration, failure: FailureSchema, optional: z.boolean() })
      .describe('A contract with on_failure: rejected failed: the step found nothing to do, and the run stops rejected.'),
    z.strictObject({
      ...base,
      type: z.literal('egress'),
      stepId: z.string(),
      attempt: Attempt,
      host: z.string(),
      port: z.number().int().nonnegative(),
      allowed: z.boolean(),
      via: z.enum(['connect', 'http', 'endpoint']).describe('A CONNECT tunnel, a plain HTTP request, or the forwarded model endpoint.'),
      reason: z.string().optional(),
    }),
    z
      .strictObject({ ...base, type: z.literal('budget_warning'), spentUsd: z.number(), warnAtUsd: z.number(), ceilingUsd: z.number().optional(), step: z.string().optional() })
      .describe("The run's cost, in US dollars, reached runtime.cost.warn_at; `step` is the step whose cost crossed it."),
    z
      .strictObject({ ...base, type: z.literal('budget_exhausted'), spentUsd: z.number(), ceilingUsd: z.number(), step: z.string().optional() })
      .describe("The run's cost reached runtime.cost.budget_ceiling: no new step starts and running steps stop with budget_exhausted."),
    z
      .strictObject({ ...base, type: z.literal('token_scopes_unchecked'), persona: z.string(), scopes: z.array(z.string()), reason: z.string() })
      .describe("A persona's token_scopes could not be checked against its forge token before the run, and why."),
    z
      .strictObject({ ...base, type: z.literal('step_outcomes'), stepId: z.string(), outcomes: z.array(OutcomeSchema), warnings: z.array(z.string()) })
      .describe("What the step's `outcomes` yielded once it succeeded (links, files), and why any could not be taken."),
    z
      .strictObject({ ...base, type: z.literal('run_outputs'), outputs: z.record(z.string(), RunOutputSchema), warnings: z.array(z.string()) })
      .describe('The pipeline_outputs as the run ended: those resolved, and why the others are absent.'),
    z
      .strictObject({ ...base, type: z.literal('step_skipped'), stepId: z.string(), reason: z.string(), failure: FailureSchema.optional(), durationMs: Duration.optional() })
      .describe('The step was set aside: a dependency blocked it, or it failed under `retry.on_failure: skip` (then its failure and duration are kept).'),
    z.strictObject({ ...base, type: z.literal('step_cancelled'), stepId: z.string(), failure: FailureSchema.optional(), durationMs: Duration.optional() }),
    z
      .strictObject({
        ...base,
        type: z.literal('gate_waiting'),
        stepId: z.string(),
        gate: z.enum(['approval', 'timer', 'pr_merge', 'ci_pass']),
        message: z.string().optional(),
        choices: z.array(z.strictObject({ key: z.string(), label: z.string(), target: z.string().optional() })).optional(),
        defaultChoice: z.string().optional(),
        freeform: z.boolean().optional(),
        timeoutMs: Duration.optional(),
        polls: z.string().optional(),
      })
      .describe("A gate step began to wait: for a person's decision (`wave approve`), for its timer, or for the forge (a pull request's merge, a branch's CI)."),
    z
      .strictObject({
        ...base,
        type: z.literal('gate_resolved'),
        stepId: z.string(),
        by: z.enum(['auto', 'auto_approve', 'environment', 'person', 'timeout', 'timer', 'forge', 'simulate']),
        environment: z.string().optional(),
        key: z.string().optional(),
        label: z.string().optional(),
        text: z.string().optional(),
        target: z.string().optional(),
      })
      .describe(
        'A gate was resolved: by its `auto`, `--auto-approve`, the reviewers of a GitHub Environment (`--approved-in`), a person, its timeout (the default choice) or its timer; with which choice and text.',
      ),
  ] as const;
}

/** Routing, iteration, loops, child runs, and the run's end. */
function compositionAndEndEvents(p: Parts) {
  const { Count, TokenUsageSchema, FailureSchema, base, Duration } = p;
  return [
    z
      .strictObject({
        ...base,
        type: z.literal('step_routed'),
        stepId: z.string(),
        target: z.string(),
        outcome: z.enum(['success', 'failure']),
        when: z.string().optional(),
        requeued: z.array(z.string()),
      })
      .describe('The walk goes on from the step to `target` (a step, or `_complete`) by an edge or a gate choice; `requeued` steps go back to pending to run again.'),
    z
      .strictObject({ ...base, type: z.literal('iterate_items'), stepId: z.string(), items: z.number().int().nonnegative(), reused: z.number().int().nonnegative() })
      .describe('An iterate step read its list: how many items it runs a child for, and how many of them an earlier run of the step completed (not run again).'),
    z
      .strictObject({
        ...base,
        type: z.literal('loop_iteration'),
        stepId: z.string(),
        iteration: z.number().int().positive(),
        of: z.number().int().positive(),
        reused: z.boolean().optional(),
      })
      .describe('A loop step began an iteration (1-based) of at most `of`; `reused`: an earlier run completed it, so it is not run again.'),
    z
      .strictObject({ ...base, type: z.literal('loop_ended'), stepId: z.string(), iterations: z.number().int().nonnegative(), reason: z.enum(['until', 'max_iterations']) })
      .describe("A loop step's iterations ended: after how many, and why (its `until` was met, or max_iterations was reached)."),
    z
      .strictObject({
        ...base,
        type: z.literal('child_run_started'),
        stepId: z.string(),
        childRunId: z.string(),
        pipeline: z.string(),
        item: z.number().int().nonnegative().optional(),
      })
      .describe("The step started a child run: a run of another pipeline sharing this run's bus, sandbox, budget and cancellation."),
    z
      .strictObject({
        ...base,
        type: z.literal('child_run_finished'),
        stepId: z.string(),
        childRunId: z.string(),
        status: z.enum(['completed', 'failed', 'cancelled', 'rejected']),
        tokens: TokenUsageSchema,
        costUsd: z.number().optional(),
        failure: FailureSchema.optional(),
        simulated: Count.optional(),
        replayed: Count.optional(),
      })
      .describe(
        'A child run the step started ended: how, what it cost in all (its own child runs included; charged to the step), and why when it did not complete; `simulated`: how many of its attempts `wave run --simulate` answered, `replayed` how many `wave replay` served.',
      ),
    z.strictObject({
      ...base,
      type: z.literal('run_finished'),
      status: z.enum(['completed', 'failed', 'cancelled', 'rejected']),
      durationMs: Duration,
      tokens: TokenUsageSchema,
      costUsd: z.number().optional(),
    }),
  ] as const;
}

/** Builds the schemas of the stored events; once, on first use: building them is a large part of a command's start-up. */
function buildEventSchemas() {
  const values = valueSchemas();
  const parts: Parts = { ...values, ...entrySchemas(values.Count) };
  /** One event of a run, as written to events.ndjson and printed by `--json`. */
  const RunEventSchema = z
    .discriminatedUnion('type', [
      ...startEvents(parts),
      ...attemptEvents(parts),
      ...retryAndArtifactEvents(parts),
      ...checkEvents(parts),
      ...failureBudgetAndGateEvents(parts),
      ...compositionAndEndEvents(parts),
    ])
    .describe('One event of a Wave run: a line of events.ndjson or of `wave run --json`.');
  const { TokenUsageSchema, FailureSchema, StreamEventSchema, OutcomeSchema, RunOutputSchema } = parts;
  return { TokenUsageSchema, FailureSchema, StreamEventSchema, OutcomeSchema, RunOutputSchema, RunEventSchema };
}

type EventSchemas = ReturnType<typeof buildEventSchemas>;
let built: EventSchemas | undefined;

/** The schemas of the stored events, built on first use. */
export function eventSchemas(): EventSchemas {
  return (built ??= buildEventSchemas());
}

// Compile-time proof that the schemas and the TypeScript types describe the same values.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type _RunEventMatches = Assert<Same<z.infer<EventSchemas['RunEventSchema']>, RunEvent>>;
type _StreamEventMatches = Assert<Same<z.infer<EventSchemas['StreamEventSchema']>, Exclude<StreamEvent, { kind: 'output' }>>>;
type _FailureMatches = Assert<Same<z.infer<EventSchemas['FailureSchema']>, Failure>>;
type _TokensMatch = Assert<Same<z.infer<EventSchemas['TokenUsageSchema']>, TokenUsage>>;
type _FailureClassesComplete = Assert<Same<(typeof FAILURE_CLASSES)[number], FailureClass>>;
