import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WaveError } from '../core/errors/errors.js';
import { ioError } from '../io-error.js';
import { EVENT_VERSION, type RunEvent } from '../events.js';
import { writeFileAtomicSync } from './atomic-write.js';
import type { StepRecord } from './record/run-record.js';

/** The folder of a run where each step run elsewhere (one job of a compiled workflow) leaves its part. */
export const PARTS_DIR = 'parts';

/** One step's share of a run recorded in another process: its record and its events. */
export interface StepPart {
  step: StepRecord;
  events: RunEvent[];
}

/** Writes `parts/<stepId>.json` of the run folder: the step's record and the events that name it. */
export function writeStepPart(runDir: string, step: StepRecord, events: readonly RunEvent[]): string {
  const dir = join(runDir, PARTS_DIR);
  const file = join(dir, `${step.id}.json`);
  const part: StepPart = { step, events: events.filter((e) => 'stepId' in e && e.stepId === step.id) };
  try {
    mkdirSync(dir, { recursive: true });
    writeFileAtomicSync(file, `${JSON.stringify(part, null, 2)}\n`);
  } catch (cause) {
    throw ioError('write the step part', file, cause, 'run the step again');
  }
  return file;
}

/** Every part in the run folder, by step id; a folder without parts gives an empty map. */
export function readStepParts(runDir: string): Map<string, StepPart> {
  const dir = join(runDir, PARTS_DIR);
  const parts = new Map<string, StepPart>();
  if (!existsSync(dir)) return parts;
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const file = join(dir, name);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (cause) {
      throw new WaveError('io_error', `cannot read the step part ${file}: ${(cause as Error).message}`, {
        hint: 'Parts are written whole by `wave run --run-id`; download them again or re-run that step.',
        cause,
      });
    }
    if (!isStepPart(parsed) || `${parsed.step.id}.json` !== name) {
      throw new WaveError('io_error', `${file} is not the part of a Wave step`, { hint: 'Remove it, or replace it with the part its step job uploaded.' });
    }
    parts.set(parsed.step.id, parsed);
  }
  return parts;
}

function isStepPart(value: unknown): value is StepPart {
  if (value === null || typeof value !== 'object') return false;
  const { step, events } = value as Partial<StepPart>;
  return Array.isArray(events) && step !== null && typeof step === 'object' && typeof step.id === 'string' && typeof step.status === 'string';
}

const STEP_ENDS: ReadonlySet<RunEvent['type']> = new Set(['step_completed', 'step_failed', 'step_rejected', 'step_skipped', 'step_cancelled']);

/** The events a part brings: its own, and its step's end taken from its record when no event of its says how the step ended. */
export function eventsOfPart(part: StepPart, runId: string): RunEvent[] {
  if (part.events.some((e) => STEP_ENDS.has(e.type))) return part.events;
  const { step } = part;
  const base = { v: EVENT_VERSION, ts: step.finishedAt ?? step.startedAt ?? new Date().toISOString(), runId, stepId: step.id } as const;
  const attempt = Math.max(1, step.attempts.length);
  const durationMs = step.durationMs ?? 0;
  const ended: RunEvent | undefined =
    step.status === 'completed'
      ? { ...base, type: 'step_completed', attempt, durationMs, tokens: step.tokens, ...(step.costUsd !== undefined ? { costUsd: step.costUsd } : {}) }
      : step.status === 'failed' && step.failure
        ? { ...base, type: 'step_failed', attempt, durationMs, failure: step.failure, optional: step.optional }
        : step.status === 'rejected' && step.failure
          ? { ...base, type: 'step_rejected', attempt, durationMs, failure: step.failure, optional: step.optional }
          : step.status === 'skipped'
            ? { ...base, type: 'step_skipped', reason: step.skipReason ?? 'skipped in its own job' }
            : step.status === 'cancelled'
              ? { ...base, type: 'step_cancelled' }
              : undefined;
  return ended ? [...part.events, ended] : part.events;
}
