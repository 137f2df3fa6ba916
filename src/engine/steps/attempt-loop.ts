import { execTypeOf, type AttemptStep } from '../../plan/plan-types.js';
import type { AdapterResult } from '../../adapters/types.js';
import { stepOutputFile } from '../../state/step-output-file.js';
import { isRetried } from '../../core/errors/error-codes.js';
import { failureOfError, type Failure } from '../../core/errors/failure.js';
import type { ResolvedAdapter } from '../../core/resolved-adapter.js';
import { SYSTEM_CLOCK } from '../../core/clock.js';
import { attemptsOf } from '../../state/step-logs.js';
import { modelAsker } from '../attempt/ask-model.js';
import { emit } from '../run/context.js';
import { withFileChanges } from '../workspace/step-changes.js';
import { prepareStepWorkspace, type PreparedStep } from '../workspace/step-files.js';
import { recordAttemptEnd } from './attempt-end.js';
import { backoffDelay } from './backoff.js';
import { judgeAttempt, type AttemptJudgement } from './judge-attempt.js';
import { StepSessions } from './session-continuation.js';
import { runStepAttempt } from './step-attempt.js';
import { endRejected, endStep, endStopped } from './step-end.js';
import { runReworkStep } from './rework.js';
import { checkStepContracts } from './step-contracts.js';
import { recordStepOutcomes } from './step-outcomes.js';
import type { StepOutcome, StepRun } from './step-run.js';
import { withThreadContext } from './thread-context.js';
import { withReworkContext } from './rework-context.js';
import { initSkills } from './skill-init.js';
import { writeFile } from 'node:fs/promises';

/** What a step of one kind tells its next attempt after a failure; undefined: the attempt runs as the first did. */
export interface RetryFeedback {
  /** After contract `label` failed with `errors` on attempt `attempt`'s `output`. */
  afterContract(attempt: number, label: string, errors: readonly string[], output: string): string | undefined;
  /** After attempt `attempt` failed (its output ended with `tail`) and is retried. */
  afterFailure(attempt: number, failure: Failure, tail: string): string | undefined;
}

/** What the loop does after an attempt: another attempt, or the step's end. */
type Next = 'again' | StepOutcome;

/**
 * Runs a step as attempts of one adapter (an agent's or a command's) to its end: its workspace, then attempts with
 * retry, contract retries and fallback, then its output and outcomes.
 */
export async function runAttempts(run: StepRun<AttemptStep>, feedback: RetryFeedback): Promise<StepOutcome> {
  const { context, step } = run;
  const { store } = context;
  // A resumed step keeps its earlier attempts; numbering goes on after the highest one the record or the disk
  // knows (a kill can come before an attempt's events), so no attempt folder is ever reused.
  const firstAttempt = Math.max(0, ...attemptsOf(store.dir, store.record, step.id)) + 1;
  emit(context, { type: 'step_began', stepId: step.id });
  const started = Date.now();
  let prepared: PreparedStep;
  try {
    prepared = await prepareStepWorkspace(context, step, run.outputs);
    await initSkills(run, prepared);
    // Retries start from this prompt too: the thread's transcripts are read once, as they were when the step began.
    if (step.thread) prepared.prompt = await withThreadContext(context, step, prepared.prompt, firstAttempt, modelAsker(context, step, firstAttempt, prepared, run.signal));
    if (run.rework) withReworkContext(step, prepared, run.rework);
  } catch (error) {
    // A skill's init stopped by a cancel or a halt: the step is stopped, not failed.
    if (run.signal.aborted) return endStopped(run, started, firstAttempt);
    // A workspace that cannot be made is the step's failure; a WaveError keeps its own class.
    return endStep(run, started, firstAttempt, { failure: failureOfError(error, 'workspace_failed') });
  }
  return new AttemptLoop(run, prepared, feedback, started).run(firstAttempt);
}

/** The attempts of one step, and what each leaves the next: the adapter, the retry budget on it, the feedback and the session. */
class AttemptLoop {
  private adapter: ResolvedAdapter;
  private fallbacksUsed = 0;
  private attemptOnAdapter = 0;
  /** What the next attempt is told of the last failure: alone in a continued session, else after the prompt. */
  private feedback: string | undefined;
  private readonly sessions: StepSessions;
  // Contract retries are counted per contract, apart from the step's retry policy: a contract retry starts a
  // fresh attempt with the step's full retry budget, and a contract failure is never retried by that policy.
  // A `rework` contract counts its rework rounds here too.
  private readonly contractRetries = new Map<number, number>();
  /** Rework rounds so far, and whether the step's own `retry.rework_step` has had its one. */
  private reworkRounds = 0;
  private retryReworked = false;
  /** The last attempt's output and the end of what it printed: what a rework step is shown. */
  private last = { output: '', tail: '' };

