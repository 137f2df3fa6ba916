import type { PlannedFanOut } from './plan-fan-out.js';
import { artifactNameOf } from '../config/schema/pipeline-schema.js';
import { describeInput } from '../config/load/describe-input.js';
import { templateValue, type TemplateSource } from './template-vars.js';
import { renderTemplate } from './templates.js';
import {
  isAttemptStep,
  type AggregateStep,
  type AttemptStep,
  type BranchStep,
  type GateStep,
  type Plan,
  type IterateStep,
  type LoopStep,
  type PlannedStep,
  type SubPipelineStep,
} from './plan-types.js';
import { describeRequires } from './describe-requires.js';
import { describeConcurrency } from './agent-concurrency.js';

/** Placeholder values for a dry run, where nothing has run yet. */
function placeholder(plan: Plan, step: PlannedStep): (name: string) => string | undefined {
  const source: TemplateSource = {
    input: plan.input,
    runId: '<run-id>',
    pipelineName: plan.pipelineName,
    stepId: step.id,
    project: (key) => plan.project[key],
    artifact: (as) => `<workspace>/${plan.runtime.injectedArtifactsDir}/${as}`,
    stepOutput: (id, fieldPath) => `<${['steps', id, 'output', ...fieldPath].join('.')}>`,
    forge: (name) => plan.forgeVariables[name],
    gate: (id, field) => `<gate.${id}.${field}>`,
  };
  return (name) => templateValue(name, source);
}

/** What `--dry-run` says of a child a step would start: its plan, or why none is shown. */
export interface ChildPlan {
  /** Which of the step's children: `item 2 ("b")`, `case high`; absent for a step's one child. */
  label?: string;
  /** Its pipeline's name as the step gives it (a template when chosen at run time). */
  pipeline: string;
  /** What the text calls it when not its name (a loop's sub-steps). */
  shown?: string;
  plan?: Plan;
  /** The children of the child's own steps. */
  children?: ChildPlans;
  /** Hides the child's own secrets (what its `${VAR}` references took) in its text. */
  redact?: (text: string) => string;
  /** Why no plan is shown: chosen at run time, a cycle, past the depth limit, a file that does not load. */
  note?: string;
}

/** The plans of the children a plan's steps would start, by step id. */
export type ChildPlans = ReadonlyMap<string, readonly ChildPlan[]>;

/** The text `wave run --dry-run` prints: order, parallel groups, adapters, prompts, contracts, and the child plans under their steps. */
export function describePlan(plan: Plan, selected?: ReadonlySet<string>, children?: ChildPlans): string {
  const runs = (id: string) => !selected || selected.has(id);
  const lines = [`Pipeline ${plan.pipelineName} (${plan.pipelineFile})`, `Input: ${plan.input || '(none)'}`];
  if (plan.inputSpec) lines.push(...describeInput(plan.inputSpec));
  if (selected) lines.push(`Selected: ${selected.size} of ${plan.steps.length} steps; the others do not run`);
  lines.push('', 'Order (steps in one group run in parallel):');
  plan.layers
    .map((layer) => layer.filter(runs))
    .filter((layer) => layer.length)
    .forEach((layer, i) => lines.push(`  ${i + 1}. ${layer.join(', ')}`));
  lines.push(...describeRequires(plan.requires));
  const outputs = Object.entries(plan.outputs ?? {});
  if (outputs.length) lines.push('', 'Outputs (taken when the run ends):');
  for (const [name, o] of outputs) lines.push(`  ${name} ← ${o.step}/${o.artifact}${o.field ? ` field ${o.field}` : ''} (${o.type ?? 'string'})`);
  for (const step of plan.steps.filter((s) => runs(s.id))) {
    lines.push('', `Step ${step.id}`);
    lines.push(...describeStep(plan, step));
    lines.push(...describeChildPlans(children?.get(step.id) ?? []));
  }
  return `${lines.join('\n')}\n`;
}

/** Each child's plan, indented under the step that starts it, or why it is not shown. */
function describeChildPlans(children: readonly ChildPlan[]): string[] {
  return children.flatMap((child) => {
    const head = `  child plan${child.label ? ` of ${child.label}` : ''}: ${child.shown ?? child.pipeline}`;
    if (!child.plan) return [`${head}, ${child.note ?? 'not known before the run'}`];
    const text = (child.redact ?? String)(describePlan(child.plan, undefined, child.children)).trimEnd();
    return [`${head}`, ...text.split('\n').map((line) => (line ? `    ${line}` : ''))];
  });
}

/** What an agent or command step runs on, with what, and its prompt or command with placeholders. */
/** A fanned-out step's workers, as --dry-run says them. */
function describeFanOut(fanOut: PlannedFanOut): string {
  const width = fanOut.maxConcurrent > 0 ? `, ${fanOut.maxConcurrent} at once` : '';
  if ('count' in fanOut.items) return `${fanOut.items.count} identical child runs, each in its own workspace${width}`;
  const key = fanOut.items.key ? ` at ${fanOut.items.key}` : '';
  return `a child run per item of ${fanOut.items.source}${key} ({{ task }}), each in its own workspace${width}`;
}

