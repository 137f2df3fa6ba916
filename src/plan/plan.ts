import { fanOutProblems, planFanOut } from './plan-fan-out.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Located } from '../config/load/load.js';
import type { Manifest } from '../config/schema/manifest-schema.js';
import type { Pipeline, Step } from '../config/schema/pipeline-schema.js';
import type { Gate } from '../config/schema/gate-schema.js';
import { durationMs } from '../config/schema/common-schema.js';
import { execOf, isScriptStep } from '../config/schema/script-step.js';
import { WaveError, WaveErrors, type SourceLocation } from '../core/errors/errors.js';
import { ancestorsOf, topologicalLayers } from '../core/dag.js';
import { reworkAncestors } from './rework-targets.js';
import { runsRootOf } from '../core/run-paths.js';
import { resolveSandboxPolicy } from './sandbox-policy.js';
import { resolveBudget } from './plan-budget.js';
import { resolveRecordingPolicy } from './recording-policy.js';
import { planForge } from './plan-token-scopes.js';
import type { AggregateStep, AttemptStep, BranchStep, GateStep, IterateStep, LoopStep, Plan, PlannedStep, PlannedThread, SubPipelineStep, TelemetryPolicy } from './plan-types.js';
import { COMMAND_ADAPTER, resolveAdapter, resolvePersona, retryPolicy, stepTimeoutMs, stringRecord } from './resolve-step.js';
import { withConcurrencySection } from './agent-concurrency.js';
import { planRequires } from './plan-requires.js';
import { projectFacts } from '../config/load/project-placeholders.js';
import { plannedModel, stepModel, stepModelError } from './step-model.js';
import { resolveStepSkills } from './step-skills.js';
import { contractRequirements } from '../contracts/requirements.js';
import { planContracts, planExtract } from './plan-contracts.js';
import { contractCommandProblems } from './contract-commands.js';
import { planInjections } from './plan-injections.js';
import { planInjectedArtifactsDir } from './injected-artifacts-dir.js';
import { forgeOf, forgeTemplateValues } from '../core/forge/forge.js';
import { explainUnknownVariable } from './template-vars.js';
import { withParentArtifacts, type ParentArtifacts } from './parent-artifacts.js';
import { isUnexpanded, shellContexts, type UnexpandedContext } from './shell-context.js';
import { templateReferences, type TemplateReference } from './templates.js';
import { referenceLocation } from './template-location.js';
import { browserOutputArtifacts, browserStepProblems } from './browser-step.js';
import { planConditionalStep, planGraph, planRouting } from './plan-graph.js';

/** The manifest's `runtime.timeouts`. */
type Timeouts = NonNullable<NonNullable<Manifest['runtime']>['timeouts']>;

const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;
const DEFAULT_DRAIN_SECONDS = 5;
/** Wave's default limit of a skill's install (timeouts.SkillInstall). */
const DEFAULT_SKILL_COMMAND_SECONDS = 300;
/** Wave's default runtime.artifacts.max_stdout_size. */
const DEFAULT_MAX_STDOUT_BYTES = 10 * 1024 * 1024;

export interface PlanOptions {
  input: string;
  timeoutMinutes?: number;
  /** A child run's: the parent's artifacts its steps may name as `{{ artifacts.<name> }}`. */
  parentArtifacts?: ParentArtifacts;
  /** A child run's: its parent step's config.max_cycles, the limit of each loop step that sets no max_iterations. */
  maxCycles?: number;
}

/** What a parent step hands its child's plan (recorded in the child's options, so a resume plans the same). */
export type HandedPlanOptions = Pick<PlanOptions, 'parentArtifacts' | 'maxCycles'>;

/** The handed options of a child run's request or record, leaving out what is absent. */
export function handedPlanOptions(from: HandedPlanOptions | undefined): HandedPlanOptions {
  return {
    ...(from?.parentArtifacts ? { parentArtifacts: from.parentArtifacts } : {}),
    ...(from?.maxCycles !== undefined ? { maxCycles: from.maxCycles } : {}),
  };
}

