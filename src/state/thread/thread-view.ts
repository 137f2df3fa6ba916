import { Document, isMap, isSeq } from 'yaml';
import { quotedBlock, safeLine, safeText } from '../../core/terminal-safe.js';
import { gateDecisionText, gateFailedText } from '../../report/gate-text.js';
import { routeStoppedText, routeVisitText } from '../../report/route-text.js';
import type { Round, RouteNote } from './thread-rounds.js';
import { isWalkRound, routeOf, type ThreadRound, type WalkRound } from './walk-rounds.js';

/** The structured fields of a round, as its YAML frontmatter and `wave thread --json` show them. */
export function roundFields(round: Round): Record<string, unknown> {
  const hasTokens = Object.values(round.tokens).some((n) => n > 0);
  return {
    ...(round.persona !== undefined ? { persona: round.persona } : {}),
    adapter: round.adapter,
    ...(round.model !== undefined ? { model: round.model } : {}),
    status: round.passed ? 'passed' : 'failed',
    exit_code: round.exitCode,
    ...(round.failure ? { failure: { class: round.failure.class, message: round.failure.message } } : {}),
    attempt: round.attempt,
    duration_ms: round.durationMs,
    ...(hasTokens ? { tokens: { input: round.tokens.input, output: round.tokens.output, cache_read: round.tokens.cacheRead, cache_write: round.tokens.cacheWrite } } : {}),
    ...(round.costUsd !== undefined ? { cost_usd: round.costUsd } : {}),
    ...(round.filesChanged.length
      ? { files_changed: round.filesChanged.map((f) => ({ path: f.path, change: f.change, ...(f.added !== undefined ? { added: f.added, removed: f.removed ?? 0 } : {}) })) }
      : {}),
    ...(round.contracts.length ? { contracts: round.contracts.map((c) => ({ contract: c.contract, passed: c.passed, ...(c.errors.length ? { errors: c.errors } : {}) })) } : {}),
    ...(round.output ? { output: round.output } : {}),
    ...(round.route ? { routed: routeFields(round.route) } : {}),
  };
}

/** A route's fields: where to, on what outcome and condition, the visit it begins there, and the steps that run again. */
function routeFields(route: RouteNote): Record<string, unknown> {
  return {
    to: route.target,
    outcome: route.outcome,
    ...(route.when !== undefined ? { when: route.when } : {}),
    ...(route.visit !== undefined ? { visit: route.visit } : {}),
    ...(route.requeued.length ? { again: route.requeued } : {}),
  };
}

/** A turn of the walk's fields: its kind, a gate's decision (the person's text is its body) or failure, the route it took. */
function walkFields(round: WalkRound): Record<string, unknown> {
  if (round.kind === 'route') return { kind: 'route', routed: routeFields(round.route) };
  if (round.kind === 'stop') return { kind: 'stop', failure: { class: round.failure.class, message: round.failure.message } };
  const { decision, failure, route } = round;
  const choice =
    decision?.key !== undefined ? { choice: { key: decision.key, label: decision.label ?? decision.key, ...(decision.target ? { target: decision.target } : {}) } } : {};
  return {
    kind: 'gate',
    gate: round.gate,
    status: decision ? 'resolved' : 'failed',
    ...(decision ? { resolved_by: decision.by, ...choice } : {}),
    ...(failure ? { failure: { class: failure.class, message: failure.message } } : {}),
    ...(route ? { routed: routeFields(route) } : {}),
  };
}

/** The fields of any round, as its frontmatter and `wave thread --json` show them. */
export function threadFields(round: ThreadRound): Record<string, unknown> {
  return isWalkRound(round) ? walkFields(round) : roundFields(round);
}

/** The untrusted text a round carries: an attempt's answer or output, a person's text on a gate ('' for the rest). */
export function roundBody(round: ThreadRound): string {
  if (!isWalkRound(round)) return round.body;
  return round.kind === 'gate' ? (round.decision?.text ?? '') : '';
}

/** Wave's own lines about the walk in a round: a gate's decision or failure, where the walk went from it, why it stopped. */
export function walkLines(round: ThreadRound): string[] {
  const lines: string[] = [];
  if (isWalkRound(round) && round.kind === 'gate') {
    if (round.decision) lines.push(gateDecisionText(round.stepId, round.decision, round.finishedAt));
    if (round.failure) lines.push(gateFailedText(round.stepId, round.failure));
  }
  if (isWalkRound(round) && round.kind === 'stop') lines.push(routeStoppedText(round.stepId, round.failure));
  const route = routeOf(round);
  if (route) lines.push(`routed from ${round.stepId} ${routeVisitText(route, route.visit)}`);
  // The step ids and labels come from the pipeline file; a person's text is cut to one line and escaped all the same.
  return lines.map(safeLine);
}

/** `[#<round> <step>] <ISO time>`: the header line of a round. */
export function roundHeader(number: number, round: ThreadRound): string {
  return `[#${number} ${round.stepId}] ${round.finishedAt}`;
}

/**
 * A round as text: its header, its fields as YAML frontmatter between `---` lines, then its body quoted line by line
 * (`> `), so no line of the step's output can pass for a header or a frontmatter line; Wave's lines about the walk
 * (a gate's decision, a route, a stop) and `note` come between the frontmatter and the body.
 */
export function renderRound(number: number, round: ThreadRound, body = roundBody(round), note?: string): string {
  const frontmatter = new Document(threadFields(round));
  // One line per token count, changed file or contract keeps a round short in an agent's budget.
  if (isMap(frontmatter.contents)) {
    for (const key of ['tokens', 'failure', 'routed', 'choice']) {
      const node = frontmatter.contents.get(key, true);
      if (isMap(node)) node.flow = true;
    }
    for (const key of ['files_changed', 'contracts']) {
      const list = frontmatter.contents.get(key, true);
      if (isSeq(list)) for (const item of list.items) if (isMap(item)) item.flow = true;
    }
  }
  // YAML quotes and indents what the step wrote; its control characters are shown escaped all the same.
  const fields = safeText(frontmatter.toString({ lineWidth: 0 }).trimEnd());
  const shown = body.trimEnd();
  return [roundHeader(number, round), '---', fields, '---', ...walkLines(round), ...(note ? [note] : []), ...(shown ? [quotedBlock(shown)] : [])].join('\n');
}
