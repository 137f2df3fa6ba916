import { safeLine } from '../../core/terminal-safe.js';
import type { RunEvent } from '../../events.js';
import type { RunRecord, StepRecord } from '../../state/record/run-record.js';
import { routeOf, threadRoundsOf } from '../../state/thread/walk-rounds.js';
import type { RouteNote } from '../../state/thread/thread-rounds.js';
import { gateDecisionText, gateFailedText, gateWaitingText } from '../gate-text.js';
import { reworkText, routeStoppedText, routeVisitText, visitsText } from '../route-text.js';

/**
 * The job summary's section of the walk ('' when there is nothing to tell): per step, its gate's decision (by whom,
 * which choice, the person's text, when) or its wait, the routes it sent the walk on, how often it ran, its rework and
 * why the walk stopped there. Routes come from the run's events; without them, each step says which step last routed to it.
 */
export function walkMarkdown(record: RunRecord, events: readonly RunEvent[], row: (cells: string[]) => string): string {
  const routes = routesFrom(events);
  const rows = Object.values(record.steps).flatMap((step) => stepWalk(record.id, step, routes).map((text) => row([`\`${step.id}\``, code(text)])));
  if (rows.length === 0) return '';
  return ['### Gates and routes', '', row(['Step', 'What happened']), row(['---', '---']), ...rows].join('\n');
}

/** What the summary tells of one step's part in the walk, in the order it happened. */
function stepWalk(runId: string, step: StepRecord, routes: Map<string, RouteNote[]> | undefined): string[] {
  const lines: string[] = [];
  const gate = step.gate;
  if (gate?.status === 'waiting' || (gate && !gate.decision)) lines.push(`${gateWaitingText(gate, runId, step.id)} (since ${gate.since})`);
  else if (gate?.decision) lines.push(gateDecisionText(step.id, gate.decision, gate.decision.at));
  if (gate && step.status === 'failed' && step.failure && step.failure.class !== 'route_stopped') lines.push(gateFailedText(step.id, step.failure));
  for (const route of routes?.get(step.id) ?? []) lines.push(routeVisitText(route, route.visit));
  if (!routes && step.routedBy !== undefined) lines.push(`reached by a route from ${step.routedBy}`);
  const visits = visitsText(step.visits);
  if (visits) lines.push(visits);
  const rework = reworkText(step);
  if (rework) lines.push(rework);
  if (step.failure?.class === 'route_stopped') lines.push(routeStoppedText(step.id, step.failure));
  return lines;
}

/** Each step's routes in the order the walk took them; undefined without events (the record keeps only each step's last route to it). */
function routesFrom(events: readonly RunEvent[]): Map<string, RouteNote[]> | undefined {
  if (!events.length) return undefined;
  const routes = new Map<string, RouteNote[]>();
  for (const round of threadRoundsOf(events)) {
    const route = routeOf(round);
    if (route) routes.set(round.stepId, [...(routes.get(round.stepId) ?? []), route]);
  }
  return routes;
}

/** Text as inline code: Markdown and HTML inside it are shown, not read; the fence is longer than any backtick run in it. */
export function code(text: string): string {
  const line = safeLine(text);
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${line} ${fence}`;
}
