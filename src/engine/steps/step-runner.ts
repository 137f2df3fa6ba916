import { modelEndpoints } from '../../adapters/access-mode.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { AdapterResult } from '../../adapters/types.js';
import { isRetried } from '../../core/error-codes.js';
import { failureOfError, type Failure } from '../../core/failure.js';
import type { ResolvedAdapter } from '../../core/resolved-adapter.js';
import { sleep } from '../../core/sleep.js';
import type { PlannedStep } from '../../plan/plan-types.js';
import { backoffDelay } from './backoff.js';
import { collectStepArtifacts, prepareStepWorkspace, type PreparedStep } from '../workspace/step-files.js';
import { emit, type RunContext } from '../run/context.js';
import { reasonOf, runAttempt } from '../attempt/attempt.js';
import { RunningTokens } from '../run/running-tokens.js';
import { attemptPricer } from '../../core/attempt-cost.js';
import { failureFeedback } from './retry-prompt.js';
import { contractFeedback } from '../../contracts/retry-feedback.js';
import { StepSessions, type AttemptStart } from './session-continuation.js';
import { isSafeSessionId } from '../../adapters/session.js';
import { attemptEnv, modelAsker } from '../attempt/ask-model.js';
import { extractJson } from '../attempt/extract.js';
import { recordStepOutcomes } from './step-outcomes.js';
import { checkStepContracts, type ContractsVerdict } from './step-contracts.js';
import { sandboxedSpawn } from '../attempt/sandboxed-spawn.js';
import { withFileChanges } from '../workspace/step-changes.js';
import { returnStepBranch } from '../workspace/git/branch-return.js';
import { attemptsOf } from '../../state/step-logs.js';
import { jsonFields, roundText } from './round-text.js';
import { stepResult } from '../../state/step-result.js';
import { withThreadContext } from './thread-context.js';
import { requiredSkillCommands } from './skill-commands.js';

export interface StepOutcome {
  /** `skipped`: the step failed and its `retry.on_failure: skip` set it aside. */
  status: 'completed' | 'failed' | 'cancelled' | 'skipped';
  output?: string;
  failure?: Failure;
  /** A contract with on_failure: continue failed the step; its dependents still run. */
  dependentsRun?: boolean;
}

