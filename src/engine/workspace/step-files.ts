import type { GateField } from '../../plan/template-vars.js';
import { gateValue } from '../steps/gate-values.js';
import { isAbsolute, join, relative } from 'node:path';
import { isDiskFault } from '../../io-error.js';
import { failureOfError, type Failure } from '../../core/errors/failure.js';
import type { AttemptStep } from '../../plan/plan-types.js';
import { artifactRedactor } from '../artifacts/artifact-redaction.js';
import { collectArtifacts, injectArtifacts } from '../artifacts/artifacts.js';
import { placeStdoutArtifacts } from '../artifacts/stdout-artifacts.js';
import { checkInjectedArtifacts } from '../steps/injected-checks.js';
import { emit, type RunContext } from '../run/context.js';
import { renderStepCommand, renderStepTemplate } from '../steps/render-prompt.js';
import { withArtifactSections } from '../steps/artifact-sections.js';
import { renderActionList } from '../../core/browser/browser-actions.js';
import { prepareWorkspace, verifyReadonlyMounts, type ReadonlyMount } from './workspace.js';
import type { WorktreeGit } from './git/worktree-git.js';
import { mountSubsets } from './step-mount-subsets.js';
import { commandWorkdir } from './command-workdir.js';
import { dependencyArtifactEnv, dependencyArtifacts, injectDependencyArtifacts } from '../artifacts/dependency-artifacts.js';

export interface PreparedStep {
  workspace: string;
  /** Where the attempt runs and its output artifacts, outcomes and contract files are found: a Wave script's copy of a `./` mount, else the workspace. */
  workdir: string;
  /** WAVE_DEPS_DIR and WAVE_DEP_<DEP>_<NAME> for the dependency artifacts placed in the workspace: every attempt's and model ask's. */
  dependencyEnv: Record<string, string>;
  /** The rendered prompt, or a command whose values are references (see `values`). */
  prompt: string;
  /** A command's template values, handed to its shell apart from the command; empty for a prompt. */
  values: string[];
  readonlyMounts: ReadonlyMount[];
  kind: 'directory' | 'worktree';
  /** Made for this step now, not shared with an earlier one: the required skills' init runs in it. */
  created: boolean;
  /** A worktree workspace's git as Wave made it. */
  git?: WorktreeGit;
}

/** Makes the step's workspace, places its injected artifacts and renders its prompt. */
export async function prepareStepWorkspace(context: RunContext, step: AttemptStep, outputs: ReadonlyMap<string, string>): Promise<PreparedStep> {
  const { plan, store } = context;
  const runId = store.record.id;
  const gate = (id: string, field: GateField) => gateValue(store.record, id, field);
  const values = { runId, pipelineName: plan.pipelineName, input: plan.input, project: plan.project, outputs, forge: plan.forgeVariables, gate };
  const branch = step.workspace.branch ? renderStepTemplate(step, step.workspace.branch, { ...values, artifacts: {} }) : undefined;
  const subsets = await mountSubsets(context, step);
  const workspace = await prepareWorkspace({
    workspaceRoot: plan.runtime.workspaceRoot,
    runId,
    stepId: step.id,
    projectRoot: plan.projectRoot,
    spec: { ...step.workspace, branch },
    ...subsets.options,
  });
  subsets.report();
  const fromDependencies = dependencyArtifacts(plan, store.record, store.dir, step);
  await injectDependencyArtifacts(workspace.path, fromDependencies, plan.runtime.injectedArtifactsDir);
  const artifacts = await injectArtifacts({
    workspace: workspace.path,
    dir: plan.runtime.injectedArtifactsDir,
    refs: [...step.injectArtifacts],
    locate: (ref) => {
      if (ref.pipeline !== undefined) return context.pipelineArtifacts?.locate(ref.pipeline, ref.artifact);
      const path = store.savedArtifactPath(ref.step!, ref.artifact);
      return path !== undefined ? { path } : undefined;
    },
  });
  await checkInjectedArtifacts(step.injectArtifacts, artifacts);
  const rendered =
    step.kind === 'command'
      ? renderStepCommand(step, step.template, { ...values, artifacts })
      : step.adapter.type === 'browser'
        ? { command: renderActionList(step.template, (text) => renderStepTemplate(step, text, { ...values, artifacts })), values: [] }
        : { command: withArtifactSections(renderStepTemplate(step, step.template, { ...values, artifacts }), step, artifacts, workspace.path), values: [] };
  return {
    workspace: workspace.path,
    workdir: step.kind === 'command' && step.runsInProjectCopy ? await commandWorkdir(workspace.path, plan.projectRoot, step.workspace.mount ?? []) : workspace.path,
    dependencyEnv: dependencyArtifactEnv(workspace.path, step, fromDependencies, plan.runtime.injectedArtifactsDir),
    prompt: rendered.command,
    values: rendered.values,
    readonlyMounts: workspace.readonlyMounts,
    kind: workspace.kind,
    created: workspace.created,
    ...(workspace.git ? { git: workspace.git } : {}),
  };
}