/** Manifest + pipeline + input -> an immutable Plan; every template is checked before anything runs. */
export function buildPlan(manifest: Located<Manifest>, pipeline: Located<Pipeline>, options: PlanOptions): Plan {
  const m = manifest.value;
  const projectRoot = manifest.dir;
  const project = projectFacts(m.project);
  const stepsById = new Map(pipeline.value.steps.map((s) => [s.id, s]));
  const gateIds = new Set(pipeline.value.steps.flatMap((s) => (s.gate ? [s.id] : [])));
  const problems: WaveError[] = [];
  const planStepOfKind = (declared: Step, index: number): PlannedStep => {
    const at = pipeline.locate(['steps', index]);
    if (declared.loop) return { ...planLoopStep(declared, options.maxCycles, { problems, location: pipeline.locate(['steps', index, 'loop']) }), location: at };
    if (declared.type === 'conditional') return { ...planConditionalStep(declared), location: at };
    if (declared.pipeline !== undefined) return { ...planChildStep(declared, declared.pipeline), location: at };
    if (declared.aggregate) return { ...planAggregateStep(declared, declared.aggregate), location: at };
    if (declared.gate) return { ...planGateStep(declared, declared.gate, m.runtime?.timeouts), location: at };
    if (declared.branch) return { ...planBranchStep(declared, declared.branch), location: at };
    const source = readTemplate(declared, index, pipeline, projectRoot);
    const { template, location } = source;
    const refs = templateReferences(template);
    const branchRefs = declared.workspace?.branch ? templateReferences(declared.workspace.branch) : [];
    const step = withParentArtifacts(declared, [...refs, ...branchRefs], options.parentArtifacts);
    const ancestors = step.rework_only ? reworkAncestors(step.id, pipeline.value.steps, stepsById) : ancestorsOf(step.id, stepsById);
    problems.push(...fanOutProblems(step, refs, (path) => pipeline.locate(['steps', index, ...path])));
    for (const ref of refs) {
      // A matrix worker's item.
      if (step.strategy && ref.name === 'task') continue;
      const why = explainUnknownVariable(ref.name, step, ancestors, Object.keys(project), gateIds);
      if (why) problems.push(templateError(why, template, ref, location));
    }
    if (execOf(step).type === 'command') problems.push(...unexpandedReferenceErrors(step.id, template, refs, location));
    for (const ref of branchRefs) {
      const why = explainUnknownVariable(ref.name, step, ancestors, Object.keys(project), gateIds);
      if (why) problems.push(unknownVariableError(why, pipeline.locate(['steps', index, 'workspace', 'branch'])));
    }
    problems.push(...contractCommandProblems(step, index, pipeline, Object.keys(project)));
    const thread = planThread(step, pipeline.value.steps, ancestors);
    const planned = planStep(step, source, manifest, options, pipeline.value);
    const fanOut = planFanOut(step, template, pipeline.value);
    problems.push(...adapterProblems(step, planned.adapter, { index, manifest, pipeline, source }));
    return { ...planned, ...(thread ? { thread } : {}), ...(fanOut ? { fanOut } : {}), location: at };
  };
  const steps = pipeline.value.steps.map((step, index): PlannedStep => ({ ...planStepOfKind(step, index), ...planRouting(step) }));
  const injectedArtifactsDir = planInjectedArtifactsDir(manifest);
  if (injectedArtifactsDir instanceof WaveError) problems.push(injectedArtifactsDir);
  if (problems.length) throw new WaveErrors(problems);
  const runtime = m.runtime;
  return deepFreeze({
    pipelineName: pipeline.value.metadata.name,
    pipelineFile: pipeline.file,
    manifestFile: manifest.file,
    projectRoot,
    input: options.input,
    project,
    steps,
    layers: topologicalLayers(pipeline.value.steps),
    runtime: {
      maxConcurrency: runtime?.max_concurrency ?? runtime?.max_concurrent_workers ?? 10,
      graceMs: (runtime?.timeouts?.process_grace_seconds ?? 3) * 1000,
      skillCommandMs: (runtime?.timeouts?.skill_install_seconds ?? DEFAULT_SKILL_COMMAND_SECONDS) * 1000,
      drainMs: (runtime?.timeouts?.stdout_drain_seconds ?? DEFAULT_DRAIN_SECONDS) * 1000,
      maxStdoutBytes: runtime?.artifacts?.max_stdout_size ?? DEFAULT_MAX_STDOUT_BYTES,
      ...(runtime?.artifacts?.default_artifact_dir ? { artifactDir: runtime.artifacts.default_artifact_dir } : {}),
      injectedArtifactsDir: injectedArtifactsDir as string,
      stallMs: runtime?.stall_timeout !== undefined ? durationMs(runtime.stall_timeout) : 0,
      maxLineBytes: runtime?.max_line_bytes ?? DEFAULT_MAX_LINE_BYTES,
      workspaceRoot: resolve(projectRoot, runtime?.workspace_root ?? '.wave/workspaces'),
      runsRoot: runsRootOf(projectRoot),
      envPassthrough: runtime?.sandbox?.env_passthrough ?? [],
      secretEnv: runtime?.sandbox?.secret_env ?? [],
      sandbox: resolveSandboxPolicy(runtime),
      ...runtimePolicies(runtime),
    },
    envTaken: { ...manifest.envTaken, ...pipeline.envTaken },
    forgeVariables: forgeTemplateValues(pipeline.forge ?? forgeOf(undefined, undefined, {})),
    ...(pipeline.value.input ? { inputSpec: pipeline.value.input } : {}),
    ...(pipeline.value.pipeline_outputs ? { outputs: pipeline.value.pipeline_outputs } : {}),
    requires: planRequires(pipeline.value.requires, (path) => pipeline.locate(path), project, runtime?.skills?.allow_install ?? false),
    forge: planForge(manifest, pipeline),
    ...planGraph(pipeline.value),
  });
}

