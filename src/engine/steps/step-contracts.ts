import type { StepRun } from './step-run.js';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Failure } from '../../core/errors/failure.js';
import { checkContract } from '../../contracts/check-contract.js';
import { contractAction, contractPolicy, stopsChecking } from '../../contracts/policy.js';
import { contractLabel, STEP_OUTPUT_LABEL, type ContractTarget, type PlannedContract, type TargetRef } from '../../contracts/types.js';
import type { AttemptStep } from '../../plan/plan-types.js';
import { attemptEnv } from '../attempt/adapter-config.js';
import { modelAsker } from '../attempt/ask-model.js';
import { emit, type RunContext } from '../run/context.js';
import type { PreparedStep } from '../workspace/step-files.js';
import { resolveInside } from '../workspace/workspace-paths.js';
import { stepGitReader } from '../workspace/git/step-git-reader.js';
import { reviewEnded, reviewMaterial, reviewStarted } from './step-review.js';

/** What the step's contracts decided about one attempt. */
export interface ContractsVerdict {
  /** pass: the step completes; fail: it fails; continue: it fails but dependents run; retry: run it again; rework: its rework step fixes the work; rejected: the run ends rejected. */
  outcome: 'pass' | 'fail' | 'continue' | 'retry' | 'rework' | 'rejected';
  /** The step's output, with recovered JSON in place when a json_schema contract recovered it. */
  output: string;
  failure?: Failure;
  /** For retry: which contract, and its errors for the next prompt. */
  retry?: { index: number; label: string; errors: string[] };
  /** For rework: which contract, and the step that fixes the work. */
  rework?: { index: number; step: string };
}

/** Which check of the step's contracts this is: on which attempt's output, with each contract's retries (or rework rounds) used so far. */
export interface ContractsCheck {
  attempt: number;
  output: string;
  used: ReadonlyMap<number, number>;
  /** Set when the contracts are checked again after rework round `round`. */
  round?: number;
}

/** Reads a contract's target: a workspace file, or the step's output. */
async function readTarget(target: TargetRef, workspace: string, output: string): Promise<ContractTarget & { path?: string }> {
  if (target.kind === 'output') return { text: output, label: STEP_OUTPUT_LABEL };
  const path = await resolveInside(workspace, target.path);
  if (!path) return { label: `${target.path} (outside the workspace)` };
  try {
    return { text: await readFile(path, 'utf8'), label: target.path, path };
  } catch {
    return { label: target.path, path };
  }
}

/** Writes recovered JSON back: into the workspace file and its saved artifact, or as the output and its stdout artifacts. */
async function writeBack(context: RunContext, step: AttemptStep, target: { path?: string; label: string }, json: string): Promise<void> {
  const { store } = context;
  const names = new Set(step.outputArtifacts.filter((a) => (target.path ? a.source !== 'stdout' && a.path === target.label : a.source === 'stdout')).map((a) => a.name));
  if (target.path) await writeFile(target.path, json);
  for (const saved of store.record.steps[step.id]!.artifacts.filter((a) => names.has(a.name))) {
    await writeFile(join(store.dir, saved.path), json);
    const bytes = (await stat(join(store.dir, saved.path))).size;
    emit(context, { type: 'artifact_saved', stepId: step.id, name: saved.name, path: saved.path, bytes, ...(saved.type !== undefined ? { artifactType: saved.type } : {}) });
  }
}

/**
 * Checks the step's contracts in order after a successful attempt (or a rework) and applies each one's on_failure.
 * Every decision is a `contract_checked` event and an entry of the step's `contracts` in run.json.
 */
export async function checkStepContracts(run: StepRun<AttemptStep>, prepared: PreparedStep, check: ContractsCheck): Promise<ContractsVerdict> {
  const { context, step, signal } = run;
  const { attempt, used, round } = check;
  let { output } = check;
  const env = attemptEnv(context, step, step.adapter, prepared);
  const ask = modelAsker(context, step, attempt, prepared, signal);
  const review = reviewMaterial(context, step, prepared);
  const git = prepared.git && stepGitReader(prepared.git);
  for (const [index, contract] of step.contracts.entries()) {
    const label = contractLabel(contract, index);
    // A command's contracts read its files where it ran (Wave's contract dir): the copy of a `./` mount, else the workspace.
    const target = await readTarget(contract.target, prepared.workdir, output);
    const checked = { context, step, attempt, contract, label };
    reviewStarted(checked);
    const result = await checkContract(contract, { target, workspace: prepared.workdir, projectRoot: context.plan.projectRoot, env, signal, ask, review, git });
    reviewEnded(checked, result);
    const log = `contract-${index + 1}${round !== undefined ? `-rework-${round}` : ''}.log`;
    if (result.output !== undefined) await writeFile(join(context.store.attemptDir(step.id, attempt), log), result.output);
    if (result.recovered !== undefined) {
      await writeBack(context, step, target, result.recovered);
      if (!target.path) output = result.recovered;
    }
    const action = contractAction(contract, result.passed, used.get(index) ?? 0);
    const errors = result.recovered !== undefined ? [`recovered JSON from ${target.label} and wrote it back`] : result.errors;
    emit(context, { type: 'contract_checked', stepId: step.id, attempt, contract: label, passed: result.passed, action, errors, ...(round !== undefined ? { round } : {}) });
    if (!stopsChecking(action)) continue;
    if (action === 'skip') return { outcome: 'pass', output };
    if (action === 'retry') return { outcome: 'retry', output, retry: { index, label, errors: result.errors } };
    const failure = contractFailure(contract, label, result.errors, used.get(index) ?? 0);
    if (action === 'rework') return { outcome: 'rework', output, failure, rework: { index, step: contract.rework_step! } };
    return { outcome: action === 'continue' || action === 'rejected' ? action : 'fail', output, failure };
  }
  return { outcome: 'pass', output };
}

/** Why a contract failed the step, and what to do about it as its policy says. */
function contractFailure(contract: PlannedContract, label: string, errors: readonly string[], used: number): Failure {
  const message = `contract ${label} failed: ${errors.join('; ')}`;
  const policy = contractPolicy(contract);
  if (policy === 'rejected') return { class: 'contract_failed', message, hint: 'The step found nothing to do (on_failure: rejected); `wave resume --force` runs it again.' };
  if (policy === 'rework')
    return {
      class: 'contract_failed',
      message,
      hint: `The rework step \`${contract.rework_step}\` ran ${used} time(s) and the contract still fails; raise max_retries or fix the rework step.`,
    };
  if (policy === 'retry') return { class: 'contract_failed', message, hint: `The step was re-run ${used} time(s) with these errors; raise max_retries or fix the prompt.` };
  return { class: 'contract_failed', message, hint: "Fix the step's output, or set on_failure: retry to let the agent fix it." };
}