/** Runs one step to its end: workspace, injected artifacts, attempts with retry and fallback, artifacts. */
export async function runStep(context: RunContext, step: PlannedStep, outputs: ReadonlyMap<string, string>, signal: AbortSignal): Promise<StepOutcome> {
  const { store } = context;
  // A resumed step keeps its earlier attempts; numbering goes on after the highest one run.json or the disk
  // knows (a kill can come before run.json records an attempt), so no attempt folder is ever reused.
  const firstAttempt = Math.max(0, ...attemptsOf(store.dir, store.record, step.id)) + 1;
  emit(context, { type: 'step_began', stepId: step.id });
  const started = Date.now();
  let prepared;
  try {
    prepared = await prepareStepWorkspace(context, step, outputs);
    // Retries start from this prompt too: the thread's transcripts are read once, as they were when the step began.
    if (step.thread) prepared.prompt = await withThreadContext(context, step, prepared.prompt, firstAttempt, modelAsker(context, step, firstAttempt, prepared, signal));
  } catch (error) {
    // A workspace that cannot be made is the step's failure; a WaveError keeps its own class.
    return finish(context, step, started, firstAttempt, failureOfError(error, 'workspace_failed'));
  }
  let adapter: ResolvedAdapter = step.adapter;
  let fallbacksUsed = 0;
  let attemptOnAdapter = 0;
  // What the next attempt is told of the last failure (prompt steps): alone in a continued session, else after the prompt.
  let feedback: string | undefined;
  const sessions = new StepSessions(step, context.registry);
  // Contract retries are counted per contract, apart from the step's retry policy: a contract retry starts a
  // fresh attempt with the step's full retry budget, and a contract failure is never retried by that policy.
  const contractRetries = new Map<number, number>();
  for (let attempt = firstAttempt; ; attempt++) {
    attemptOnAdapter++;
    const watch = { workspace: prepared.workspace, git: prepared.git, adapterType: adapter.type, attemptDir: store.attemptPath(step.id, attempt) };
    const start = sessions.start(adapter, prepared.prompt, feedback);
    const result = await withFileChanges(context, step.id, attempt, watch, () => attemptOnce(context, step, adapter, attempt, start, prepared, signal));
    sessions.ended(attempt, adapter, watch.attemptDir, start, result);
    const { output, failure, verdict } = await judgeAttempt(context, step, prepared, attempt, result, contractRetries, signal);
    recordAttemptEnd(
      context,
      step,
      attempt,
      result,
      output,
      failure ?? (verdict?.retry ? { class: 'contract_failed', message: `contract ${verdict.retry.label} failed` } : undefined),
    );
    if (verdict?.retry) {
      if (signal.aborted) return stopped(context, step, started, attempt, signal);
      const { index, label, errors } = verdict.retry;
      contractRetries.set(index, (contractRetries.get(index) ?? 0) + 1);
      emit(context, {
        type: 'step_retrying',
        stepId: step.id,
        attempt,
        delayMs: 0,
        failure: { class: 'contract_failed', message: `contract ${label} failed: ${errors.join('; ')}` },
      });
      // A command is re-run as written (it may be stateful, like a flaky test); an agent is told what failed.
      if (step.execType === 'prompt') feedback = contractFeedback(attempt, label, errors, output);
      attemptOnAdapter = 0;
      continue;
    }
    if (!failure) {
      await writeOutput(context, step.id, output);
      await recordStepOutcomes(context, step, prepared.workspace);
      return finish(context, step, started, attempt, undefined, output);
    }
    // The contract's own `continue` decides here, not the step's retry.on_failure.
    if (verdict?.outcome === 'continue') {
      // Its dependents read the output, here or in another job (a compiled workflow) or a resumed run.
      await writeOutput(context, step.id, output);
      return { ...finish(context, step, started, attempt, failure, output, 'fail'), dependentsRun: true };
    }
    if (failure.class === 'contract_failed') return finish(context, step, started, attempt, failure);
    if (signal.aborted || failure.class === 'aborted') return stopped(context, step, started, attempt, signal);
    // The CLI refused to resume the session before doing any work: the next attempt starts fresh, off the retry budget.
    if (result.resumeRefused !== undefined) {
      attemptOnAdapter--;
      continue;
    }
    if (isRetried(failure.class) && attemptOnAdapter < step.retry.maxAttempts) {
      const delayMs = Math.max(backoffDelay(step.retry, attemptOnAdapter), failure.retryAfterMs ?? 0);
      emit(context, { type: 'step_retrying', stepId: step.id, attempt, delayMs, failure });
      if (!(await sleep(delayMs, { signal }))) return stopped(context, step, started, attempt, signal);
      // A command is re-run as written; an agent is told what went wrong, unless its retry says adapt_prompt: false.
      feedback = step.execType === 'prompt' && step.retry.adaptPrompt ? failureFeedback(attempt, failure, result.outputTail) : undefined;
      continue;
    }
    const next = failure.class === 'rate_limited' ? step.fallbacks[fallbacksUsed] : undefined;
    if (!next) return finish(context, step, started, attempt, failure);
    emit(context, { type: 'step_fallback', stepId: step.id, from: adapter.name, to: next.name, failure });
    fallbacksUsed++;
    adapter = next;
    attemptOnAdapter = 0;
    feedback = undefined;
  }
}

interface AttemptJudgement {
  output: string;
  failure?: Failure;
  /** Set when the step has contracts and everything before them passed. */
  verdict?: ContractsVerdict;
}

