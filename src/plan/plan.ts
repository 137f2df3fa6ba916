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
import { runsRootOf } from '../core/run-paths.js';
import { resolveSandboxPolicy } from './sandbox-policy.js';
import { resolveBudget } from './plan-budget.js';
import { planForge } from './plan-token-scopes.js';
import type { AggregateStep, AttemptStep, BranchStep, GateStep, IterateStep, Plan, PlannedStep, PlannedThread, SubPipelineStep } from './plan-types.js';
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
import { isUnexpanded, shellContexts, type UnexpandedContext } from './shell-context.js';
import { lineColumnAt, templateReferences, type TemplateReference } from './templates.js';

const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;
const DEFAULT_DRAIN_SECONDS = 5;
/** Wave's default runtime.artifacts.max_stdout_size. */
const DEFAULT_MAX_STDOUT_BYTES = 10 * 1024 * 1024;

export interface PlanOptions {
  input: string;
  timeoutMinutes?: number;
}

/** Manifest + pipeline + input -> an immutable Plan; every template is checked before anything runs. */
export function buildPlan(manifest: Located<Manifest>, pipeline: Located<Pipeline>, options: PlanOptions): Plan {
  const m = manifest.value;
  const projectRoot = manifest.dir;
  const project = projectFacts(m.project);
  const stepsById = new Map(pipeline.value.steps.map((s) => [s.id, s]));
  const problems: WaveError[] = [];
  const steps = pipeline.value.steps.map((step, index): PlannedStep => {
    if (step.pipeline !== undefined) return { ...planChildStep(step, step.pipeline), location: pipeline.locate(['steps', index]) };
    if (step.aggregate) return { ...planAggregateStep(step, step.aggregate), location: pipeline.locate(['steps', index]) };
    if (step.gate) return { ...planGateStep(step, step.gate), location: pipeline.locate(['steps', index]) };
    if (step.branch) return { ...planBranchStep(step, step.branch), location: pipeline.locate(['steps', index]) };
    const source = readTemplate(step, index, pipeline, projectRoot);
    const { template, location } = source;
    const ancestors = ancestorsOf(step.id, stepsById);
    const refs = templateReferences(template);
    problems.push(...fanOutProblems(step, refs, (path) => pipeline.locate(['steps', index, ...path])));
    for (const ref of refs) {
      // A matrix worker's item.
      if (step.strategy && ref.name === 'task') continue;
      const why = explainUnknownVariable(ref.name, step, ancestors, Object.keys(project));
      if (why) problems.push(templateError(why, template, ref, location));
    }
    if (execOf(step).type === 'command') {
      const contexts = shellContexts(template, refs);
      refs.forEach((ref, i) => {
        const context = contexts[i];
        if (isUnexpanded(context)) problems.push(unexpandedReferenceError(step.id, context, template, ref, location));
      });
    }
    if (step.workspace?.branch) {
      for (const ref of templateReferences(step.workspace.branch)) {
        const why = explainUnknownVariable(ref.name, step, ancestors, Object.keys(project));
        if (why) problems.push(unknownVariableError(why, pipeline.locate(['steps', index, 'workspace', 'branch'])));
      }
    }
    problems.push(...contractCommandProblems(step, index, pipeline, Object.keys(project)));
    const thread = planThread(step, pipeline.value.steps, ancestors);
    const planned = planStep(step, source, manifest, options, pipeline.value);
    const fanOut = planFanOut(step, template, pipeline.value);
    const modelProblem = stepModelError(index, manifest, pipeline, planned.adapter);
    if (modelProblem) problems.push(modelProblem);
    return { ...planned, ...(thread ? { thread } : {}), ...(fanOut ? { fanOut } : {}), location: pipeline.locate(['steps', index]) };
  });
  const injectedArtifactsDir = planInjectedArtifactsDir(manifest);
  if (injectedArtifactsDir instanceof WaveError) problems.push(injectedArtifactsDir);
  if (problems.length) throw new WaveErrors(problems);
  const runtime = m.runtime;
  const budget = resolveBudget(runtime);
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
      ...(budget ? { budget } : {}),
    },
    envTaken: { ...manifest.envTaken, ...pipeline.envTaken },
    forgeVariables: forgeTemplateValues(pipeline.forge ?? forgeOf(undefined, undefined, {})),
    ...(pipeline.value.input ? { inputSpec: pipeline.value.input } : {}),
    ...(pipeline.value.pipeline_outputs ? { outputs: pipeline.value.pipeline_outputs } : {}),
    requires: planRequires(pipeline.value.requires, (path) => pipeline.locate(path), project, runtime?.skills?.allow_install ?? false),
    forge: planForge(manifest, pipeline),
  });
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

