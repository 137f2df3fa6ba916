import { resolve } from 'node:path';
import { isBuiltinManifest } from '../config/load/builtin-manifest.js';
import { refuseDisabledPipeline } from '../config/load/disabled-pipeline.js';
import { loadPipeline, loadProjectManifest, resolvePipelinePath } from '../config/load/load.js';
import { loopBodyAddress } from '../config/load/loop-body.js';
import type { Located } from '../config/load/located.js';
import type { Manifest } from '../config/schema/manifest-schema.js';
import { itemValues } from '../engine/steps/iterate-step.js';
import type { ChildPlan, ChildPlans } from '../plan/describe-plan.js';
import { buildPlan, handedPlanOptions } from '../plan/plan.js';
import type { BranchStep, IterateStep, Plan, PlannedStep, SubPipelineStep } from '../plan/plan-types.js';
import { renderTemplate } from '../plan/templates.js';
import { MAX_CHILD_DEPTH } from './child-runs.js';
import { runRedactor } from './run-redactor.js';

/** Where a plan sits in the chain of child plans: how deep, and the pipeline files above it (a cycle comes back to one). */
interface Nest {
  manifest: Located<Manifest>;
  depth: number;
  ancestors: readonly string[];
}

/**
 * For `--dry-run`: the plans of the children the steps would start, as far as they are known before the run (a
 * `pipeline:` step's, each item's of an iterate over a literal list, each branch case's), each with its own
 * children's, down to a cycle or MAX_CHILD_DEPTH.
 */
export async function childPlansOf(plan: Plan, selected?: ReadonlySet<string>): Promise<ChildPlans> {
  const manifest = await loadProjectManifest(plan.projectRoot, isBuiltinManifest(plan.manifestFile) ? undefined : plan.manifestFile);
  return plansUnder(plan, selected, { manifest, depth: 0, ancestors: [resolve(plan.pipelineFile)] });
}

async function plansUnder(plan: Plan, selected: ReadonlySet<string> | undefined, nest: Nest): Promise<ChildPlans> {
  const found = new Map<string, ChildPlan[]>();
  for (const step of plan.steps) {
    if (selected && !selected.has(step.id)) continue;
    const wanted = childrenWanted(plan, step);
    if (wanted.length) found.set(step.id, await Promise.all(wanted.map((child) => childPlan(child, nest))));
  }
  return found;
}

/** A child a step would start as --dry-run knows it: its name (maybe a template), its input, and which of the step's children it is. */
interface WantedChild {
  label?: string;
  pipeline: string;
  shown?: string;
  input: string;
  /** The step's config.max_cycles, which the child's loops without a limit take. */
  maxCycles?: number;
}

function childrenWanted(plan: Plan, step: PlannedStep): WantedChild[] {
  switch (step.kind) {
    case 'pipeline':
      return [{ pipeline: step.pipeline, input: childInput(plan, step), ...handedPlanOptions(step) }];
    case 'iterate':
      return iterateChildren(plan, step);
    case 'branch':
      return branchChildren(plan, step);
    case 'loop':
      return [{ label: 'each iteration', pipeline: loopBodyAddress(plan.pipelineFile, step.id, 0), shown: 'the sub-steps (iteration 0 shown)', input: plan.input }];
    default:
      return [];
  }
}

/** Each item's child over a literal list; over a list known at run time, the one child when its name is fixed. */
function iterateChildren(plan: Plan, step: IterateStep): WantedChild[] {
  const items = literalList(step.over);
  if (!items) return [{ label: 'each item', pipeline: step.pipeline, input: step.input ?? plan.input, ...handedPlanOptions(step) }];
  return items.map((item, index) => {
    const values = itemValues(item, index);
    const described = JSON.stringify(item);
    const label = `item ${index + 1} (${described.length > 40 ? `${described.slice(0, 39)}…` : described})`;
    return { label, pipeline: renderTemplate(step.pipeline, values), input: childInput(plan, step, values), ...handedPlanOptions(step) };
  });
}

function branchChildren(plan: Plan, step: BranchStep): WantedChild[] {
  const input = childInput(plan, step);
  return Object.entries(step.cases)
    .filter(([, pipeline]) => pipeline !== 'skip')
    .map(([value, pipeline]) => ({ label: value === 'default' ? 'the default' : `case ${value}`, pipeline, input }));
}

/** `iterate.over` when it is a JSON list as written; undefined when a template makes it at run time. */
function literalList(over: string): unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(over);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The child's input as far as it is known: the step's template with this run's input (and the item's values) filled in; this run's input when the step gives none. */
function childInput(plan: Plan, step: SubPipelineStep | IterateStep | BranchStep, item?: (name: string) => string | undefined): string {
  if (step.input === undefined) return plan.input;
  return renderTemplate(step.input, (name) => item?.(name) ?? (name === 'input' ? plan.input : undefined)) || plan.input;
}

async function childPlan(child: WantedChild, nest: Nest): Promise<ChildPlan> {
  const said = { pipeline: child.pipeline, ...(child.label ? { label: child.label } : {}), ...(child.shown ? { shown: child.shown } : {}) };
  if (child.pipeline.includes('{{')) return { ...said, note: 'chosen at run time (its name is a template)' };
  if (nest.depth + 1 > MAX_CHILD_DEPTH) return { ...said, note: `not shown: it would run past the limit of ${MAX_CHILD_DEPTH} nested runs` };
  const { manifest } = nest;
  try {
    const file = resolve(resolvePipelinePath(child.pipeline, manifest.dir, manifest.dir));
    if (nest.ancestors.includes(file)) return { ...said, note: 'not shown again: it is one of the pipelines that start it (a cycle)' };
    const pipeline = await loadPipeline(file, manifest);
    refuseDisabledPipeline(pipeline);
    const plan = buildPlan(manifest, pipeline, { input: child.input, ...handedPlanOptions(child) });
    const children = await plansUnder(plan, undefined, { manifest, depth: nest.depth + 1, ancestors: [...nest.ancestors, file] });
    const redactor = runRedactor(plan);
    return { ...said, plan, children, redact: (text) => redactor.redact(text) };
  } catch (error) {
    return { ...said, note: `does not load: ${(error as Error).message.split('\n', 1)[0]}` };
  }
}
