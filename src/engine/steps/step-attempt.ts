import type { AttemptStep } from '../../plan/plan-types.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { modelEndpoints } from '../../adapters/access-mode.js';
import type { AdapterResult, AdapterRunConfig, StreamEvent } from '../../adapters/types.js';
import { attemptPricer } from '../../core/models/attempt-cost.js';
import type { ResolvedAdapter } from '../../core/resolved-adapter.js';
import { execTypeOf } from '../../plan/plan-types.js';
import { adapterConfig } from '../attempt/adapter-config.js';
import { attemptPortOf } from '../attempt/port-of.js';
import { lastLineReporter } from './output-line.js';
import { emit } from '../run/context.js';
import { RunningTokens } from '../run/running-tokens.js';
import type { PreparedStep } from '../workspace/step-files.js';
import type { AttemptStart } from './session-continuation.js';
import { requiredSkillCommands } from './skill-commands.js';
import type { StepRun } from './step-run.js';

/** Which attempt of a step runs, on which adapter, and how it starts (its prompt and the session it continues). */
export interface AttemptPlan {
  attempt: number;
  adapter: ResolvedAdapter;
  start: AttemptStart;
}

/** Runs one attempt of the step: its events published as they come, its tokens priced live; returns the adapter's result with its final figures. */
export async function runStepAttempt(run: StepRun<AttemptStep>, prepared: PreparedStep, plan: AttemptPlan): Promise<AdapterResult> {
  const { context, step } = run;
  const { attempt, adapter, start } = plan;
  const model = adapter === step.adapter ? step.model : adapter.model;
  const rework = run.rework ? { kind: 'rework' as const, reworkOf: run.rework.of } : {};
  emit(context, { type: 'step_started', stepId: step.id, attempt, adapter: adapter.name, adapterType: adapter.type, model, workspace: prepared.workspace, ...rework });
  if (start.continueFrom) emit(context, { type: 'session_continued', stepId: step.id, attempt, sessionId: start.continueFrom.sessionId, from: start.continuedFrom! });
  else if (start.freshReason !== undefined) emit(context, { type: 'session_fresh', stepId: step.id, attempt, reason: start.freshReason });
  const config = await attemptConfig(run, prepared, { ...plan, model });
  const before = context.store.record.steps[step.id]!;
  // Tokens the stream reports without a cost are priced live, so runtime.cost can stop a long attempt mid-way.
  const running = new RunningTokens(
    { tokens: before.tokens, ...(before.costUsd !== undefined ? { costUsd: before.costUsd } : {}) },
    await attemptPricer(adapter, model, modelEndpoints(adapter, config.env)),
  );
  const publishTokens = () => emit(context, { type: 'step_tokens', stepId: step.id, attempt, ...running.totals() });
  const { timeoutMs } = step;
  const reportLine = lastLineReporter((line) => emit(context, { type: 'step_output', stepId: step.id, attempt, line }));
  const onEvent = (event: StreamEvent) => {
    if (event.kind === 'output') return reportLine(event);
    emit(context, { type: 'step_event', stepId: step.id, attempt, event });
    if (running.apply(event)) publishTokens();
  };
  const limits = { timeoutMs, stallMs: context.plan.runtime.stallMs };
  const runner = context.registry.resolve(adapter.type);
  const result = await attemptPortOf(context).run({ purpose: 'step', runner, config, limits, signal: run.signal, onEvent });
  // The adapter's totals are authoritative: they replace what the stream reported on the way (unless it reports none).
  const figures = running.final(result);
  if (running.settle(figures)) publishTokens();
  return { ...result, tokens: figures.tokens, ...(figures.costUsd !== undefined ? { costUsd: figures.costUsd } : {}) };
}

/** What the adapter's runner is given for this attempt: its prompt, model, persona, skills, session and spawn. */
async function attemptConfig(run: StepRun<AttemptStep>, prepared: PreparedStep, plan: AttemptPlan & { model?: string }): Promise<AdapterRunConfig> {
  const { context, step } = run;
  const { attempt, adapter, start, model } = plan;
  const { plan: runPlan, store } = context;
  const attemptDir = store.attemptPath(step.id, attempt);
  // Asynchronous: on a slow disk, creating folders on the main thread holds up every other step.
  await mkdir(attemptDir, { recursive: true });
  const skillCommands = step.kind === 'agent' && runPlan.requires.skills.length ? { skillCommands: await requiredSkillCommands(runPlan.requires, runPlan.projectRoot) } : {};
  const extra = {
    persona: step.persona,
    skills: step.skills,
    ...skillCommands,
    ...(start.continueFrom ? { continueFrom: start.continueFrom } : {}),
    values: prepared.values,
    onSpawn: (pid: number) => {
      // A file of its own, started at once: run.json is written in bursts and a kill may come first.
      writeFile(join(attemptDir, 'pid'), String(pid)).catch(() => undefined);
      emit(context, { type: 'attempt_spawned', stepId: step.id, attempt, pid });
    },
  };
  return adapterConfig(context, step, { attempt, adapter, model, prompt: start.prompt, execType: execTypeOf(step), attemptDir, place: prepared, extra });
}
