import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AskModel } from '../../contracts/types.js';
import type { AttemptStep } from '../../plan/plan-types.js';
import { adapterConfig, type StepPlace } from './adapter-config.js';
import { attemptPortOf } from './port-of.js';
import { emit, type RunContext } from '../run/context.js';
import { modelOn, tierHint } from '../../core/models/model-tiers.js';

/**
 * A model caller for a step's judge, extract and review requests: the named adapter, else the step's own. Each call
 * runs under the step's time limits (or the request's timeout) and its signal, writes its stdout and stderr under the
 * attempt folder (`<purpose>-<n>/`), and adds its tokens to the step's.
 */
export function modelAsker(context: RunContext, step: AttemptStep, attempt: number, place: StepPlace, signal: AbortSignal): AskModel {
  let calls = 0;
  return async ({ adapter, model, prompt, purpose, persona, timeoutMs }) => {
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
    const asked = chosen ? chosen.model : adapter ? adapter.model : step.model;
    const extra = persona ? { extra: { persona } } : {};
    const config = adapterConfig(context, step, { attempt, adapter: target, model: asked, prompt, execType: 'prompt', attemptDir, place, ...extra });
    const limits = { timeoutMs: timeoutMs ?? step.timeoutMs, stallMs: context.plan.runtime.stallMs };
    const runner = context.registry.resolve(target.type);
    const result = await attemptPortOf(context).run({ purpose, runner, config, limits, signal, onEvent: () => {} });
    const cost = result.costUsd !== undefined ? { costUsd: result.costUsd } : {};
    const named = asked !== undefined ? { model: asked } : {};
    emit(context, { type: 'model_request', stepId: step.id, attempt, purpose, adapter: target.name, ...named, ok: result.ok, tokens: result.tokens, ...cost });
    if (!result.ok) return { ok: false, message: `${target.name}: ${result.failure?.message ?? `exit code ${result.exitCode}`}` };
    return { ok: true, text: result.text, tokens: result.tokens.input + result.tokens.output };
  };
}
