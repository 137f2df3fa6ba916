import type { AttemptStep } from '../../plan/plan-types.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { AdapterResult } from '../../adapters/types.js';
import { failureOfError, type Failure } from '../../core/errors/failure.js';
import { modelAsker } from '../attempt/ask-model.js';
import { extractJson } from '../attempt/extract.js';
import { emit, type RunContext } from '../run/context.js';
import { returnStepBranch } from '../workspace/git/branch-return.js';
import { collectStepArtifacts, type PreparedStep } from '../workspace/step-files.js';
import { saveContextArtifacts } from '../workspace/context-artifacts.js';
import { checkStepContracts, type ContractsVerdict } from './step-contracts.js';
import type { StepRun } from './step-run.js';

/** What an attempt amounts to. */
export interface AttemptJudgement {
  output: string;
  failure?: Failure;
  /** Set when the step has contracts and everything before them passed. */
  verdict?: ContractsVerdict;
}

/** What an attempt amounts to: the adapter's result, then its artifacts, its extract and its contracts, each only if all before passed. */
export async function judgeAttempt(
  run: StepRun<AttemptStep>,
  prepared: PreparedStep,
  attempt: number,
  result: AdapterResult,
  contractRetries: ReadonlyMap<number, number>,
): Promise<AttemptJudgement> {
  const { context, step } = run;
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
  else await saveContextArtifacts(context, step, prepared, attempt);
  let output = result.text;
  if (!failure && step.extract) {
    const extracted = await extractJson(step.id, step.extract, output, modelAsker(context, step, attempt, prepared, run.signal));
    if (extracted.ok) output = await saveExtracted(context, step.id, extracted.json);
    else failure = extracted.failure;
  }
  if (failure || !step.contracts.length) return { output, failure };
  const verdict = await checkStepContracts(run, prepared, { attempt, output, used: contractRetries });
  return { output: verdict.output, failure: verdict.failure, verdict };
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
