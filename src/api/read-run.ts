import { resolve } from 'node:path';
import type { RunEvent } from '../events.js';
import type { RunRecord } from '../state/record/run-record.js';
import { RunStore } from '../state/run-store.js';
import { findRunsRoot } from '../state/runs-root.js';

/** A recorded run: its record (run.json's fold of the events) and every event of events.ndjson. */
export interface RecordedRun {
  record: RunRecord;
  events: RunEvent[];
  /** The run folder. */
  dir: string;
}

/** Reads a run of the project in `dir` by id or unique prefix, as `wave status --json` and `wave logs` do; throws run_not_found. */
export function readRun(dir: string, runId: string, options: { manifest?: string } = {}): RecordedRun {
  const store = RunStore.open(findRunsRoot(resolve(dir), options.manifest), runId);
  return { record: store.record, events: store.readEvents(), dir: store.dir };
}