/** What an attempt amounts to: the adapter's result, then its artifacts, its extract and its contracts, each only if all before passed. */
async function judgeAttempt(
  context: RunContext,
  step: PlannedStep,
  prepared: PreparedStep,
  attempt: number,
  result: AdapterResult,
  contractRetries: ReadonlyMap<number, number>,
  signal: AbortSignal,
): Promise<AttemptJudgement> {
  let failure = result.failure ?? (result.ok ? undefined : { class: 'non_zero_exit', message: `exit code ${result.exitCode}` });
  // The step's commits reach its branch in the project whatever the attempt's outcome, as when it wrote there itself.
  const returned = prepared.git
    ? await returnStepBranch(prepared.git).then(
        () => undefined,
        (error: unknown) => failureOfError(error, 'workspace_failed'),
      )
    : undefined;
  failure ??= returned;
  if (!failure) failure = await collectStepArtifacts(context, step, prepared, attempt);
  let output = result.text;
  if (!failure && step.extract) {
    const extracted = await extractJson(step.id, step.extract, output, modelAsker(context, step, attempt, prepared, signal));
    if (extracted.ok) output = await saveExtracted(context, step.id, extracted.json);
    else failure = extracted.failure;
  }
  if (failure || !step.contracts.length) return { output, failure };
  const verdict = await checkStepContracts(context, step, prepared, attempt, output, contractRetries, signal);
  return { output: verdict.output, failure: verdict.failure, verdict };
}

async function attemptOnce(
  context: RunContext,
  step: PlannedStep,
  adapter: ResolvedAdapter,
  attempt: number,
  start: AttemptStart,
  prepared: PreparedStep,
  signal: AbortSignal,
): Promise<AdapterResult> {
  const { plan, store } = context;
  const { workspace } = prepared;
  const model = adapter === step.adapter ? step.model : adapter.model;
  emit(context, { type: 'step_started', stepId: step.id, attempt, adapter: adapter.name, adapterType: adapter.type, model, workspace });
  if (start.continueFrom) emit(context, { type: 'session_continued', stepId: step.id, attempt, sessionId: start.continueFrom.sessionId, from: start.continuedFrom! });
  else if (start.freshReason !== undefined) emit(context, { type: 'session_fresh', stepId: step.id, attempt, reason: start.freshReason });
  const env = attemptEnv(context, step, adapter, prepared);
  const runner = context.registry.resolve(adapter.type);
  const attemptDir = store.attemptPath(step.id, attempt);
  // Asynchronous: on a slow disk, creating folders on the main thread holds up every other step.
  await mkdir(attemptDir, { recursive: true });
  const before = store.record.steps[step.id]!;
  // Tokens the stream reports without a cost are priced live, so runtime.cost can stop a long attempt mid-way.
  const running = new RunningTokens(
    { tokens: before.tokens, ...(before.costUsd !== undefined ? { costUsd: before.costUsd } : {}) },
    await attemptPricer(adapter, model, modelEndpoints(adapter, env)),
  );
  const publishTokens = () => emit(context, { type: 'step_tokens', stepId: step.id, attempt, ...running.totals() });
  const result = await runAttempt(
    runner,
    {
      runId: store.record.id,
      stepId: step.id,
      attempt,
      adapter,
      persona: step.persona,
      skills: step.skills,
      ...(step.execType === 'prompt' && plan.requires.skills.length ? { skillCommands: await requiredSkillCommands(plan.requires, plan.projectRoot) } : {}),
      model,
      prompt: start.prompt,
      ...(start.continueFrom ? { continueFrom: start.continueFrom } : {}),
      execType: step.execType,
      values: prepared.values,
      workspace,
      attemptDir,
      env,
      graceMs: plan.runtime.graceMs,
      drainMs: plan.runtime.drainMs,
      maxLineBytes: plan.runtime.maxLineBytes,
      spawn: sandboxedSpawn(context, step, adapter, { attempt, workspace, git: prepared.git, attemptDir, env }),
      onSpawn: (pid) => {
        // A file of its own, started at once: run.json is written in bursts and a kill may come first. It holds
        // the pid too, so a failed write here loses nothing once run.json is written.
        writeFile(join(attemptDir, 'pid'), String(pid)).catch(() => undefined);
        emit(context, { type: 'attempt_spawned', stepId: step.id, attempt, pid });
      },
    },
    { timeoutMs: step.timeoutMs, stallMs: plan.runtime.stallMs },
    signal,
    (event) => {
      if (event.kind === 'output') return;
      emit(context, { type: 'step_event', stepId: step.id, attempt, event });
      if (running.apply(event)) publishTokens();
    },
  );
  // The adapter's totals are authoritative: they replace what the stream reported on the way (unless it reports none).
  const figures = running.final(result);
  if (running.settle(figures)) publishTokens();
  return { ...result, tokens: figures.tokens, ...(figures.costUsd !== undefined ? { costUsd: figures.costUsd } : {}) };
}