/** Copies the step's output artifacts into the run folder; a missing required one fails the step. */
export async function collectStepArtifacts(context: RunContext, step: AttemptStep, prepared: PreparedStep, attempt: number): Promise<Failure | undefined> {
  const { store } = context;
  const mountProblem = await verifyReadonlyMounts(prepared.readonlyMounts);
  if (mountProblem) return failureOfError(mountProblem, 'mount_modified');
  if (!step.outputArtifacts.length) return undefined;
  // Outside the try: a run folder that cannot be written stops the run (an io_error), it is no missing artifact.
  const stdoutPath = join(store.attemptDir(step.id, attempt), 'stdout');
  const stdoutProblem = await placeStdoutArtifacts(step, context.plan.runtime, stdoutPath, prepared.workspace);
  if (stdoutProblem) return stdoutProblem;
  const destDir = store.artifactsDir(step.id);
  let collected;
  try {
    const redactor = artifactRedactor(context);
    collected = await collectArtifacts({ workspace: prepared.workdir, defs: [...step.outputArtifacts], stdoutPath, destDir, redactor });
  } catch (error) {
    if (isRunFolderFault(store.dir, error)) throw store.reportFault(error);
    // A path out of the workspace (a symlink out, also one swapped in while copying) keeps its own class; a read that failed is a missing artifact.
    return failureOfError(error, 'artifact_missing');
  }
  for (const a of collected.saved) {
    const type = a.type !== undefined ? { artifactType: a.type } : {};
    emit(context, { type: 'artifact_saved', stepId: step.id, name: a.name, path: relative(store.dir, a.path), bytes: a.bytes, ...type });
  }
  for (const a of collected.saved) {
    // Never silently: the stored copy differs from the workspace file.
    if (a.redactions) emit(context, { type: 'artifact_redacted', stepId: step.id, name: a.name, path: relative(store.dir, a.path), count: a.redactions });
  }
  const missing = collected.missing.find((m) => m.required);
  if (missing) return missingArtifactFailure(step, missing.name, missing.lookedAt);
  return undefined;
}

/** A required artifact the attempt did not write: the hint points at what to change, the step's prompt or command, or its output_artifacts. */
function missingArtifactFailure(step: AttemptStep, name: string, lookedAt: string): Failure {
  const def = step.outputArtifacts.find((a) => a.name === name);
  const writer = step.kind === 'command' ? 'its command' : 'its prompt';
  const where = def?.path === undefined || def.source === 'stdout' ? 'to stdout' : `\`${def.path}\` in its workspace`;
  return {
    class: 'artifact_missing',
    message: `artifact \`${name}\` was not produced: looked at ${lookedAt}`,
    hint: `Have ${writer} write ${where}, or change the artifact's path in step \`${step.id}\`'s output_artifacts, or mark it \`required: false\`.`,
  };
}

/** A copy into the run folder failed (the disk is full or read-only: only the copy writes), not a read of the workspace. */
function isRunFolderFault(runDir: string, error: unknown): boolean {
  if (!isDiskFault(error)) return false;
  if (['ENOSPC', 'EDQUOT', 'EROFS', 'EFBIG'].includes(error.code!)) return true;
  const path = error.path ?? (error as { dest?: string }).dest;
  const rel = path === undefined ? '..' : relative(runDir, path);
  return !rel.startsWith('..') && !isAbsolute(rel);
}