function describeAttemptStep(plan: Plan, step: AttemptStep): string[] {
  const lines: string[] = [];
  lines.push(`  runs on:   ${step.kind === 'command' ? 'shell command' : `${step.adapter.name} (${step.adapter.type})`}${describeModel(step)}`);
  if (step.persona) lines.push(`  persona:   ${step.persona.name}`);
  if (step.dependencies.length) lines.push(`  after:     ${step.dependencies.join(', ')}`);
  const rework = step.retry.reworkStep !== undefined ? `, then rework by ${step.retry.reworkStep}` : '';
  lines.push(`  timeout:   ${step.timeoutMs / 60_000} min; attempts: ${step.retry.maxAttempts}${rework}${step.optional ? '; optional' : ''}`);
  if (step.reworkOnly) lines.push('  rework:    runs only when a step that names it as its rework_step fails');
  if (step.fallbacks.length) lines.push(`  fallbacks: ${step.fallbacks.map((a) => a.name).join(' → ')}`);
  if (step.skills.length) lines.push(`  skills:    ${step.skills.map((s) => s.name).join(', ')}`);
  if (step.maxConcurrentAgents !== undefined) lines.push(`  agents:    ${describeConcurrency(step.maxConcurrentAgents)}`);
  if (step.fanOut) lines.push(`  workers:   ${describeFanOut(step.fanOut)}`);
  for (const m of step.workspace.mount ?? []) if (m.subset_from) lines.push(`  mounts:    ${m.source} narrowed to the files ${m.subset_from} lists`);
  if (step.thread) lines.push(`  thread:    ${describeThread(step)}`);
  for (const a of step.injectArtifacts) {
    const from = a.pipeline !== undefined ? `pipeline ${a.pipeline}: ${a.artifact}` : `${a.step}/${a.artifact}`;
    lines.push(`  injects:   ${from} as ${a.as ?? a.artifact}${a.optional ? ' (optional)' : ''}`);
  }
  for (const a of step.outputArtifacts) lines.push(`  produces:  ${a.name} ← ${a.source === 'stdout' ? 'stdout' : a.path}`);
  for (const o of step.outcomes ?? []) lines.push(`  outcome:   ${o.type} "${o.label ?? o.type}" ← ${o.extract_from}${o.json_path ? ` at ${o.json_path}` : ''}`);
  for (const c of step.contracts)
    lines.push(
      `  contract:  ${c.type}${c.schema_path ? ` ${c.schema_path}` : ''}${c.command ? ` \`${c.command}\`` : ''}${c.reviewer ? ` by ${c.reviewer.persona.name} against ${c.criteria_path ?? `${c.criteria?.length ?? 0} criteria listed`}` : ''} (on failure: ${c.on_failure ?? 'fail'}${c.on_failure === 'rework' ? ` by ${c.rework_step}` : ''})`,
    );
  lines.push(`  ${step.kind === 'command' ? 'command' : 'prompt'}:`);
  const receives = step.kind === 'agent' && step.thread && step.thread.fidelity !== 'fresh' && step.thread.earlier.length > 0;
  if (receives) lines.push(`    │ <thread ${step.thread.name}: the transcripts of ${step.thread.earlier.join(', ')} at fidelity ${step.thread.fidelity}>`, '    │');
  const rendered = renderTemplate(step.template, placeholder(plan, step));
  for (const line of rendered.trimEnd().split('\n')) lines.push(`    │ ${line}`);
  return lines;
}

/** The value a branch step looks at and the child each case runs. */
/** A step's lines, by its kind. */
function describeStep(plan: Plan, step: PlannedStep): string[] {
  return [...describeStepWork(plan, step), ...describeRouting(step)];
}

/** What the step does, by its kind. */
function describeStepWork(plan: Plan, step: PlannedStep): string[] {
  if (isAttemptStep(step)) return describeAttemptStep(plan, step);
  switch (step.kind) {
    case 'conditional':
      return [`  routes:    on the outcome of the step before it${step.dependencies.length ? ` (after ${step.dependencies.join(', ')})` : ''}`];
    case 'aggregate':
      return describeAggregateStep(step);
    case 'branch':
      return describeBranchStep(step);
    case 'gate':
      return describeGateStep(step);
    case 'loop':
      return describeLoopStep(step);
    default:
      return describeChildStep(step);
  }
}

/** Where the walk goes after the step (its edges), and how often it may run. */
function describeRouting(step: PlannedStep): string[] {
  const lines = (step.edges ?? []).map((e) => `  edge:      → ${e.target}${e.when ? ` when ${e.when}` : ''}`);
  if (step.maxVisits !== undefined) lines.push(`  visits:    at most ${step.maxVisits}`);
  return lines;
}

/** How often a loop step runs its sub-steps, and what ends it. */
function describeLoopStep(step: LoopStep): string[] {
  const until = step.until !== undefined ? `until ${step.until} reads true, done or yes` : 'no until: every iteration runs';
  const lines = [`  loops:     at most ${step.maxIterations} iteration${step.maxIterations === 1 ? '' : 's'}, ${until}`];
  if (step.dependencies.length) lines.push(`  after:     ${step.dependencies.join(', ')}`);
  lines.push(`  sub-steps: ${step.subSteps.join(', ')} (each iteration a child run; {{ iteration }} from 0)`);
  return lines;
}

/** What a gate step waits for and where each answer goes. */
function describeGateStep(step: GateStep): string[] {
  const limit = step.timeoutMs !== undefined ? ` ${step.timeoutMs / 1000} s` : '';
  const waits =
    step.gateType === 'timer' ? `a timer of${limit}` : step.auto ? 'nothing (auto: its default choice)' : `a person's approval (wave approve)${limit ? `, at most${limit}` : ''}`;
  const lines = [`  gate:      waits for ${waits}`];
  if (step.dependencies.length) lines.push(`  after:     ${step.dependencies.join(', ')}`);
  for (const c of step.choices) lines.push(`  choice:    ${c.key} "${c.label}"${c.target ? ` → ${c.target}` : ''}${c.key === step.defaultChoice ? ' (default)' : ''}`);
  return lines;
}