  constructor(
    private readonly stepRun: StepRun<AttemptStep>,
    private readonly prepared: PreparedStep,
    private readonly retryFeedback: RetryFeedback,
    private readonly started: number,
  ) {
    this.adapter = stepRun.step.adapter;
    this.sessions = new StepSessions(stepRun.step, stepRun.context.registry);
  }

  async run(firstAttempt: number): Promise<StepOutcome> {
    for (let attempt = firstAttempt; ; attempt++) {
      const next = await this.attempt(attempt);
      if (next !== 'again') return next;
    }
  }

  /** One attempt, judged and recorded, and what follows it. */
  private async attempt(attempt: number): Promise<Next> {
    const { context, step } = this.stepRun;
    this.attemptOnAdapter++;
    const { adapter, prepared } = this;
    const attemptDir = context.store.attemptPath(step.id, attempt);
    const watch = { workspace: prepared.workspace, git: prepared.git, adapterType: adapter.type, attemptDir, replayed: execTypeOf(step) === 'prompt' };
    const start = this.sessions.start(adapter, prepared.prompt, this.feedback);
    const result = await withFileChanges(context, step.id, attempt, watch, () => runStepAttempt(this.stepRun, prepared, { attempt, adapter, start }));
    this.sessions.ended(attempt, adapter, watch.attemptDir, start, result);
    const judged = await judgeAttempt(this.stepRun, prepared, attempt, result, this.contractRetries);
    const retry = judged.verdict?.retry;
    const contractFailure: Failure | undefined = retry ? { class: 'contract_failed', message: `contract ${retry.label} failed` } : undefined;
    recordAttemptEnd(this.stepRun, attempt, result, { output: judged.output, failure: judged.failure ?? contractFailure });
    this.last = { output: judged.output, tail: result.outputTail };
    return this.afterJudged(attempt, judged, result);
  }

  /** What follows a judged attempt (or contracts checked again after a rework): a contract retry, the end, or the failure's course. */
  private afterJudged(attempt: number, judged: AttemptJudgement, result?: AdapterResult): Promise<Next> | Next {
    if (judged.verdict?.outcome === 'retry') return this.afterContractRetry(attempt, judged);
    if (!judged.failure) return this.completed(attempt, judged.output);
    return this.afterFailure(attempt, judged, result);
  }

  /** A contract asked for another attempt: off the retry budget, told the contract's errors (as the kind says). */
  private afterContractRetry(attempt: number, judged: AttemptJudgement): Next {
    const { context, step, signal } = this.stepRun;
    if (signal.aborted) return endStopped(this.stepRun, this.started, attempt);
    const { index, label, errors } = judged.verdict!.retry!;
    this.contractRetries.set(index, (this.contractRetries.get(index) ?? 0) + 1);
    const failure: Failure = { class: 'contract_failed', message: `contract ${label} failed: ${errors.join('; ')}` };
    emit(context, { type: 'step_retrying', stepId: step.id, attempt, delayMs: 0, failure });
    this.feedback = this.retryFeedback.afterContract(attempt, label, errors, judged.output);
    this.attemptOnAdapter = 0;
    return 'again';
  }

  /** The step passed: its output kept for its dependents, its outcomes taken. */
  private async completed(attempt: number, output: string): Promise<Next> {
    await this.writeOutput(output);
    await recordStepOutcomes(this.stepRun.context, this.stepRun.step, this.prepared.workdir);
    return endStep(this.stepRun, this.started, attempt, { output });
  }

