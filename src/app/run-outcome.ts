import type { Plan } from '../plan/plan-types.js';
import type { Redactor } from '../redact.js';
import type { RunRecord } from '../state/record/run-record.js';
import type { RunStore } from '../state/run-store.js';

/** How a run driven by startRun or resumeRun ended, and where it is recorded. */
export interface RunOutcome {
  /** 0, 1 (the run failed) or the stop signal's code (README, exit codes). */
  exitCode: number;
  plan: Plan;
  store: RunStore;
  /** run.json as the run left it. */
  record: RunRecord;
  /** The run folder. */
  dir: string;
  /** The run's redactor, for whatever the caller prints from the record. */
  redactor: Redactor;
}