function describeBranchStep(step: BranchStep): string[] {
  const lines = [`  branches:  on ${step.on}`];
  if (step.dependencies.length) lines.push(`  after:     ${step.dependencies.join(', ')}`);
  for (const [value, arm] of Object.entries(step.cases)) lines.push(`  case:      ${value} → ${arm === 'skip' ? 'nothing (skip)' : `the pipeline ${arm}`}`);
  lines.push(`  input:     ${step.input ?? "{{ input }} (this run's)"}`);
  return lines;
}

/** What an aggregate step reads and the artifact it writes. */
function describeAggregateStep(step: AggregateStep): string[] {
  const lines = [`  aggregates: ${step.from} (${step.strategy}${step.key ? ` of each element's ${step.key}` : ''})`];
  if (step.dependencies.length) lines.push(`  after:     ${step.dependencies.join(', ')}`);
  lines.push(`  produces:  ${artifactNameOf(step.into)} ← ${step.into} (in the run's artifact store)`);
  return lines;
}

/** The child pipeline a step runs, with what input, and what it hands over and brings back. */
function describeChildStep(step: SubPipelineStep | IterateStep): string[] {
  const lines = [`  runs:      the pipeline ${step.pipeline} as a child run${step.kind === 'iterate' ? ' per item' : ''}`];
  if (step.kind === 'iterate') {
    const width = step.mode === 'parallel' ? `parallel, ${step.maxConcurrent || 'all'} at once` : 'one after another';
    lines.push(`  items:     ${step.over} (${width}; on a failed item: ${step.onFailure})`);
  }
  if (step.dependencies.length) lines.push(`  after:     ${step.dependencies.join(', ')}`);
  lines.push(`  input:     ${step.input ?? "{{ input }} (this run's)"}`);
  if (step.timeoutMs !== undefined) lines.push(`  timeout:   ${step.timeoutMs / 60_000} min for the whole child${step.optional ? '; optional' : ''}`);
  for (const name of step.inject) lines.push(`  hands:     ${name} ({{ artifacts.${name} }} in the child)`);
  for (const name of step.extract) lines.push(`  keeps:     the child's ${name}`);
  for (const [key, value] of Object.entries(step.env)) lines.push(`  env:       ${key}=${value} ({{ env.${key} }} in the child)`);
  return lines;
}

/** `impl, fidelity full: receives the transcripts of a, b` — what a thread gives the step. */
function describeThread(step: AttemptStep): string {
  const { name, fidelity, earlier } = step.thread!;
  const head = `${name}, fidelity ${fidelity}`;
  if (step.kind === 'command') return `${head}: a command receives nothing; its output joins the thread`;
  if (fidelity === 'fresh') return `${head}: receives nothing; its transcript joins the thread`;
  return earlier.length ? `${head}: receives the transcripts of ${earlier.join(', ')}` : `${head}: the thread's first step`;
}

/** `, model claude-haiku-4-5 (tier cheapest)`: the model the CLI gets, and the tier it was resolved from. */
function describeModel(step: AttemptStep): string {
  if (step.kind === 'command') return '';
  const tier = step.modelTier ? ` (tier ${step.modelTier})` : '';
  if (step.model) return `, model ${step.model}${tier}`;
  return step.modelTier ? `, the CLI's default model${tier}` : '';
}
