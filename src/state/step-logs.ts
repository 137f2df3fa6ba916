import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from './record/run-record.js';

export type LogStream = 'stdout' | 'stderr';

/** The attempt numbers of a step: those run.json records and those with a folder on disk, ascending. */
export function attemptsOf(runDir: string, record: RunRecord, stepId: string): number[] {
  const numbers = new Set((record.steps[stepId]?.attempts ?? []).map((a) => a.attempt));
  try {
    for (const name of readdirSync(join(runDir, 'steps', stepId))) {
      const match = /^attempt-(\d+)$/.exec(name);
      if (match) numbers.add(Number(match[1]));
    }
  } catch {
    // No folder yet: the step has not started.
  }
  return [...numbers].sort((a, b) => a - b);
}

/** Where the process layer stores one attempt's stdout or stderr. */
export function attemptLogPath(runDir: string, stepId: string, attempt: number, stream: LogStream): string {
  return join(runDir, 'steps', stepId, `attempt-${attempt}`, stream);
}
