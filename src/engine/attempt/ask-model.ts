import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildCuratedEnv } from '../../process/environment.js';
import type { ResolvedAdapter } from '../../core/resolved-adapter.js';
import type { AskModel } from '../../contracts/types.js';
import type { PlannedStep } from '../../plan/plan-types.js';
import { runAttempt } from './attempt.js';
import { emit, type RunContext } from '../run/context.js';
import { sandboxedSpawn } from './sandboxed-spawn.js';
import { WAVE_COMMAND_DIR } from '../steps/wave-command.js';
import { modelOn, tierHint } from '../../core/model-tiers.js';
import type { PreparedStep } from '../workspace/step-files.js';

/** Where a step's attempts run: its workspace, and the variables naming the dependency artifacts placed there. */
type StepPlace = Pick<PreparedStep, 'workspace' | 'dependencyEnv' | 'git'>;

/** The curated environment of one attempt of `step` on `adapter`. */
export function attemptEnv(context: RunContext, step: PlannedStep, adapter: ResolvedAdapter, place: StepPlace): Record<string, string> {
  return buildCuratedEnv({
    parent: context.parentEnv,
    passthrough: context.plan.runtime.envPassthrough,
    stepEnv: { ...adapter.env, ...step.env },
    waveEnv: place.dependencyEnv,
    runId: context.store.record.id,
    stepId: step.id,
    workspace: place.workspace,
    runDir: context.store.dir,
    commandDir: join(context.store.dir, WAVE_COMMAND_DIR),
  });
}

/**
 * A model caller for a step's judge and extract requests: the named adapter, else the step's own. Each call runs
 * under the step's time limits, writes its stdout and stderr under the attempt folder (`<purpose>-<n>/`), and adds
 * its tokens to the step's.
 */
export function modelAsker(context: RunContext, step: PlannedStep, attempt: number, place: StepPlace, signal: AbortSignal): AskModel {
  const { workspace } = place;
  let calls = 0;
  return async ({ adapter, model, prompt, purpose }) => {
    const target = adapter ?? step.adapter;
    if (step.kind === 'command' && !adapter) {
      return { ok: false, message: `step \`${step.id}\` is a command, so there is no model to ask for its ${purpose}: name an adapter (or set the manifest's extract.adapter)` };
    }
    // A judge's or extract's `model` may be a tier: resolved on the adapter that answers, never passed on as a name.
    const chosen = model !== undefined ? modelOn(model, target) : undefined;
    if (chosen && 'unmapped' in chosen)
      return {
        ok: false,
        message: `the ${purpose} model tier \`${chosen.unmapped}\` is not mapped on adapter \`${target.name}\`: ${tierHint(chosen.unmapped, target.name, target.type)}`,
      };
    const attemptDir = join(context.store.attemptDir(step.id, attempt), `${purpose}-${++calls}`);
    mkdirSync(attemptDir, { recursive: true });
    const runner = context.registry.resolve(target.type);
    const env = attemptEnv(context, step, target, place);
    const asked = chosen ? chosen.model : adapter ? adapter.model : step.model;
    const result = await runAttempt(
      runner,
      {
        runId: context.store.record.id,
        stepId: step.id,
        attempt,
        adapter: target,
        model: asked,
        prompt,
        execType: 'prompt',
        workspace,
        attemptDir,
        env,
        spawn: sandboxedSpawn(context, step, target, { attempt, workspace, git: place.git, attemptDir, env }),
        graceMs: context.plan.runtime.graceMs,
        drainMs: context.plan.runtime.drainMs,
        maxLineBytes: context.plan.runtime.maxLineBytes,
      },
      { timeoutMs: step.timeoutMs, stallMs: context.plan.runtime.stallMs },
      signal,
      () => {},
    );
    const cost = result.costUsd !== undefined ? { costUsd: result.costUsd } : {};
    const named = asked !== undefined ? { model: asked } : {};
    emit(context, { type: 'model_request', stepId: step.id, attempt, purpose, adapter: target.name, ...named, ok: result.ok, tokens: result.tokens, ...cost });
    if (!result.ok) return { ok: false, message: `${target.name}: ${result.failure?.message ?? `exit code ${result.exitCode}`}` };
    return { ok: true, text: result.text };
  };
}
