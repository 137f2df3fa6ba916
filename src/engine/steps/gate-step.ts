import { FAIL_TARGET } from '../../config/schema/gate-schema.js';
import { SYSTEM_CLOCK } from '../../core/clock.js';
import type { Failure } from '../../core/errors/failure.js';
import type { GateResolver } from '../../events.js';
import type { GateChoice, GateStep } from '../../plan/plan-types.js';
import { readGateAnswer, removeGateAnswer } from '../../state/gate-answer.js';
import { reasonOf } from '../attempt/attempt.js';
import { emit } from '../run/context.js';
import { endChildStep } from './child-step-end.js';
import { forgeGateTarget, pollForge, type ForgeGateTarget } from './forge-gate.js';
import type { StepRun, StepRunner } from './step-run.js';

/** How often a waiting approval gate looks for a person's answer. */
const ANSWER_POLL_MS = 250;

/** How a gate was resolved: by whom, with which choice (none for a gate without choices) and text; or why it could not be. */
type GateDecision = { by: GateResolver; environment?: string; choice?: GateChoice; text?: string } | { failure: Failure };

/**
 * Wave's `gate`: the run waits at this step (under `wave run --simulate` no gate waits: each is approved at once).
 * A timer waits its `timeout`; an approval gate is resolved by its `auto`, by `wave run --auto-approve` or `--approved-in <environment>` (its default), by a person (`wave approve` / `wave reject` from any shell, read from the
 * run folder, so an answer given while the run was down is taken on resume), or by its timeout (its default; none:
 * the step fails). A choice whose target is `_fail`, or a rejection, fails the step; a choice with another target sends
 * the walk there (engine/run/step-router.ts: a target that already ran runs again, with the steps after it).
 */
export const runGateStep: StepRunner<GateStep> = async (run) => {
  const { context, step } = run;
  const started = Date.now();
  emit(context, { type: 'step_began', stepId: step.id });
  // A simulated run asks no forge and waits for no one: its gates are approved at once (simulatedDecision).
  const simulated = context.store.record.options.simulate === true && !step.auto;
  const target = step.poll && !step.auto && !simulated ? forgeGateTarget(context.plan, step, step.poll) : undefined;
  if (target && 'failure' in target) return endChildStep(run, started, { failure: target.failure });
  const choices = step.choices.map((c) => ({ ...c }));
  emit(context, {
    type: 'gate_waiting',
    stepId: step.id,
    gate: step.gateType,
    ...(step.message !== undefined ? { message: step.message } : {}),
    ...(choices.length ? { choices } : {}),
    ...(step.defaultChoice !== undefined ? { defaultChoice: step.defaultChoice } : {}),
    ...(step.freeform ? { freeform: true } : {}),
    ...(step.timeoutMs !== undefined ? { timeoutMs: step.timeoutMs } : {}),
    ...(target ? { polls: target.polls } : {}),
  });
  const decision = simulated ? simulatedDecision(step) : step.gateType === 'timer' ? await waitTimer(run) : target ? await askForge(run, target) : await decideApproval(run);
  if ('failure' in decision) return endChildStep(run, started, { failure: decision.failure });
  const { by, environment, choice, text } = decision;
  const resolved = {
    ...(environment !== undefined ? { environment } : {}),
    ...(choice ? { key: choice.key, label: choice.label, ...(choice.target !== undefined ? { target: choice.target } : {}) } : {}),
    ...(text !== undefined ? { text } : {}),
  };
  emit(context, { type: 'gate_resolved', stepId: step.id, by, ...resolved });
  removeGateAnswer(context.store.dir, step.id);
  const refused = refusal(run, choice);
  if (refused) return endChildStep(run, started, { failure: refused });
  // The scheduler's router takes the walk to the target, running it again (and what follows it) when it already ran.
  const route = choice?.target !== undefined ? { route: choice.target } : {};
  return { ...endChildStep(run, started, { output: choice?.key ?? '' }), ...route };
};