function recordAttemptEnd(context: RunContext, step: PlannedStep, attempt: number, result: AdapterResult, output: string, failure?: Failure): void {
  const stepId = step.id;
  const finishedAt = new Date().toISOString();
  const { output: fields } = jsonFields(output);
  const brief = stepResult(step.execType, result.text, fields);
  const { adapter, model } = context.store.record.steps[stepId]!.attempts.find((x) => x.attempt === attempt)!;
  emit(
    context,
    {
      type: 'attempt_finished',
      stepId,
      attempt,
      ...(step.persona ? { persona: step.persona.name } : {}),
      adapter,
      ...(model !== undefined ? { model } : {}),
      passed: failure === undefined,
      exitCode: result.exitCode,
      durationMs: result.durationMs,
      tokens: result.tokens,
      ...(result.costUsd !== undefined ? { costUsd: result.costUsd } : {}),
      ...(failure ? { failure } : {}),
      text: roundText(result.text),
      ...(fields ? { output: fields } : {}),
      ...(brief ? { result: brief } : {}),
      ...(isSafeSessionId(result.sessionId) ? { sessionId: result.sessionId } : {}),
    },
    finishedAt,
  ); // The round's time is the attempt's recorded end, to the millisecond.
}

function finish(
  context: RunContext,
  step: PlannedStep,
  started: number,
  attempt: number,
  failure?: Failure,
  output?: string,
  onFailure: PlannedStep['retry']['onFailure'] = step.retry.onFailure,
): StepOutcome {
  const durationMs = Date.now() - started;
  const status = !failure ? 'completed' : failure.class === 'aborted' ? 'cancelled' : onFailure === 'skip' ? 'skipped' : 'failed';
  // Wave's `on_failure: skip`: the failure is kept on record, the step counts as skipped (its dependents are skipped too).
  const skipReason = status === 'skipped' ? `failed (${failure!.class}: ${failure!.message}); retry.on_failure: skip` : undefined;
  const s = context.store.record.steps[step.id]!;
  if (skipReason) {
    emit(context, { type: 'step_skipped', stepId: step.id, reason: skipReason, failure, durationMs });
  } else if (status === 'completed') {
    emit(context, { type: 'step_completed', stepId: step.id, attempt, durationMs, tokens: s.tokens, costUsd: s.costUsd });
  } else if (status === 'cancelled') {
    emit(context, { type: 'step_cancelled', stepId: step.id, failure, durationMs });
  } else {
    emit(context, { type: 'step_failed', stepId: step.id, attempt, durationMs, failure: failure!, optional: step.optional });
  }
  return { status, output, failure };
}

/** The step stopped by the run (a cancel, a halt, the budget): failed or cancelled as the signal says, never set aside by `retry.on_failure: skip`. */
function stopped(context: RunContext, step: PlannedStep, started: number, attempt: number, signal: AbortSignal): StepOutcome {
  return finish(context, step, started, attempt, reasonOf(signal), undefined, 'fail');
}

/** Keeps the step's result text beside its attempts (the folder exists: the attempt wrote there), before the step counts as completed. */
function writeOutput(context: RunContext, stepId: string, text: string): Promise<void> {
  return writeFile(join(context.store.dir, 'steps', stepId, 'output.txt'), text);
}

/** Saves extracted JSON as the step's `extract` artifact; returns it as the step's output. */
async function saveExtracted(context: RunContext, stepId: string, json: string): Promise<string> {
  const { store } = context;
  const dir = store.artifactsDir(stepId);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'extract.json');
  await writeFile(file, json);
  emit(context, { type: 'artifact_saved', stepId, name: 'extract', path: relative(store.dir, file), bytes: Buffer.byteLength(json), artifactType: 'json' });
  return json;
}
