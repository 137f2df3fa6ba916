import { refuseDisabledPipeline } from '../config/load/disabled-pipeline.js';
import { findManifest, loadManifest, loadPipeline, loadProjectManifest, resolvePipelinePath } from '../config/load/load.js';
import { checkRunInput } from '../config/load/run-input.js';
import { worktreeWarnings } from '../engine/workspace/worktree-preflight.js';
import { describePlan } from '../plan/describe-plan.js';
import { buildPlan, handedPlanOptions } from '../plan/plan.js';
import type { Plan } from '../plan/plan-types.js';
import { childPlansOf } from './child-plans.js';
import { configWarningsText } from './config-warnings.js';
import type { StartRunRequest } from './run-request.js';
import { runRedactor } from './run-redactor.js';
import { selection } from './selection.js';
import { partSteps } from './step-parts.js';

/** A pipeline ready to run: its plan and the steps selected. */
export interface PreparedRun {
  plan: Plan;
  selected?: Set<string>;
}

/** The front half of a run: the manifest and pipeline loaded, a disabled pipeline refused, warnings said, the plan built and the steps selected. */
export async function prepareRun(request: StartRunRequest): Promise<PreparedRun> {
  const { cwd } = request;
  const manifest = request.manifestRequired ? await loadManifest(findManifest(cwd, request.manifest)) : await loadProjectManifest(cwd, request.manifest);
  const pipeline = await loadPipeline(resolvePipelinePath(request.pipeline, manifest.dir, cwd), manifest, process.env, request.forge);
  refuseDisabledPipeline(pipeline);
  // Settings nothing in the run uses, and worktree steps that would fail: accepted, never silently.
  const worktrees = { warnings: await worktreeWarnings(pipeline.value.steps, (path) => pipeline.locate(path), manifest.dir) };
  if (request.reportConfigWarnings) request.reportConfigWarnings([manifest, pipeline, worktrees].flatMap((file) => file.warnings));
  else (request.err ?? process.stderr).write(configWarningsText([manifest, pipeline, worktrees]));
  const input = request.readInput?.() ?? pipeline.value.input?.default ?? '';
  checkRunInput(pipeline, input);
  const plan = buildPlan(manifest, pipeline, { input, timeoutMinutes: request.timeoutMinutes, ...handedPlanOptions(request.parent) });
  await request.withPlan?.(plan);
  // Steps another job ran (compiled workflows) are there for the selected ones: their parts decide.
  const done = request.runId ? partSteps(plan, request.runId) : undefined;
  return { plan, selected: selection(plan.steps, request, done) };
}

/** `--dry-run`: what the run would do, run nothing. */
export async function describeRun(request: StartRunRequest): Promise<string> {
  const { plan, selected } = await prepareRun(request);
  // The plan holds what `${VAR}` took from the environment (commands, env, URLs): hidden like everything else.
  return runRedactor(plan).redact(describePlan(plan, selected, await childPlansOf(plan, selected)));
}
