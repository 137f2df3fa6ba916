import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StepRecord } from '../../state/record/run-record.js';

/** The artifact type whose `key=value` lines a step publishes for `context.<key>=<value>` edge conditions. */
export const CONTEXT_ARTIFACT_TYPE = 'context';

/**
 * What a step published for its edges' `context.<key>=<value>` conditions: `exit_code` (its last attempt's, for a step
 * that runs a process) and the `key=value` lines of its output artifacts of `type: context` (blank and `#` lines skipped).
 */
export function stepContextValues(runDir: string, step: StepRecord): Map<string, string> {
  const values = new Map<string, string>();
  const exitCode = step.attempts.at(-1)?.exitCode;
  if (typeof exitCode === 'number') values.set('exit_code', String(exitCode));
  for (const artifact of step.artifacts.filter((a) => a.type === CONTEXT_ARTIFACT_TYPE)) {
    let text: string;
    try {
      text = readFileSync(join(runDir, artifact.path), 'utf8');
    } catch {
      // A stored artifact that cannot be read publishes nothing; its step's record says it was saved.
      continue;
    }
    for (const line of text.split('\n')) {
      const eq = line.indexOf('=');
      const key = line.slice(0, eq).trim();
      if (eq > 0 && key && !key.startsWith('#')) values.set(key, line.slice(eq + 1).trim());
    }
  }
  return values;
}