/** A gate step: its kind of wait, its choices and limits. */
function planGateStep(step: Step, gate: Gate): Omit<GateStep, 'location'> {
  const text = gate.message ?? gate.prompt;
  return {
    id: step.id,
    dependencies: step.dependencies ?? [],
    optional: step.optional ?? false,
    kind: 'gate',
    // The polling types are refused when the pipeline loads.
    gateType: gate.type as GateStep['gateType'],
    auto: gate.auto ?? false,
    ...(gate.timeout !== undefined ? { timeoutMs: durationMs(gate.timeout) } : {}),
    ...(text !== undefined ? { message: text.trim() } : {}),
    choices: (gate.choices ?? []).map((c) => ({ key: c.key, label: c.label, ...(c.target !== undefined ? { target: c.target } : {}) })),
    ...(gate.default !== undefined ? { defaultChoice: gate.default } : {}),
    freeform: gate.freeform ?? false,
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
    extract: config.extract ?? [],
    ...(config.timeout !== undefined ? { timeoutMs: durationMs(config.timeout) } : {}),
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
    // The agent is told what its output is checked against; a command cannot read it, so it gets nothing.
    template: kind === 'agent' && contracts.length ? template.trimEnd() + contractRequirements(contracts) : template,
    templateLocation,
    adapter,
    persona,
    skills,
    ...(step.max_concurrent_agents !== undefined ? { maxConcurrentAgents: step.max_concurrent_agents } : {}),
    ...plannedModel(stepModel(step, m, adapter)),
    timeoutMs: stepTimeoutMs(step, m, options.timeoutMinutes),
    retry: retryPolicy(step.retry, m),
    workspace: step.workspace ?? {},
    outputArtifacts: step.output_artifacts ?? [],
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
    hint: 'Templates may use {{ input }}, {{ run.id }}, {{ pipeline.name }}, {{ step.id }}, {{ project.<key> }}, {{ artifacts.<as> }} and {{ steps.<dependency>.output }}.',
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

/** Where a reference is in its file: the template's start plus its line, and its true column on that line. */
function referenceLocation(template: string, ref: TemplateReference, start: SourceLocation): SourceLocation {
  const at = lineColumnAt(template, ref.offset);
  const line = (start.line ?? 1) + at.line - 1;
  // The file line shows the true column (indentation and quotes are not in the template text): the same
  // occurrence of the reference's text, counted from where the template starts on that line.
  const lineStart = template.lastIndexOf('\n', ref.offset - 1) + 1;
  const earlier = template.slice(lineStart, ref.offset).split(ref.text).length - 1;
  const text = sourceLine(start.file, line);
  let column = -1;
  let from = at.line === 1 ? Math.max(0, (start.column ?? 1) - 1) : 0;
  for (let seen = 0; text !== undefined && seen <= earlier; seen++) {
    column = text.indexOf(ref.text, from);
    if (column < 0) break;
    from = column + ref.text.length;
  }
  return { ...start, line, column: column >= 0 ? column + 1 : at.column };
}

/** One line of a file (1-based), or undefined when it cannot be read. */
function sourceLine(file: string, line: number): string | undefined {
  try {
    return readFileSync(file, 'utf8').split('\n')[line - 1];
  } catch {
    return undefined;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