/** runtime.cost's limits (absent when the run has none), runtime.recording and runtime.telemetry, resolved. */
function runtimePolicies(runtime: Manifest['runtime']): Pick<Plan['runtime'], 'budget' | 'recording' | 'telemetry'> {
  const budget = resolveBudget(runtime);
  return { ...(budget ? { budget } : {}), recording: resolveRecordingPolicy(runtime), telemetry: resolveTelemetryPolicy(runtime) };
}

/** runtime.telemetry resolved: no live export and no content unless the manifest asks. */
function resolveTelemetryPolicy(runtime: Manifest['runtime']): TelemetryPolicy {
  const telemetry = runtime?.telemetry;
  const otlp = telemetry?.otlp;
  return { ...(otlp ? { otlp: { endpoint: otlp.endpoint, headers: { ...otlp.headers } } } : {}), captureContent: telemetry?.capture_content ?? false };
}

/** A step's prompt or command text and where it starts. */
interface StepTemplate {
  template: string;
  location: SourceLocation;
}

/** A branch step: the value it reads and the child each case runs. */
function planBranchStep(step: Step, branch: NonNullable<Step['branch']>): Omit<BranchStep, 'location'> {
  const { on, cases } = branch;
  return {
    id: step.id,
    dependencies: step.dependencies ?? [],
    optional: step.optional ?? false,
    kind: 'branch',
    on,
    cases,
    ...(step.input !== undefined ? { input: step.input } : {}),
  };
}

/** A loop step: how often at most, what ends it, and its sub-steps (read as a pipeline of their own when an iteration runs). */
function planLoopStep(step: Step, handedLimit: number | undefined, at: { problems: WaveError[]; location: SourceLocation }): Omit<LoopStep, 'location'> {
  const loop = step.loop!;
  const maxIterations = loop.max_iterations ?? handedLimit;
  if (maxIterations === undefined) at.problems.push(loopLimitMissing(step.id, at.location));
  return {
    id: step.id,
    dependencies: step.dependencies ?? [],
    optional: step.optional ?? false,
    kind: 'loop',
    maxIterations: maxIterations ?? 1,
    ...(loop.until !== undefined ? { until: loop.until } : {}),
    subSteps: loop.steps.map((sub) => String(sub.id)),
  };
}

/** A loop with no limit of its own, in a run no parent step gave one (config.max_cycles). */
function loopLimitMissing(stepId: string, location: SourceLocation): WaveError {
  return new WaveError('missing_field', `loop step \`${stepId}\` sets no \`max_iterations\``, {
    location,
    hint: "Set `loop.max_iterations`; run as a child, the loop may take it from its parent step's `config.max_cycles` instead.",
  });
}

/** A gate step: its kind of wait, its choices and limits. */
function planGateStep(step: Step, gate: Gate, timeouts: Timeouts | undefined): Omit<GateStep, 'location'> {
  const text = gate.message ?? gate.prompt;
  const polls = gate.type === 'pr_merge' || gate.type === 'ci_pass';
  const timeout =
    gate.timeout !== undefined
      ? durationMs(gate.timeout)
      : polls
        ? (timeouts?.gate_poll_timeout_minutes ?? 60) * 60_000
        : gate.type === 'approval' && timeouts?.gate_approval_hours !== undefined
          ? timeouts.gate_approval_hours * 3_600_000
          : undefined;
  return {
    id: step.id,
    dependencies: step.dependencies ?? [],
    optional: step.optional ?? false,
    kind: 'gate',
    gateType: gate.type,
    auto: gate.auto ?? false,
    ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
    ...(text !== undefined ? { message: text.trim() } : {}),
    choices: (gate.choices ?? []).map((c) => ({ key: c.key, label: c.label, ...(c.target !== undefined ? { target: c.target } : {}) })),
    ...(gate.default !== undefined ? { defaultChoice: gate.default } : {}),
    freeform: gate.freeform ?? false,
    ...(polls
      ? {
          poll: {
            ...(gate.pr_number !== undefined ? { prNumber: gate.pr_number } : {}),
            ...(gate.repo !== undefined ? { repo: gate.repo } : {}),
            ...(gate.branch !== undefined ? { branch: gate.branch } : {}),
            intervalMs: gate.interval !== undefined ? durationMs(gate.interval) : (timeouts?.gate_poll_interval_seconds ?? 30) * 1000,
          },
        }
      : {}),
  };
}

