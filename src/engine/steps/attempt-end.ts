import type { AttemptStep } from '../../plan/plan-types.js';
import { isSafeSessionId } from '../../adapters/session.js';
import type { AdapterResult } from '../../adapters/types.js';
import type { Failure } from '../../core/errors/failure.js';
import { execTypeOf } from '../../plan/plan-types.js';
import { stepResult } from '../../state/record/step-result.js';
import { emit } from '../run/context.js';
import { jsonFields, roundText } from './round-text.js';
import type { StepRun } from './step-run.js';

/** Records an attempt's end: an attempt_finished event (a round of `wave thread`) with its result, tokens, cost and failure. */
export function recordAttemptEnd(run: StepRun<AttemptStep>, attempt: number, result: AdapterResult, judged: { output: string; failure?: Failure }): void {
  const { context, step } = run;
  const { failure } = judged;
  const finishedAt = new Date().toISOString();
  const { output: fields } = jsonFields(judged.output);
  const brief = stepResult(execTypeOf(step), result.text, fields);
  const { adapter, model } = context.store.record.steps[step.id]!.attempts.find((x) => x.attempt === attempt)!;
  emit(
    context,
    {
      type: 'attempt_finished',
      stepId: step.id,
      attempt,
      ...(step.persona ? { persona: step.persona.name } : {}),
      adapter,
      ...(model !== undefined ? { model } : {}),
      passed: failure === undefined,
      exitCode: result.exitCode,
      durationMs: result.durationMs,
      tokens: result.tokens,
      ...(result.costUsd !== undefined ? { costUsd: result.costUsd } : {}),
      ...(failure ? { failure } : {}),
      text: roundText(result.text),
      ...(fields ? { output: fields } : {}),
      ...(brief ? { result: brief } : {}),
      ...(isSafeSessionId(result.sessionId) ? { sessionId: result.sessionId } : {}),
    },
    finishedAt,
  ); // The round's time is the attempt's recorded end, to the millisecond.
}
