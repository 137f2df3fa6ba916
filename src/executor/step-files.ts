import { join, relative } from 'node:path';
import type { Failure } from '../adapters/types.js';
import type { PlannedStep } from '../plan/plan-types.js';
import { collectArtifacts, injectArtifacts } from './artifacts.js';
import { emit, type RunContext } from './context.js';
import { renderStepTemplate } from './render-prompt.js';
import { prepareWorkspace, verifyReadonlyMounts, type ReadonlyMount } from './workspace.js';

export interface PreparedStep {
  workspace: string;
  prompt: string;
  readonlyMounts: ReadonlyMount[];
}

/** Makes the step's workspace, places its injected artifacts and renders its prompt. */
export async function prepareStepWorkspace(
  context: RunContext,
  step: PlannedStep,
  outputs: ReadonlyMap<string, string>,
): Promise<PreparedStep> {
  const { plan, store } = context;
  const runId = store.record.id;
  const values = { runId, pipelineName: plan.pipelineName, input: plan.input, project: plan.project, outputs };
  const branch = step.workspace.branch
    ? renderStepTemplate({ ...step, execType: 'prompt' }, step.workspace.branch, { ...values, artifacts: {} })
    : undefined;
  const workspace = await prepareWorkspace({
    workspaceRoot: plan.runtime.workspaceRoot,
    runId,
    stepId: step.id,
    projectRoot: plan.projectRoot,
    spec: { ...step.workspace, branch },
  });
  store.update((r) => void (r.steps[step.id]!.workspace = workspace.path));
  const artifacts = await injectArtifacts({
    workspace: workspace.path,
    refs: [...step.injectArtifacts],
    locate: (stepId, name) => {
      const saved = store.record.steps[stepId]?.artifacts.find((a) => a.name === name);
      return saved ? join(store.dir, saved.path) : undefined;
    },
  });
  const prompt = renderStepTemplate(step, step.template, { ...values, artifacts });
  return { workspace: workspace.path, prompt, readonlyMounts: workspace.readonlyMounts };
}

/** Copies the step's output artifacts into the run folder; a missing required one fails the step. */
export async function collectStepArtifacts(
  context: RunContext,
  step: PlannedStep,
  prepared: PreparedStep,
  attempt: number,
): Promise<Failure | undefined> {
  const { store } = context;
  const mountProblem = await verifyReadonlyMounts(prepared.readonlyMounts);
  if (mountProblem) return { class: 'non_zero_exit', message: mountProblem.message, hint: mountProblem.hint };
  if (!step.outputArtifacts.length) return undefined;
  let collected;
  try {
    collected = await collectArtifacts({
      workspace: prepared.workspace,
      defs: [...step.outputArtifacts],
      stdoutPath: join(store.attemptDir(step.id, attempt), 'stdout'),
      destDir: store.artifactsDir(step.id),
    });
  } catch (error) {
    return { class: 'artifact_missing', message: error instanceof Error ? error.message : String(error) };
  }
  const saved = collected.saved.map((a) => ({ ...a, path: relative(store.dir, a.path) }));
  store.update((r) => void (r.steps[step.id]!.artifacts = saved));
  for (const a of saved) emit(context, { type: 'artifact_saved', stepId: step.id, name: a.name, path: a.path, bytes: a.bytes });
  const missing = collected.missing.find((m) => m.required);
  if (missing) {
    return {
      class: 'artifact_missing',
      message: `artifact \`${missing.name}\` was not produced: looked at ${missing.lookedAt}`,
      hint: `Make step \`${step.id}\` write ${missing.lookedAt}, or mark the artifact \`required: false\`.`,
    };
  }
  return undefined;
}

