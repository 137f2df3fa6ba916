import * as core from '@actions/core';
import type { RunRecord } from '../state/record/run-record.js';

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

/** `rejected`: a step found nothing to do (on_failure: rejected), apart from a failure. */
export type Conclusion = 'success' | 'failure' | 'cancelled' | 'rejected';

/** The job's conclusion for a finished run's status. */
export function conclusionOf(record: RunRecord): Conclusion {
  if (record.status === 'completed') return 'success';
  if (record.status === 'rejected') return 'rejected';
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
  const named = namedOutputValues(record);
  set('outputs', JSON.stringify(named.values));
  if (named.leftOut.length)
    core.warning(
      `outputs: ${named.leftOut.map((n) => `\`${n}\``).join(', ')} left out of \`outputs\`, past ${NAMED_OUTPUTS_MAX_BYTES / 1024} KiB in all: read them from run.json in run-dir`,
    );
}

/** GitHub keeps 1 MiB of a job's outputs in all: the named outputs take at most half of it. */
export const NAMED_OUTPUTS_MAX_BYTES = 512 * 1024;

/**
 * The pipeline_outputs as `outputs` gives them: each name with its value. One without a value is left out (the run's
 * warnings say why), and so are those past NAMED_OUTPUTS_MAX_BYTES in all (`leftOut`).
 */
export function namedOutputValues(record: RunRecord): { values: Record<string, string>; leftOut: string[] } {
  const values: Record<string, string> = {};
  const leftOut: string[] = [];
  let bytes = 0;
  for (const [name, output] of Object.entries(record.outputs ?? {})) {
    if (output.value === undefined) continue;
    bytes += Buffer.byteLength(JSON.stringify(output.value)) + Buffer.byteLength(name);
    if (bytes > NAMED_OUTPUTS_MAX_BYTES) leftOut.push(name);
    else values[name] = output.value;
  }
  return { values, leftOut };
}
