import * as core from '@actions/core';
import type { RunRecord } from '../state/run-record.js';

/** The outputs action.yml declares, as the entry sets them (a test checks the two agree). */
export const ACTION_OUTPUTS = [
  'conclusion',
  'run-id',
  'run-dir',
  'input-tokens',
  'output-tokens',
  'cache-read-tokens',
  'cache-write-tokens',
  'cost-usd',
  'steps',
  'outputs',
] as const;

export type Conclusion = 'success' | 'failure' | 'cancelled';

/** The job's conclusion for a finished run's status. */
export function conclusionOf(record: RunRecord): Conclusion {
  if (record.status === 'completed') return 'success';
  return record.status === 'cancelled' ? 'cancelled' : 'failure';
}

/** Sets every output of a run that was recorded (conclusion aside, which the entry sets in every case). */
export function setRunOutputs(record: RunRecord, runDir: string): void {
  const set = (name: (typeof ACTION_OUTPUTS)[number], value: string) => core.setOutput(name, value);
  set('run-id', record.id);
  set('run-dir', runDir);
  set('input-tokens', String(record.tokens.input));
  set('output-tokens', String(record.tokens.output));
  set('cache-read-tokens', String(record.tokens.cacheRead));
  set('cache-write-tokens', String(record.tokens.cacheWrite));
  // Empty when the run is not priced: zero would claim it cost nothing.
  set('cost-usd', record.costUsd === undefined ? '' : String(record.costUsd));
  set(
    'steps',
    JSON.stringify(
      Object.values(record.steps).map((s) => ({
        id: s.id,
        status: s.status,
        durationMs: s.durationMs ?? null,
        tokens: s.tokens,
        costUsd: s.costUsd ?? null,
        failureClass: s.status === 'completed' ? null : (s.failure?.class ?? null),
      })),
    ),
  );
  // Pipelines cannot declare named outputs yet.
  set('outputs', '{}');
}
