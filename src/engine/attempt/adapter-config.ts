import { endpointVariables } from '../../adapters/access-mode.js';
import type { AdapterRunConfig } from '../../adapters/types.js';
import type { ResolvedAdapter } from '../../core/resolved-adapter.js';
import type { AttemptStep } from '../../plan/plan-types.js';
import type { RunContext } from '../run/context.js';
import { buildCuratedEnv } from '../../process/environment.js';
import { WAVE_COMMAND_DIR } from '../steps/wave-command.js';
import type { PreparedStep } from '../workspace/step-files.js';
import { join } from 'node:path';
import { sandboxedSpawn } from './sandboxed-spawn.js';
import { browserAttempt } from './browser-attempt.js';
import { withSkillPath } from '../run/ready-skills.js';
import { recordingPolicyOf } from '../../plan/recording-policy.js';
import { agentTraceOf, attemptTelemetry } from '../../trace/agent-trace.js';

/** Where a step's attempts run: its workspace, and the variables naming the dependency artifacts placed there. */
export type StepPlace = Pick<PreparedStep, 'workspace' | 'dependencyEnv' | 'git'> & Partial<Pick<PreparedStep, 'workdir'>>;

/** The curated environment of one attempt of `step` on `adapter`: the passthrough variables and the adapter's CLI's base-URL variables. */
export function attemptEnv(context: RunContext, step: AttemptStep, adapter: ResolvedAdapter, place: StepPlace): Record<string, string> {
  return buildCuratedEnv({
    // The skills installed in the sandbox come first on PATH (after the run's `wave` command).
    parent: context.skills?.some((skill) => skill.home) ? { ...context.parentEnv, PATH: withSkillPath(context.parentEnv.PATH, context.skills) } : context.parentEnv,
    passthrough: [...context.plan.runtime.envPassthrough, ...endpointVariables(adapter.type)],
    stepEnv: { ...adapter.env, ...step.env },
    waveEnv: place.dependencyEnv,
    runId: context.store.record.id,
    stepId: step.id,
    workspace: place.workspace,
    runDir: context.store.dir,
    commandDir: join(context.store.dir, WAVE_COMMAND_DIR),
  });
}

/** What differs between the attempts of a step and the model requests made for it. */
export interface AttemptInput {
  attempt: number;
  adapter: ResolvedAdapter;
  model?: string;
  prompt: string;
  execType: AdapterRunConfig['execType'];
  /** Its own folder: `attempt-<n>/`, or `<purpose>-<k>/` inside it for a model request. */
  attemptDir: string;
  place: StepPlace;
  /** What only a step's own attempts carry: its persona, skills, session, command values and pid report. */
  extra?: Pick<AdapterRunConfig, 'persona' | 'skills' | 'skillCommands' | 'continueFrom' | 'values' | 'onSpawn'>;
}

/** The one place an adapter's run config is built, for a step's attempts and for the model requests made for it alike. */
export function adapterConfig(context: RunContext, step: AttemptStep, input: AttemptInput): AdapterRunConfig {
  const { attempt, adapter, model, prompt, execType, attemptDir, place, extra = {} } = input;
  const { runtime } = context.plan;
  const env = attemptEnv(context, step, adapter, place);
  const traced = agentTraceOf(context.agentTrace, adapter);
  return {
    runId: context.store.record.id,
    stepId: step.id,
    attempt,
    adapter,
    ...extra,
    model,
    prompt,
    execType,
    workspace: place.workspace,
    ...(place.workdir !== undefined && place.workdir !== place.workspace ? { cwd: place.workdir } : {}),
    attemptDir,
    env,
    graceMs: runtime.graceMs,
    drainMs: runtime.drainMs,
    maxLineBytes: runtime.maxLineBytes,
    spawn: sandboxedSpawn(context, step, adapter, { attempt, workspace: place.workspace, git: place.git, attemptDir, env, persona: extra.persona }),
    ...(adapter.type === 'llm' && recordingPolicyOf(runtime).enabled ? { recordHttp: true } : {}),
    ...(traced ? { telemetry: attemptTelemetry(traced, { runId: context.store.record.id, stepId: step.id, attempt }) } : {}),
    ...(adapter.type === 'browser' ? { browser: browserAttempt(context, step, { attempt, workspace: place.workdir ?? place.workspace, attemptDir, persona: extra.persona }) } : {}),
  };
}
