import { builtinManifest, isBuiltinManifest } from '../config/load/builtin-manifest.js';
import { loadManifest, loadPipeline, loadProjectManifest, type Located } from '../config/load/load.js';
import type { Manifest } from '../config/schema/manifest-schema.js';
import { runsRootOf } from '../core/run-paths.js';
import { WaveError } from '../core/errors/errors.js';
import { buildPlan, handedPlanOptions } from '../plan/plan.js';
import { isProcessAlive } from '../process/liveness.js';
import { RunLock } from '../state/run-lock.js';
import { RunStore } from '../state/run-store.js';
import { stopOrphanedAttempts } from '../state/stop-orphans.js';
import { configWarningsText } from './config-warnings.js';
import { childRunsOf, type ChildRunStarters } from './child-runs.js';
import { driveRun } from './drive-run.js';
import { removeOrphanedContainers } from './orphaned-containers.js';
import { requirePipelineSources } from './pipeline-artifact-sources.js';
import { preflightRun } from './preflight-run.js';
import { reconcileRecord } from './reconcile-record.js';
import type { RunOutcome } from './run-outcome.js';
import { runRedactor } from './run-redactor.js';
import type { ChildRunBase, ResumeRunRequest } from './run-request.js';
import { requireStep, selection } from './selection.js';

/** What `wave resume` asks the run sequence for. */
/** `wave resume`: finishes a failed, cancelled or killed run without re-running its completed steps, holding its lock throughout. */
export async function resumeRunWith(request: ResumeRunRequest, starters: ChildRunStarters): Promise<RunOutcome> {
  const projectManifest = await loadProjectManifest(request.cwd, request.manifest);
  const runsRoot = runsRootOf(projectManifest.dir);
  const probe = RunStore.open(runsRoot, request.run);
  // One owner per run: taken before the run is read for good or anything is stopped or changed.
  const lock = await RunLock.acquire(probe.dir, probe.record.id, 'resume');
  try {
    return await resumeOwned({ runsRoot, runId: probe.record.id, projectManifest, request, lock, starters });
  } finally {
    lock.release();
  }
}

/** The resume itself, by the holder of the run's lock. */
async function resumeOwned(owned: {
  runsRoot: string;
  runId: string;
  projectManifest: Located<Manifest>;
  request: ResumeRunRequest;
  lock: RunLock;
  starters: ChildRunStarters;
}): Promise<RunOutcome> {
  const { runsRoot, projectManifest, request, lock, starters } = owned;
  const err = request.err ?? process.stderr;
  const recorded = RunStore.open(runsRoot, owned.runId).record;
  // A run made without a wave.yaml resumes on the built-in manifest of its project, even if one was written since.
  const manifest =
    recorded.manifestFile === projectManifest.file
      ? projectManifest
      : isBuiltinManifest(recorded.manifestFile)
        ? builtinManifest(projectManifest.dir)
        : await loadManifest(recorded.manifestFile);
  const pipeline = await loadPipeline(recorded.pipelineFile, manifest);
  // A child's parent already said its manifest's warnings.
  if (!request.parent) err.write(configWarningsText([manifest, pipeline]));
  const plan = buildPlan(manifest, pipeline, { input: recorded.input, timeoutMinutes: recorded.options.timeoutMinutes, ...handedPlanOptions(recorded.options) });
  const redactor = runRedactor(plan);
  const store = RunStore.open(runsRoot, recorded.id, redactor);
  const { pid, status } = store.record;
  // A run no lock was ever taken for (an earlier Wave drives it): its recorded pid is the owner.
  if (!lock.replaced && status === 'running' && pid !== undefined && pid !== process.pid && isProcessAlive(pid)) {
    throw new WaveError('invalid_argument', `run ${store.record.id} is still running (pid ${pid})`, {
      hint: `Wait for it, or stop it with \`wave cancel ${store.record.id}\` first.`,
    });
  }
  // A rejected run ended as meant (its step found nothing to do): running it again is a decision, not a repair.
  if (status === 'rejected' && !request.force && !request.parent) {
    throw new WaveError('invalid_argument', `run ${store.record.id} was rejected: a step found nothing to do, so there is nothing to finish`, {
      hint: `Pass --force to run its rejected step again: \`wave resume --force ${store.record.id}\`.`,
    });
  }
  if (request.fromStep)
    requireStep(
      plan.steps.map((s) => s.id),
      request.fromStep,
    );
  const { sandbox, startEvents, skills } = await preflightRun(plan, {
    err,
    child: request.parent !== undefined,
    parentSandbox: request.parent?.sandbox,
    installSkills: recorded.options.installSkills ?? false,
  });
  stopOrphanedAttempts(store.record, store.dir, lock);
  await removeOrphanedContainers(plan, store.record.id);
  reconcileRecord(store, plan, request.fromStep);
  const done = new Set(Object.values(store.record.steps).flatMap((s) => (s.status === 'completed' ? [s.id] : [])));
  const selected = selection(plan.steps, { steps: recorded.options.steps, exclude: recorded.options.exclude }, done);
  const { onFailure, keepWorkspaces } = recorded.options;
  const parentId = request.parent ? undefined : store.record.parentId;
  requirePipelineSources(plan, { artifacts: request.parent?.pipelineArtifacts, runs: (id) => !done.has(id) && (selected?.has(id) ?? true), ...(parentId ? { parentId } : {}) });
  request.onRecorded?.(store.record);
  const children = (base: ChildRunBase) => childRunsOf(base, starters);
  const shared = request.parent ?? request.host;
  const exitCode = await driveRun(plan, store, { output: request.output, onFailure, selected, keepWorkspaces, redactor, sandbox, skills, startEvents, err, children, shared });
  return { exitCode, plan, store, record: store.record, dir: store.dir, redactor };
}
