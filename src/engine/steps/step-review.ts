import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReviewMaterial } from '../../contracts/agent-review/review-context.js';
import type { CheckResult, PlannedContract } from '../../contracts/types.js';
import type { AttemptStep } from '../../plan/plan-types.js';
import { emit, type RunContext } from '../run/context.js';
import { stepBranchDiff } from '../workspace/git/step-diff.js';
import type { PreparedStep } from '../workspace/step-files.js';

/** Where an artifact of this run named `name` is saved: the step's own, else the last step in file order that saved one. */
function savedArtifact(context: RunContext, step: AttemptStep, name: string): string | undefined {
  const { record } = context.store;
  const order = [...context.plan.steps.map((s) => s.id).filter((id) => id !== step.id), step.id];
  for (const id of order.reverse()) {
    const saved = record.steps[id]?.artifacts.find((a) => a.name === name);
    if (saved) return join(context.store.dir, saved.path);
  }
  return undefined;
}

/** What a review of the step is shown: its branch's diff (a worktree workspace only) and the run's saved artifacts. */
export function reviewMaterial(context: RunContext, step: AttemptStep, prepared: PreparedStep): ReviewMaterial {
  const { git } = prepared;
  return {
    gitDiff: (base) =>
      git ? stepBranchDiff(git, base) : Promise.reject(new Error("the step's workspace is a plain folder, not a git worktree (`workspace.type: worktree` gives it one)")),
    artifact: async (name) => {
      const path = savedArtifact(context, step, name);
      return path === undefined ? undefined : readFile(path, 'utf8');
    },
  };
}

/** One contract checked on one attempt of the step, as its review events name it. */
export interface ContractCheck {
  context: RunContext;
  step: AttemptStep;
  attempt: number;
  contract: PlannedContract;
  /** The contract's label (contractLabel). */
  label: string;
}

/** The fields every review event of this check carries. */
function reviewFields({ step, attempt, contract, label }: ContractCheck) {
  return { stepId: step.id, attempt, contract: label, reviewer: contract.persona ?? '' };
}

/** Says an agent_review contract's review is starting. */
export function reviewStarted(check: ContractCheck): void {
  if (check.contract.type === 'agent_review') emit(check.context, { type: 'review_started', ...reviewFields(check) });
}

/** Says how an agent_review contract's review ended: passed (pass or warn), or failed and why. */
export function reviewEnded(check: ContractCheck, result: CheckResult): void {
  if (check.contract.type !== 'agent_review') return;
  const { context } = check;
  const review = result.review;
  if (result.passed && review?.verdict && review.verdict !== 'fail') {
    emit(context, { type: 'review_completed', ...reviewFields(check), verdict: review.verdict, issues: review.issues ?? 0, summary: review.summary ?? '' });
    return;
  }
  const verdict = review?.verdict === 'fail' ? { verdict: 'fail' as const, issues: review.issues ?? 0 } : {};
  emit(context, { type: 'review_failed', ...reviewFields(check), reason: review?.reason ?? result.errors.join('; '), ...verdict });
}
