import type { Failure } from '../core/errors/failure.js';
import type { RunEvent } from '../events.js';
import type { GateRecord } from '../state/record/run-record.js';
import { describeFailure, oneLine } from './describe.js';
import { formatDuration } from './format.js';

type GateWaiting = Pick<Extract<RunEvent, { type: 'gate_waiting' }>, 'gate' | 'message' | 'choices' | 'defaultChoice' | 'timeoutMs' | 'polls'>;
type GateResolved = Omit<Extract<RunEvent, { type: 'gate_resolved' }>, 'type' | 'v' | 'ts' | 'runId' | 'stepId'>;

/** What a waiting gate waits for, and (for a person) how to answer it: `wave approve <run> <step> …`. */
export function gateWaitingText(gate: GateWaiting, runId: string, stepId: string): string {
  if (gate.polls !== undefined) return `waiting for ${gate.polls}${gate.message ? `: ${firstLine(gate.message)}` : ''}`;
  if (gate.gate === 'timer') return `waiting ${gate.timeoutMs !== undefined ? formatDuration(gate.timeoutMs) : ''} (timer gate)${gate.message ? `: ${gate.message}` : ''}`;
  const keys = (gate.choices ?? []).map((c) => `${c.key}${c.key === gate.defaultChoice ? '*' : ''} ${c.label}${c.target ? ` → ${c.target}` : ''}`);
  const limit = gate.timeoutMs !== undefined ? ` (after ${formatDuration(gate.timeoutMs)}: ${gate.defaultChoice ?? 'fail'})` : '';
  const answer = `wave approve ${runId} ${stepId}${keys.length ? ' --choice KEY' : ''} | wave reject ${runId} ${stepId}`;
  return `waiting for approval${gate.message ? `: ${firstLine(gate.message)}` : ''}${keys.length ? ` [${keys.join('; ')}]` : ''}${limit} — ${answer}`;
}

const BY: Record<GateResolved['by'], string> = {
  auto: 'by auto',
  auto_approve: 'by --auto-approve',
  simulate: 'by --simulate',
  environment: 'by the reviewers of the GitHub Environment',
  person: 'by a person',
  timeout: 'by its timeout (the default)',
  timer: 'its timer elapsed',
  forge: 'by the forge',
};

/** How a gate was resolved: by whom, with which choice, and the person's text. */
export function gateResolvedText(decision: GateResolved): string {
  return `gate ${resolution(decision)}`;
}

/** A gate's decision with its step and when, on one line: "gate `approve` resolved by a person y "Ship" → ship: looks good, at 2024-05-01T12:00:03.000Z". */
export function gateDecisionText(stepId: string, decision: GateResolved, at: string): string {
  return `gate \`${stepId}\` ${resolution(decision)}, at ${at}`;
}

/** Why a gate step failed: a rejection (a `_fail` choice), or a wait that ended without a decision. */
export function gateFailedText(stepId: string, failure: Failure): string {
  return `gate \`${stepId}\` failed: ${describeFailure(failure)}`;
}

/** `resolved by a person y "Ship" → ship: the first line of their text`. */
function resolution(decision: GateResolved): string {
  const choice = decision.key !== undefined ? ` ${decision.key} "${decision.label ?? decision.key}"${decision.target ? ` → ${decision.target}` : ''}` : '';
  const where = decision.environment !== undefined ? ` ${oneLine(decision.environment)}` : '';
  return `resolved ${BY[decision.by]}${where}${choice}${decision.text !== undefined ? `: ${firstLine(decision.text)}` : ''}`;
}

/** A gate as `wave status` shows it under its step: waiting (and how to answer), or its decision. */
export function gateStatusText(gate: GateRecord, runId: string, stepId: string): string {
  return gate.status === 'waiting' || !gate.decision ? gateWaitingText(gate, runId, stepId) : gateResolvedText(gate.decision);
}

/** The text's first line, made safe and cut as every one-line view does; ` …` says more lines follow. */
function firstLine(text: string): string {
  return /\n/.test(text.trim()) ? `${oneLine(text)} …` : oneLine(text);
}
