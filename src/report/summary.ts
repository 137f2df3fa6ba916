import { reworkOfText, visitsText } from './route-text.js';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { RunRecord, StepRecord } from '../state/record/run-record.js';
import { painter, type Paint } from './color.js';
import { STATUS_MARK, describeFailure, failureDetail, oneLine } from './describe.js';
import { outcomeSummaryLines, outputSummaryLines } from './deliverables.js';
import { listFileChanges } from './file-changes.js';
import { resultSummaryLines } from './step-results.js';
import { formatCost, formatDuration, formatTokens } from './format.js';
import { hasTokens } from '../core/models/tokens.js';
import { safeValues } from './safe-values.js';
import { gateStatusText } from './gate-text.js';
import { loopStatusText } from './loop-text.js';
import { simulatedRunText } from './simulated-text.js';
import { replayedRunText } from './replayed-text.js';

/** The most lines of a failed step's stderr the summary shows under it. */
const FAILURE_LINES = 5;

export interface SummaryOptions {
  color?: boolean;
  /** Artifact and folder paths are shown relative to this folder when inside it (default process.cwd()). */
  cwd?: string;
  /** For a run still going: the clock its elapsed time is measured against. */
  now?: number;
  /** How a failed run is finished, when not by `wave resume`: a compiled workflow's says to re-run its failed jobs. */
  rerun?: string;
}

