import { isBuiltinManifest } from '../config/load/builtin-manifest.js';
import { failureOfError } from '../core/errors/failure.js';
import type { ChildRunRequest, ChildRuns } from '../engine/run/child-run-port.js';
import { childFailure } from '../state/record/child-failure.js';
import type { RunRecord } from '../state/record/run-record.js';
import type { RunOutcome } from './run-outcome.js';
import type { ChildRunBase, StartRunRequest } from './run-request.js';

/**
 * The child-run port app/ gives the engine: a child is `start` (startRun, passed in: it drives the parent) of another
 * pipeline of the same project and manifest, linked to its parent's run and step, sharing its bus, sandbox and
 * cancellation (and so its budget: engine/run/run-budget.ts), and recorded in the parent's step.
 */
export function childRunsOf(base: ChildRunBase, start: (request: StartRunRequest) => Promise<RunOutcome>): ChildRuns {
  return {
    async run(request) {
      const { stepId } = request;
      let child: RunRecord | undefined;
      const onRecorded = (record: RunRecord) => {
        child = record;
        base.emit({ type: 'child_run_started', stepId, childRunId: record.id, pipeline: record.pipeline });
      };
      try {
        const { record, dir } = await start(childRequest(base, request, onRecorded));
        // A driven run always ends in one of the three.
        const status = record.status as 'completed' | 'failed' | 'cancelled';
        const failure = status === 'completed' ? undefined : childFailure(record);
        const cost = record.costUsd !== undefined ? { costUsd: record.costUsd } : {};
        base.emit({ type: 'child_run_finished', stepId, childRunId: record.id, status, tokens: record.tokens, ...cost, ...(failure ? { failure } : {}) });
        return { status, record, dir, ...(failure ? { failure } : {}) };
      } catch (error) {
        // A child recorded and then unable to go on (its run folder full, say) is recorded failed before the step hears of it.
        if (child) base.emit({ type: 'child_run_finished', stepId, childRunId: child.id, status: 'failed', tokens: child.tokens, failure: failureOfError(error, 'internal') });
        throw error;
      }
    },
  };
}

/** The child's startRun request: the parent's project, manifest and policy; the parent's bus, sandbox and the step's signal. */
function childRequest(base: ChildRunBase, request: ChildRunRequest, onRecorded: (record: RunRecord) => void): StartRunRequest {
  const { plan } = base;
  const { stepId, kind, signal } = request;
  return {
    cwd: plan.projectRoot,
    manifest: isBuiltinManifest(plan.manifestFile) ? undefined : plan.manifestFile,
    pipeline: request.pipeline,
    readInput: () => request.input,
    onFailure: base.onFailure,
    keepWorkspaces: base.keepWorkspaces,
    output: 'quiet',
    err: base.err,
    parent: { runId: base.runId, stepId, kind, bus: base.bus, sandbox: base.sandbox, signal },
    onRecorded,
  };
}
