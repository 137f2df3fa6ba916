import type { Failure } from '../core/errors/failure.js';
import type { RunEvent } from '../events.js';
import type { StepRecord } from '../state/record/run-record.js';
import { describeFailure } from './describe.js';

/** The parts of a step_routed event that say where the walk went. */
type Route = Pick<Extract<RunEvent, { type: 'step_routed' }>, 'target' | 'outcome' | 'when' | 'requeued'>;

/** Where the walk went from a step, on what, and which steps run again: `→ fix (outcome=failure); again: fix, test, check`. */
export function routeText(event: Extract<RunEvent, { type: 'step_routed' }>): string {
  return routeVisitText(event);
}

/** A route with the visit it begins at its target, when known: `→ fix (outcome=failure), outcome failure, visit 2; again: fix, test`. */
export function routeVisitText(route: Route, visit?: number): string {
  const when = route.when ? ` (${route.when})` : '';
  const again = route.requeued.length ? `; again: ${route.requeued.join(', ')}` : '';
  return `→ ${route.target}${when}, outcome ${route.outcome}${visit !== undefined ? `, visit ${visit}` : ''}${again}`;
}

/** `visited 3×`: a step the walk ran more than once; undefined for one run once or never. */
export function visitsText(visits: number | undefined): string | undefined {
  return (visits ?? 0) > 1 ? `visited ${visits}×` : undefined;
}

/** Why the walk stopped at a step (its visit limit, the circuit breaker, no edge matched): `walk stopped at test: route_stopped: …`. */
export function routeStoppedText(stepId: string, failure: Failure): string {
  return `walk stopped at ${stepId}: ${describeFailure(failure)}`;
}

/** A step's part in a rework, with the failure that asked for it: `reworked by fix in 2 rounds after: …`, or `rework of impl`. */
export function reworkText(step: Pick<StepRecord, 'rework' | 'attempts' | 'status'>): string | undefined {
  if (step.rework) {
    const { target, rounds, failure } = step.rework;
    const by = step.status === 'reworking' ? `being reworked by ${target}` : `reworked by ${target}`;
    return `${by}${rounds > 1 ? ` in ${rounds} rounds` : ''} after: ${describeFailure(failure)}`;
  }
  return reworkOfText(step);
}

/** A rework step's part: `rework of impl, test` (the steps whose work its attempts fixed); undefined for another step. */
export function reworkOfText(step: Pick<StepRecord, 'attempts'>): string | undefined {
  const of = [...new Set(step.attempts.flatMap((a) => (a.reworkOf !== undefined ? [a.reworkOf] : [])))];
  return of.length ? `rework of ${of.join(', ')}` : undefined;
}