/** The end-of-run summary: one block per step (status, duration, tokens, cost, its result in brief, artifacts, changed files), then the run. */
export function formatSummary(untrusted: RunRecord, runDir: string, options: SummaryOptions = {}): string {
  const record = safeValues(untrusted);
  const paint = painter(options.color ?? false);
  const cwd = options.cwd ?? process.cwd();
  const steps = Object.values(record.steps);
  const idWidth = Math.max(0, ...steps.map((s) => s.id.length));
  const statusWidth = Math.max(0, ...steps.map((s) => s.status.length));
  const lines: string[] = [];
  for (const step of steps) {
    lines.push(`  ${stepLine(step, idWidth, statusWidth, paint, options.now)}`);
    // Why it failed, where a person looks: the end of its stderr (a command's) and the hint, under its line.
    if (step.failure && step.status !== 'completed')
      lines.push(
        ...failureDetail(step.failure, FAILURE_LINES)
          .slice(1)
          .map((line) => `      ${paint('gray', line)}`),
      );
    // Its child runs by id, so `wave status <id>` reaches each.
    for (const child of step.children ?? [])
      lines.push(`      ${paint('gray', '↳')} child run ${child.runId} (${child.pipeline}) ${paint(STATUS_MARK[child.status].color, child.status)}`);
    if (step.loop) lines.push(`      ${paint('gray', '↻')} ${loopStatusText(step.loop)}`);
    if (step.gate) lines.push(`      ${paint(step.gate.status === 'waiting' ? 'yellow' : 'gray', '⏸')} ${gateStatusText(step.gate, record.id, step.id)}`);
    lines.push(...resultSummaryLines(record, step, runDir, paint, (path) => displayPath(path, cwd)));
    for (const artifact of step.artifacts) lines.push(`      ${paint('gray', '→')} ${displayPath(join(runDir, artifact.path), cwd)}`);
    lines.push(...outcomeSummaryLines(step, paint, (path) => displayPath(path, cwd)));
    for (const line of listFileChanges(step.filesChanged ?? [])) lines.push(`      ${line}`);
  }
  if (lines.length > 0) lines.push('');
  lines.push(...outputSummaryLines(record, paint, (path) => displayPath(join(runDir, path), cwd)));
  lines.push(formatStatusLine(record, { color: options.color, now: options.now }));
  // A run stopped by something above its steps (its budget) says so; each step's own failure is on its line.
  if (record.failure) lines.push(...failureDetail(record.failure).map((line, i) => `  ${i === 0 ? paint('red', line) : line}`));
  lines.push(`  run folder: ${displayPath(runDir, cwd)}`);
  if (record.status === 'rejected')
    lines.push(`  ${paint('yellow', 'rejected')}: a step found nothing to do (not a failure); ${paint('bold', `wave resume --force ${record.id}`)} runs it again`);
  if (record.status === 'failed' || record.status === 'cancelled') {
    lines.push(options.rerun ? `  run it again: ${options.rerun}` : `  resume with: ${paint('bold', `wave resume ${record.id}`)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The run in one line: mark, id, status, duration, tokens, cost (what `--output quiet` prints). */
export function formatStatusLine(record: RunRecord, options: Pick<SummaryOptions, 'color' | 'now'> = {}): string {
  const paint = painter(options.color ?? false);
  const mark = STATUS_MARK[record.status];
  const duration = durationPhrase(record, options.now);
  const parts = [`${paint(mark.color, mark.symbol)} run ${record.id} ${paint(mark.color, record.status)}${duration ? ` ${duration}` : ''}`];
  if (hasTokens(record.tokens)) parts.push(formatTokens(record.tokens));
  if (record.costUsd !== undefined) parts.push(formatCost(record.costUsd));
  const simulated = simulatedRunText(record);
  if (simulated) parts.push(paint('cyan', simulated));
  const replayed = replayedRunText(record);
  if (replayed) parts.push(paint('cyan', replayed));
  return parts.join(' · ');
}

function stepLine(step: StepRecord, idWidth: number, statusWidth: number, paint: Paint, now?: number): string {
  const mark = STATUS_MARK[step.status];
  const cells = [`${paint(mark.color, mark.symbol)} ${step.id.padEnd(idWidth)}  ${paint(mark.color, step.status.padEnd(statusWidth))}`];
  const duration = step.durationMs ?? (step.status === 'running' && step.startedAt ? elapsedSince(step.startedAt, now) : undefined);
  cells.push((duration === undefined ? '' : formatDuration(duration)).padStart(6));
  if (hasTokens(step.tokens)) cells.push(formatTokens(step.tokens));
  if (step.costUsd !== undefined) cells.push(formatCost(step.costUsd));
  if (step.attempts.length > 1) cells.push(`${step.attempts.length} attempts`);
  const visits = visitsText(step.visits);
  if (visits) cells.push(visits);
  if (step.egressDenied) cells.push(paint('yellow', `${step.egressDenied} egress denied`));
  if (step.simulated) cells.push(paint('cyan', 'simulated'));
  if (step.replayed) cells.push(paint('cyan', 'replayed'));
  // Its first line; the rest (a command's stderr) goes under the step.
  if (step.failure && step.status !== 'completed') cells.push(paint('red', failureDetail(step.failure)[0]!));
  if (step.skipReason) cells.push(paint('gray', oneLine(step.skipReason)));
  const rework = reworkCell(step);
  if (rework) cells.push(paint('yellow', rework));
  return cells.join('  ').trimEnd();
}

/** A step's part in a rework: fixed by its rework step (or being fixed), or the rework step fixing another's work. */
function reworkCell(step: StepRecord): string | undefined {
  if (step.rework) {
    const { target, rounds } = step.rework;
    return step.status === 'reworking' ? `reworking: ${target} fixing it (round ${rounds})` : `reworked by ${target}${rounds > 1 ? ` in ${rounds} rounds` : ''}`;
  }
  return reworkOfText(step);
}

/** Why a run did not complete, in one line: its own failure, else its first failed step's (`build: non_zero_exit: …`). */
export function failureCause(record: RunRecord): string | undefined {
  if (record.status === 'completed') return undefined;
  if (record.failure) return describeFailure(record.failure);
  const step = Object.values(record.steps).find((s) => s.status === 'failed' && s.failure) ?? Object.values(record.steps).find((s) => s.failure && s.status !== 'completed');
  return step?.failure ? `${step.id}: ${describeFailure(step.failure)}` : undefined;
}

function durationPhrase(record: RunRecord, now?: number): string {
  if (record.durationMs !== undefined) return `in ${formatDuration(record.durationMs)}`;
  if (record.status === 'running' || record.status === 'pending') return `for ${formatDuration(elapsedSince(record.startedAt, now))}`;
  return '';
}

function elapsedSince(iso: string, now = Date.now()): number {
  const start = Date.parse(iso);
  return Number.isNaN(start) ? 0 : Math.max(0, now - start);
}

/** A path relative to cwd when it lies inside it, else absolute. */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel) ? rel : path;
}