/** `wave run --simulate`: any gate is approved at once, with its default choice, else its first that does not fail the run. */
function simulatedDecision(step: GateStep): GateDecision {
  return { by: 'simulate', ...optional(defaultOf(step, false) ?? step.choices.find((c) => c.target !== FAIL_TARGET)) };
}

async function askForge(run: StepRun<GateStep>, target: ForgeGateTarget): Promise<GateDecision> {
  const answer = await pollForge(run, target);
  return 'failure' in answer ? answer : { by: 'forge', text: answer.passed };
}

async function waitTimer(run: StepRun<GateStep>): Promise<GateDecision> {
  const clock = run.context.clock ?? SYSTEM_CLOCK;
  if (!(await clock.sleep(run.step.timeoutMs ?? 0, run.signal))) return { failure: reasonOf(run.signal) };
  return { by: 'timer' };
}

/** The default choice, else (for `auto`) the first; none for a gate without choices. */
function defaultOf(step: GateStep, orFirst: boolean): GateChoice | undefined {
  return step.choices.find((c) => c.key === step.defaultChoice) ?? (orFirst ? step.choices[0] : undefined);
}

async function decideApproval(run: StepRun<GateStep>): Promise<GateDecision> {
  const { context, step, signal } = run;
  if (step.auto) return { by: 'auto', ...optional(defaultOf(step, true)) };
  const { autoApprove, approvedIn } = context.store.record.options;
  if (autoApprove || approvedIn !== undefined) {
    const choice = defaultOf(step, false);
    const flag = approvedIn !== undefined ? '--approved-in' : '--auto-approve';
    if (step.choices.length && !choice) return { failure: { class: 'gate_rejected', message: `${flag} takes a gate's default choice, and gate \`${step.id}\` has none` } };
    return approvedIn !== undefined ? { by: 'environment', environment: approvedIn, ...optional(choice) } : { by: 'auto_approve', ...optional(choice) };
  }
  const clock = context.clock ?? SYSTEM_CLOCK;
  const deadline = step.timeoutMs !== undefined ? clock.now() + step.timeoutMs : Infinity;
  for (;;) {
    const answer = readGateAnswer(context.store.dir, step.id);
    if (answer) return answered(step, answer);
    if (clock.now() >= deadline) {
      const choice = defaultOf(step, false);
      if (choice) return { by: 'timeout', choice };
      return { failure: { class: 'timeout', message: `no one resolved gate \`${step.id}\` within ${step.timeoutMs! / 1000} s, and it has no default choice` } };
    }
    if (!(await clock.sleep(Math.min(ANSWER_POLL_MS, deadline - clock.now()), signal))) return { failure: reasonOf(signal) };
  }
}

function optional(choice: GateChoice | undefined): { choice?: GateChoice } {
  return choice ? { choice } : {};
}

/** A person's answer as a decision: their choice (a rejection takes the `_fail` choice when there is one). */
function answered(step: GateStep, answer: { key?: string; reject?: boolean; text?: string }): GateDecision {
  const text = answer.text !== undefined ? { text: answer.text } : {};
  if (answer.reject) return { by: 'person', ...optional(step.choices.find((c) => c.target === FAIL_TARGET) ?? { key: 'reject', label: 'Rejected', target: FAIL_TARGET }), ...text };
  const choice = answer.key !== undefined ? step.choices.find((c) => c.key === answer.key) : defaultOf(step, false);
  if (answer.key !== undefined && !choice) return { failure: { class: 'gate_rejected', message: `the answer to gate \`${step.id}\` names no choice of it: \`${answer.key}\`` } };
  return { by: 'person', ...optional(choice), ...text };
}

/** Why the decision stops the run here: a `_fail` target. */
function refusal(run: StepRun<GateStep>, choice: GateChoice | undefined): Failure | undefined {
  if (choice?.target !== FAIL_TARGET) return undefined;
  return { class: 'gate_rejected', message: `gate \`${run.step.id}\` was answered "${choice.label}", which fails the run` };
}