/** An aggregate step: what it reads (resolved when it runs) and how it writes it. */
function planAggregateStep(step: Step, aggregate: NonNullable<Step['aggregate']>): Omit<AggregateStep, 'location'> {
  return {
    id: step.id,
    kind: 'aggregate',
    dependencies: step.dependencies ?? [],
    optional: step.optional ?? false,
    from: aggregate.from,
    into: aggregate.into,
    strategy: aggregate.strategy,
    ...(aggregate.key !== undefined ? { key: aggregate.key } : {}),
  };
}

/** A child pipeline step, or an iterate step running its child per item: names and input as written (resolved when it runs). */
function planChildStep(step: Step, child: string): Omit<SubPipelineStep, 'location'> | Omit<IterateStep, 'location'> {
  const config = step.config ?? {};
  const iterate = step.iterate;
  return {
    id: step.id,
    ...(iterate
      ? {
          kind: 'iterate' as const,
          over: iterate.over,
          mode: iterate.mode ?? 'sequential',
          maxConcurrent: Math.max(0, iterate.max_concurrent ?? 0),
          onFailure: iterate.on_failure ?? 'fail',
        }
      : { kind: 'pipeline' as const }),
    dependencies: step.dependencies ?? [],
    optional: step.optional ?? false,
    pipeline: child,
    ...(step.input !== undefined ? { input: step.input } : {}),
    inject: config.inject ?? [],
    extract: config.extract ?? [],
    ...(config.timeout !== undefined ? { timeoutMs: durationMs(config.timeout) } : {}),
    ...(config.max_cycles !== undefined ? { maxCycles: config.max_cycles } : {}),
    env: stringRecord(config.env),
  };
}

function planStep(step: Step, source: StepTemplate, manifest: Located<Manifest>, options: PlanOptions, pipeline: Pipeline): Omit<AttemptStep, 'location'> {
  const { template, location: templateLocation } = source;
  const m = manifest.value;
  const kind: AttemptStep['kind'] = (execOf(step).type ?? 'prompt') === 'prompt' ? 'agent' : 'command';
  const personaName = step.persona;
  const resolved = personaName && kind === 'agent' ? resolvePersona(m, manifest.dir, personaName) : undefined;
  const persona = resolved && withConcurrencySection(resolved, step.max_concurrent_agents);
  // A command step runs no agent: it gets no skills.
  const skills = kind === 'agent' ? resolveStepSkills(manifest, pipeline, step, resolved?.skills ?? [], projectFacts(m.project)) : [];
  const adapterName = step.adapter ?? (personaName ? m.personas?.[personaName]?.adapter : undefined);
  const adapter = kind === 'command' ? COMMAND_ADAPTER : resolveAdapter(m, adapterName!);
  const fallbackNames = (personaName ? m.personas?.[personaName]?.fallbacks : undefined) ?? m.runtime?.fallbacks?.[adapter.name] ?? [];
  const contracts = planContracts(step, m, manifest.dir);
  const extract = planExtract(step, m, manifest.dir);
  return {
    id: step.id,
    dependencies: step.dependencies ?? [],
    optional: step.optional ?? false,
    kind,
    ...(kind === 'command' && isScriptStep(step) ? { runsInProjectCopy: true } : {}),
    ...(step.rework_only ? { reworkOnly: true } : {}),
    // The agent is told what its output is checked against; a command or a browser cannot read it, so it gets nothing.
    template: kind === 'agent' && adapter.type !== 'browser' && contracts.length ? template.trimEnd() + contractRequirements(contracts) : template,
    templateLocation,
    adapter,
    persona,
    skills,
    ...(step.max_concurrent_agents !== undefined ? { maxConcurrentAgents: step.max_concurrent_agents } : {}),
    ...(adapter.type === 'browser' ? {} : plannedModel(stepModel(step, m, adapter))),
    timeoutMs: stepTimeoutMs(step, m, options.timeoutMinutes),
    retry: retryPolicy(step.retry, m),
    workspace: step.workspace ?? {},
    outputArtifacts: adapter.type === 'browser' ? browserOutputArtifacts(step.id, template, step.output_artifacts ?? []) : (step.output_artifacts ?? []),
    injectArtifacts: planInjections(step, manifest.dir),
    ...(step.outcomes?.length ? { outcomes: step.outcomes } : {}),
    contracts,
    ...(extract ? { extract } : {}),
    env: { ...(personaName ? stringRecord(m.personas?.[personaName]?.env) : {}), ...stringRecord(step.env) },
    fallbacks: kind === 'command' ? [] : fallbackNames.map((name) => resolveAdapter(m, name)),
  };
}

