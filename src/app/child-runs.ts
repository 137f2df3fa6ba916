import { handedPlanOptions } from '../plan/plan.js';
import { isBuiltinManifest } from '../config/load/builtin-manifest.js';
import { WaveError } from '../core/errors/errors.js';
import { failureOfError } from '../core/errors/failure.js';
import type { ChildResumeRequest, ChildRunOutcome, ChildRunRequest, ChildRuns } from '../engine/run/child-run-port.js';
import { childFailure } from '../state/record/child-failure.js';
import type { RunRecord } from '../state/record/run-record.js';
import { simulatedAttempts } from '../state/record/simulated-count.js';
import type { RunOutcome } from './run-outcome.js';
import type { ChildRunBase, ParentRun, ResumeRunRequest, StartRunRequest } from './run-request.js';
import { simulateOptionsOf } from './simulate-options.js';
import { childReplayOptions } from './replay-options.js';
import { replayCounts } from '../state/record/replayed-count.js';

/** How deep child runs may nest (a run a person starts is at 0): a chain a template name makes at run time stops here. */
export const MAX_CHILD_DEPTH = 8;

/** How a child run is started and resumed: startRun and resumeRun, passed in (they drive the parent). */
export interface ChildRunStarters {
  start: (request: StartRunRequest) => Promise<RunOutcome>;
  resume: (request: ResumeRunRequest) => Promise<RunOutcome>;
}

/**
 * The child-run port app/ gives the engine: a child is another pipeline of the same project and manifest, linked to
 * its parent's run and step, sharing its bus, sandbox and cancellation (and so its budget: engine/run/run-budget.ts),
 * and recorded in the parent's step.
 */
export function childRunsOf(base: ChildRunBase, starters: ChildRunStarters): ChildRuns {
  const depth = base.depth + 1;
  // How many children each step (and item) started so far: a replayed child replays the recorded child of the same turn.
  const started = new Map<string, number>();
  const replayOf = (request: ChildRunRequest) => {
    const turn = `${request.stepId}\0${request.item ?? ''}`;
    const nth = started.get(turn) ?? 0;
    started.set(turn, nth + 1);
    return childReplayOptions(base, request.stepId, request.item, nth);
  };
  /** Runs `drive` (a start or a resume of the child) with the parent step's record of it around. */
  async function recorded(stepId: string, item: number | undefined, drive: (onRecorded: (record: RunRecord) => void) => Promise<RunOutcome>): Promise<ChildRunOutcome> {
    let child: RunRecord | undefined;
    const onRecorded = (record: RunRecord) => {
      child = record;
      base.emit({ type: 'child_run_started', stepId, childRunId: record.id, pipeline: record.pipeline, ...(item !== undefined ? { item } : {}) });
    };
    try {
      const { record, dir } = await drive(onRecorded);
      // A driven run always ends in one of these.
      const status = record.status as 'completed' | 'failed' | 'cancelled' | 'rejected';
      const failure = status === 'completed' ? undefined : childFailure(record);
      const cost = record.costUsd !== undefined ? { costUsd: record.costUsd } : {};
      const simulated = simulatedAttempts(record);
      const replayed = replayCounts(record)?.replayed;
      const counts = { ...cost, ...(simulated ? { simulated } : {}), ...(replayed ? { replayed } : {}) };
      base.emit({ type: 'child_run_finished', stepId, childRunId: record.id, status, tokens: record.tokens, ...counts, ...(failure ? { failure } : {}) });
      return { status, record, dir, ...(failure ? { failure } : {}) };
    } catch (error) {
      // A child recorded and then unable to go on (its run folder full, say) is recorded failed before the step hears of it.
      if (child) base.emit({ type: 'child_run_finished', stepId, childRunId: child.id, status: 'failed', tokens: child.tokens, failure: failureOfError(error, 'internal') });
      throw error;
    }
  }
  const parentOf = (request: ChildRunRequest | ChildResumeRequest, started?: ChildRunRequest): ParentRun => ({
    runId: base.runId,
    stepId: request.stepId,
    kind: started?.kind,
    bus: base.bus,
    sandbox: base.sandbox,
    signal: request.signal,
    depth,
    ...(base.show ? { show: base.show } : {}),
    ...(base.agentTrace ? { agentTrace: base.agentTrace } : {}),
    ...(started?.env ? { env: started.env } : {}),
    ...handedPlanOptions(started),
    ...(request.artifacts ? { pipelineArtifacts: request.artifacts } : {}),
    ...(request.enclosing ? { enclosing: request.enclosing } : {}),
  });
  return {
    run(request) {
      if (depth > MAX_CHILD_DEPTH) return Promise.reject(tooDeep(request.pipeline));
      return recorded(request.stepId, request.item, (onRecorded) =>
        starters.start({ ...childRequest(base, request), ...replayOf(request), parent: parentOf(request, request), onRecorded }),
      );
    },
    resume(request) {
      const { plan } = base;
      return recorded(request.stepId, request.item, (onRecorded) =>
        starters.resume({
          cwd: plan.projectRoot,
          ...(isBuiltinManifest(plan.manifestFile) ? {} : { manifest: plan.manifestFile }),
          run: request.runId,
          output: 'quiet',
          err: base.err,
          parent: parentOf(request),
          onRecorded,
        }),
      );
    },
  };
}

/** The child's startRun request: the parent's project, manifest and policy. */
function childRequest(base: ChildRunBase, request: ChildRunRequest): Omit<StartRunRequest, 'parent' | 'onRecorded'> {
  const { plan } = base;
  return {
    cwd: plan.projectRoot,
    manifest: isBuiltinManifest(plan.manifestFile) ? undefined : plan.manifestFile,
    pipeline: request.pipeline,
    // Same project, manifest and environment: the same forge, without another `git remote` per child.
    forge: plan.forge.info,
    readInput: () => request.input,
    onFailure: base.onFailure,
    keepWorkspaces: base.keepWorkspaces,
    autoApprove: base.autoApprove,
    installSkills: base.installSkills,
    ...simulateOptionsOf(base),
    output: 'quiet',
    err: base.err,
  };
}

function tooDeep(pipeline: string): WaveError {
  return new WaveError('pipeline_too_deep', `the child pipeline \`${pipeline}\` would run ${MAX_CHILD_DEPTH + 1} runs deep, past the limit of ${MAX_CHILD_DEPTH}`, {
    hint: 'A chain of child pipelines that starts itself again (a templated `pipeline:` name can) never ends: check which child names its parent.',
  });
}