  /** The attempt failed: the contract's `continue`, `rejected` or `rework`, a stop, a refused session, a retry, a fallback, or the step's end. */
  private async afterFailure(attempt: number, judged: AttemptJudgement, result?: AdapterResult): Promise<Next> {
    const { step, signal } = this.stepRun;
    const failure = judged.failure!;
    const verdict = judged.verdict;
    // A run cancelled while a contract ran (a review, a judge) stops the step, whatever that contract made of it.
    if (signal.aborted || failure.class === 'aborted') return endStopped(this.stepRun, this.started, attempt);
    // The contract's own `continue` decides here, not the step's retry.on_failure.
    if (verdict?.outcome === 'continue') {
      // Its dependents read the output, here or in another job (a compiled workflow) or a resumed run.
      await this.writeOutput(judged.output);
      return { ...endStep(this.stepRun, this.started, attempt, { failure, output: judged.output, onFailure: 'fail' }), dependentsRun: true };
    }
    if (verdict?.outcome === 'rejected') return endRejected(this.stepRun, this.started, attempt, failure);
    if (verdict?.outcome === 'rework') return this.rework(attempt, failure, verdict.rework!);
    if (failure.class === 'contract_failed' || !result) return this.failed(attempt, failure);
    // The CLI refused to resume the session before doing any work: the next attempt starts fresh, off the retry budget.
    if (result.resumeRefused !== undefined) {
      this.attemptOnAdapter--;
      return 'again';
    }
    if (isRetried(failure.class) && this.attemptOnAdapter < step.retry.maxAttempts) return this.retry(attempt, failure, result.outputTail);
    return this.fallBack(attempt, failure);
  }

  /** Waits out the backoff (or the retry-after), then tries again, told what failed as the kind says. */
  private async retry(attempt: number, failure: Failure, tail: string): Promise<Next> {
    const { context, step, signal } = this.stepRun;
    const delayMs = Math.max(backoffDelay(step.retry, this.attemptOnAdapter), failure.retryAfterMs ?? 0);
    emit(context, { type: 'step_retrying', stepId: step.id, attempt, delayMs, failure });
    if (!(await (context.clock ?? SYSTEM_CLOCK).sleep(delayMs, signal))) return endStopped(this.stepRun, this.started, attempt);
    this.feedback = this.retryFeedback.afterFailure(attempt, failure, tail);
    return 'again';
  }

  /** A rate-limited step moves to its next fallback adapter, starting afresh; otherwise the failure ends it. */
  private fallBack(attempt: number, failure: Failure): Promise<Next> | Next {
    const { context, step } = this.stepRun;
    const next = failure.class === 'rate_limited' ? step.fallbacks[this.fallbacksUsed] : undefined;
    if (!next) return this.failed(attempt, failure);
    emit(context, { type: 'step_fallback', stepId: step.id, from: this.adapter.name, to: next.name, failure });
    this.fallbacksUsed++;
    this.adapter = next;
    this.attemptOnAdapter = 0;
    this.feedback = undefined;
    return 'again';
  }

  /** The step's work failed for good: `retry.on_failure: rework` gives it to its rework step once, else the failure ends it. */
  private failed(attempt: number, failure: Failure): Promise<Next> | Next {
    const target = this.stepRun.step.retry.reworkStep;
    if (target === undefined || this.retryReworked || this.stepRun.rework) return endStep(this.stepRun, this.started, attempt, { failure });
    this.retryReworked = true;
    return this.rework(attempt, failure, { step: target });
  }

  /** A rework round: the rework step fixes the work, then the step's contracts are checked again on it (Wave never checks them again). */
  private async rework(attempt: number, failure: Failure, asked: { step: string; index?: number }): Promise<Next> {
    const { context, step } = this.stepRun;
    if (asked.index !== undefined) this.contractRetries.set(asked.index, (this.contractRetries.get(asked.index) ?? 0) + 1);
    const round = ++this.reworkRounds;
    const saved = context.store.record.steps[step.id]!;
    const work = { ...this.last, attempts: saved.attempts.length, durationMs: Date.now() - this.started, artifacts: saved.artifacts.map((a) => a.name) };
    const ended = await runReworkStep(this.stepRun, { target: asked.step, round, failure, attempt, work, started: this.started });
    if (ended) return ended;
    if (!step.contracts.length) return this.completed(attempt, this.last.output);
    const verdict = await checkStepContracts(this.stepRun, this.prepared, { attempt, output: this.last.output, used: this.contractRetries, round });
    return this.afterJudged(attempt, { output: verdict.output, failure: verdict.failure, verdict });
  }

  /** Keeps the step's result text beside its attempts (the folder exists: the attempt wrote there), before the step counts as completed. */
  private writeOutput(text: string): Promise<void> {
    const { context, step } = this.stepRun;
    return writeFile(stepOutputFile(context.store.dir, step.id), text);
  }
}