/** A step's thread: its name, fidelity (Wave's: full when a thread is set) and the thread's steps it runs after, in file order. */
function planThread(step: Step, all: readonly Step[], ancestors: ReadonlySet<string>): PlannedThread | undefined {
  if (!step.thread) return undefined;
  const earlier = all.filter((s) => s.thread === step.thread && ancestors.has(s.id)).map((s) => s.id);
  return { name: step.thread, fidelity: step.fidelity ?? 'full', earlier };
}

/** The step's prompt or command text and where it starts. */
function readTemplate(step: Step, index: number, pipeline: Located<Pipeline>, projectRoot: string): StepTemplate {
  const exec = execOf(step);
  if (exec.source_path) {
    const file = resolve(projectRoot, exec.source_path);
    return { template: readFileSync(file, 'utf8'), location: { file, line: 1, column: 1 } };
  }
  const location = pipeline.locate(['steps', index, ...(step.script ? ['script'] : ['exec', 'source'])]);
  const template = exec.source ?? '';
  // A multi-line value is a block scalar whose text starts on the line after its `|`.
  return { template, location: template.includes('\n') ? { ...location, line: (location.line ?? 1) + 1, column: 1 } : location };
}

function templateError(why: string, template: string, ref: TemplateReference, start: SourceLocation): WaveError {
  return unknownVariableError(why, referenceLocation(template, ref, start));
}

/** An unknown template variable at a location, with the variables a template may use as the hint. */
function unknownVariableError(why: string, location: SourceLocation): WaveError {
  return new WaveError('template_invalid', `unknown template variable: ${why}`, {
    location,
    hint: 'Templates may use {{ input }}, {{ run.id }}, {{ pipeline.name }}, {{ step.id }}, {{ project.<key> }}, {{ artifacts.<as> }}, {{ steps.<dependency>.output }} and {{ gate.<gate step>.choice|key|text|timestamp|target }}.',
  });
}

/** What the step's adapter cannot do with it: a model it does not have; a browser step's action list that does not hold. */
function adapterProblems(
  step: Step,
  adapter: AttemptStep['adapter'],
  at: { index: number; manifest: Located<Manifest>; pipeline: Located<Pipeline>; source: StepTemplate },
): WaveError[] {
  const { index, manifest, pipeline, source } = at;
  // A browser step asks no model: its persona's model is no concern of it.
  if (adapter.type === 'browser') return browserStepProblems(step, source.template, source.location, (key) => pipeline.locate(['steps', index, key]));
  const modelProblem = stepModelError(index, manifest, pipeline, adapter);
  return modelProblem ? [modelProblem] : [];
}

/** Each of a command's references where the shell expands nothing. */
function unexpandedReferenceErrors(stepId: string, template: string, refs: readonly TemplateReference[], start: SourceLocation): WaveError[] {
  const contexts = shellContexts(template, [...refs]);
  return refs.flatMap((ref, i) => {
    const context = contexts[i];
    return isUnexpanded(context) ? [unexpandedReferenceError(stepId, context, template, ref, start)] : [];
  });
}

/** A command's reference where the shell expands nothing: a quoted-delimiter heredoc or a `$'…'` string. */
function unexpandedReferenceError(stepId: string, context: UnexpandedContext, template: string, ref: TemplateReference, start: SourceLocation): WaveError {
  const hint =
    context === "a $'…' string"
      ? `Put ${ref.text} outside the $'…' string or in plain single or double quotes: Wave hands the value over in a shell variable, which a $'…' string does not expand.`
      : `Unquote the heredoc's delimiter (<<EOF, not <<'EOF') to take ${ref.text} in it: Wave hands the value over in a shell variable, which a quoted heredoc does not expand.`;
  return new WaveError('template_invalid', `\`${ref.text}\` is inside ${context} in the command of step \`${stepId}\`, where the shell expands nothing`, {
    location: referenceLocation(template, ref, start),
    hint,
  });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
