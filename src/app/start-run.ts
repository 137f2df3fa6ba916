import { handedPlanOptions } from '../plan/plan.js';
import type { StepPart } from '../state/run-parts.js';
import { newRunId } from '../state/run-id.js';
import { RunLock } from '../state/run-lock.js';
import { RunStore } from '../state/run-store.js';
import { newRunRecord } from '../state/record/new-run-record.js';
import { childRunsOf, type ChildRunStarters } from './child-runs.js';
import { driveRun } from './drive-run.js';
import { requirePipelineSources } from './pipeline-artifact-sources.js';
import { preflightRun } from './preflight-run.js';
import { prepareRun } from './prepare-run.js';
import type { RunOutcome } from './run-outcome.js';
import { runRedactor } from './run-redactor.js';
import { simulateOptionsOf } from './simulate-options.js';
import { replayOptionsOf } from './replay-options.js';
import type { StartRunRequest } from './run-request.js';
import { leaveStepParts, replayPartEvents, takeStepParts } from './step-parts.js';

/**
 * The one run sequence of `wave run`, the GitHub Action and a child run: load, plan and select (prepareRun), the
 * preflights, the redactor, the record and its store, the lock, the drive, and the parts a named run leaves.
 */
export async function startRunWith(request: StartRunRequest, starters: ChildRunStarters): Promise<RunOutcome> {
  request.checkStop?.('starting');
  const { plan, selected } = await prepareRun(request);
  requirePipelineSources(plan, { artifacts: request.parent?.pipelineArtifacts, runs: (id) => selected?.has(id) ?? true });
  const err = request.err ?? process.stderr;
  const { sandbox, startEvents, skills } = await preflightRun(plan, {
    afterSandbox: () => request.checkStop?.('checking the sandbox'),
    err,
    child: request.parent !== undefined,
    parentSandbox: request.parent?.sandbox,
    installSkills: request.installSkills ?? false,
  });
  const redactor = runRedactor(plan);
  const keepWorkspaces = request.keepWorkspaces ?? false;
  const options = {
    // With --with-deps the record keeps what was added, so a resume runs the same steps.
    steps: selected && request.withDeps ? [...selected] : request.steps,
    exclude: request.exclude,
    onFailure: request.onFailure,
    timeoutMinutes: request.timeoutMinutes,
    keepWorkspaces,
    ...(request.autoApprove ? { autoApprove: true } : {}),
    ...(request.approvedIn !== undefined ? { approvedIn: request.approvedIn } : {}),
    ...(request.installSkills ? { installSkills: true } : {}),
    ...simulateOptionsOf(request),
    ...replayOptionsOf(request),
    ...(request.parent?.env && Object.keys(request.parent.env).length ? { env: { ...request.parent.env } } : {}),
    ...handedPlanOptions(request.parent),
  };
  const record = newRunRecord(request.runId ?? newRunId(plan.pipelineName), plan, options, request.parent);
  const parts = request.runId ? takeStepParts(plan, record) : new Map<string, StepPart>();
  const store = RunStore.create(plan.runtime.runsRoot, record, redactor, { partsFolder: request.runId !== undefined });
  replayPartEvents(store, parts);
  request.onRecorded?.(store.record);
  // Held while this process drives the run, so a `wave resume` of it is refused and `wave cancel` finds its owner.
  const lock = await RunLock.acquire(store.dir, store.record.id, 'run');
  let exitCode: number;
  try {
    const sinks = request.sinks?.({ plan, store, selected });
    // A signal during the lock's wait came after the run was recorded: the run starts stopped and is recorded cancelled.
    const stoppedBy = request.stoppedBy?.();
    const shared = request.parent ?? request.host;
    exitCode = await driveRun(plan, store, {
      output: request.output,
      onFailure: request.onFailure,
      selected,
      keepWorkspaces,
      redactor,
      sandbox,
      skills,
      sinks,
      stoppedBy,
      startEvents,
      err,
      shared,
      children: (base) => childRunsOf(base, starters),
      compiledJob: request.runId !== undefined,
    });
  } finally {
    lock.release();
  }
  // A named run may be one job of a compiled workflow: what ran here is left as parts for the job that assembles it.
  if (request.runId) leaveStepParts(store, plan, new Set(parts.keys()), selected);
  return { exitCode, plan, store, record: store.record, dir: store.dir, redactor };
}
