import type { Failure } from '../../core/errors/failure.js';
import type { GateKind, GateResolver, RunEvent } from '../../events.js';
import { applyEvent, createdRecord } from '../record/apply-event.js';
import type { RunRecord } from '../record/run-record.js';
import { roundsOf, type Round, type RouteNote } from './thread-rounds.js';

/** A gate's decision as a round of its own (a gate step has no attempts), or why it ended without one. */
export interface GateRound {
  kind: 'gate';
  stepId: string;
  /** When it was resolved, or failed. */
  finishedAt: string;
  gate: GateKind;
  decision?: { by: GateResolver; key?: string; label?: string; text?: string; target?: string };
  /** Why the step failed: a rejection (a `_fail` choice), or a wait that ended without a decision. */
  failure?: Failure;
  route?: RouteNote;
}

/** A route from a step with no round in its visit (a child pipeline, a loop, a conditional). */
export interface RouteRound {
  kind: 'route';
  stepId: string;
  finishedAt: string;
  route: RouteNote;
}

/** A step the walk may not run again: its visit limit, the run's, the circuit breaker, or no edge matched (route_stopped). */
export interface StopRound {
  kind: 'stop';
  stepId: string;
  finishedAt: string;
  failure: Failure;
}

/** A turn of the walk that is no step attempt. */
export type WalkRound = GateRound | RouteRound | StopRound;

/** What `wave thread` pages through: step attempts, and the walk's gates, routes and stops. */
export type ThreadRound = Round | WalkRound;

/** Whether a round is a turn of the walk rather than a step attempt. */
export function isWalkRound(round: ThreadRound): round is WalkRound {
  return 'kind' in round;
}

/** Where the walk went from a round's step, when it is told there. */
export function routeOf(round: ThreadRound): RouteNote | undefined {
  return isWalkRound(round) && round.kind === 'stop' ? undefined : round.route;
}

/**
 * The run's rounds as `wave thread` shows them, in the order they ended: the completed attempts (roundsOf), each gate's
 * decision, and the walk's stops; a route is told in the round of its step's visit, or in a round of its own when that
 * visit has none. The record is folded alongside to know the visit a route begins at its target.
 */
export function threadRoundsOf(events: readonly RunEvent[]): ThreadRound[] {
  const attempts = roundsOf(events);
  let next = 0;
  const rounds: ThreadRound[] = [];
  // Each step's round of its current visit, which a route from it joins.
  const ofVisit = new Map<string, Round | GateRound>();
  const gates = new Map<string, GateKind>();
  let record: RunRecord | undefined;
  for (const event of events) {
    switch (event.type) {
      case 'step_began':
        ofVisit.delete(event.stepId);
        break;
      case 'attempt_finished':
        rounds.push(attempts[next]!);
        ofVisit.set(event.stepId, attempts[next++]!);
        break;
      case 'gate_waiting':
        gates.set(event.stepId, event.gate);
        break;
      case 'gate_resolved': {
        const { type: _type, v: _v, ts, runId: _runId, stepId, ...decision } = event;
        const round: GateRound = { kind: 'gate', stepId, finishedAt: ts, gate: gates.get(stepId) ?? 'approval', decision };
        rounds.push(round);
        ofVisit.set(stepId, round);
        break;
      }
      case 'step_failed':
        rounds.push(...failedRound(event, ofVisit.get(event.stepId), gates.get(event.stepId)));
        break;
      case 'step_routed': {
        const route = routeNote(event, record);
        const own = ofVisit.get(event.stepId);
        if (own) own.route = route;
        else rounds.push({ kind: 'route', stepId: event.stepId, finishedAt: event.ts, route });
        break;
      }
      default:
        break;
    }
    record = event.type === 'run_created' ? createdRecord(event) : record && applyEvent(record, event);
  }
  return rounds;
}

/** The round a failed step adds: a stop of the walk, a gate that ended without a decision; a rejection joins its decision's round. */
function failedRound(event: Extract<RunEvent, { type: 'step_failed' }>, own: Round | GateRound | undefined, gate: GateKind | undefined): WalkRound[] {
  const { stepId, ts, failure } = event;
  if (failure.class === 'route_stopped') return [{ kind: 'stop', stepId, finishedAt: ts, failure }];
  if (gate === undefined) return [];
  if (own && 'kind' in own) {
    own.failure = failure;
    return [];
  }
  return [{ kind: 'gate', stepId, finishedAt: ts, gate, failure }];
}

/** The route of a step_routed event, with the visit it begins at its target (the target's visits so far, plus this one). */
function routeNote(event: Extract<RunEvent, { type: 'step_routed' }>, record: RunRecord | undefined): RouteNote {
  const target = record?.steps[event.target];
  return {
    target: event.target,
    outcome: event.outcome,
    ...(event.when !== undefined ? { when: event.when } : {}),
    requeued: event.requeued,
    ...(target ? { visit: (target.visits ?? 0) + 1 } : {}),
  };
}
