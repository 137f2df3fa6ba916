import { Option, type Command } from 'commander';
import { builtinManifest, isBuiltinManifest } from '../../config/load/builtin-manifest.js';
import { loadManifest, loadPipeline, loadProjectManifest } from '../../config/load/load.js';
import { runsRootOf } from '../../core/run-paths.js';
import { WaveError } from '../../core/errors.js';
import { buildPlan } from '../../plan/plan.js';
import { interruptedAttemptEvents } from '../../state/interrupted-attempts.js';
import { isProcessAlive } from '../../process/liveness.js';
import { RunLock } from '../../state/run-lock.js';
import { RunStore } from '../../state/run-store.js';
import { resetForResume } from '../../state/reset-for-resume.js';
import { stopOrphanedAttempts } from '../../state/stop-orphans.js';
import { configWarningsText } from '../config-warnings.js';
import { driveRun, preflightRun, removeOrphanedContainers, runRedactor } from '../run-session.js';
import { outputModeOf, requireStep, selection } from '../run-options.js';

interface ResumeFlags {
  manifest?: string;
  fromStep?: string;
  output: 'auto' | 'text' | 'quiet' | 'json';
  json?: boolean;
}

/** `wave resume <run>`: finish a failed, cancelled or killed run without re-running completed steps. */
export function registerResume(program: Command): void {
  program
    .command('resume')
    .description('Finish a failed, cancelled or interrupted run; completed steps are not re-run.')
    .argument('<run>', 'run id (or a unique prefix)')
    .option('-m, --manifest <file>', 'the manifest used to find the run folder')
    .option('--from-step <id>', 're-run this step and everything after it, even if completed')
    .addOption(new Option('--output <mode>', 'how progress is shown').choices(['auto', 'text', 'quiet', 'json']).default('auto'))
    .option('--json', 'same as --output json')
    .action(async (runArg: string, flags: ResumeFlags) => {
      const projectManifest = await loadProjectManifest(process.cwd(), flags.manifest);
      const runsRoot = runsRootOf(projectManifest.dir);
      const probe = RunStore.open(runsRoot, runArg);
      // One owner per run: taken before the run is read for good or anything is stopped or changed.
      const lock = await RunLock.acquire(probe.dir, probe.record.id, 'resume');
      try {
        process.exitCode = await resumeOwned(runsRoot, probe.record.id, projectManifest, flags, lock);
      } finally {
        lock.release();
      }
    });
}

/** The resume itself, by the holder of the run's lock. */
async function resumeOwned(runsRoot: string, runId: string, projectManifest: Awaited<ReturnType<typeof loadManifest>>, flags: ResumeFlags, lock: RunLock): Promise<number> {
  const recorded = RunStore.open(runsRoot, runId).record;
  // A run made without a wave.yaml resumes on the built-in manifest of its project, even if one was written since.
  const manifest =
    recorded.manifestFile === projectManifest.file
      ? projectManifest
      : isBuiltinManifest(recorded.manifestFile)
        ? builtinManifest(projectManifest.dir)
        : await loadManifest(recorded.manifestFile);
  const pipeline = await loadPipeline(recorded.pipelineFile, manifest);
  process.stderr.write(configWarningsText([manifest, pipeline]));
  const plan = buildPlan(manifest, pipeline, { input: recorded.input, timeoutMinutes: recorded.options.timeoutMinutes });
  const redactor = runRedactor(plan);
  const store = RunStore.open(runsRoot, recorded.id, redactor);
  const { pid, status } = store.record;
  // A run no lock was ever taken for (an earlier Wave drives it): its recorded pid is the owner.
  if (!lock.replaced && status === 'running' && pid !== undefined && pid !== process.pid && isProcessAlive(pid)) {
    throw new WaveError('invalid_argument', `run ${store.record.id} is still running (pid ${pid})`, {
      hint: `Wait for it, or stop it with \`wave cancel ${store.record.id}\` first.`,
    });
  }
  if (flags.fromStep)
    requireStep(
      plan.steps.map((s) => s.id),
      flags.fromStep,
    );
  const { sandbox, startEvents } = await preflightRun(plan);
  stopOrphanedAttempts(store.record, store.dir, lock);
  await removeOrphanedContainers(plan, store.record.id);
  // The record is the fold of the run's events, whatever a kill left of run.json: only what they lack is added.
  for (const event of interruptedAttemptEvents(store.record, store.dir)) store.appendEvent(event);
  store.appendEvent(resetForResume(store.record, plan, flags.fromStep));
  const done = new Set(Object.values(store.record.steps).flatMap((s) => (s.status === 'completed' ? [s.id] : [])));
  const selected = selection(plan.steps, { steps: recorded.options.steps, exclude: recorded.options.exclude }, done);
  return driveRun(plan, store, {
    output: outputModeOf(flags),
    onFailure: recorded.options.onFailure,
    selected,
    keepWorkspaces: recorded.options.keepWorkspaces,
    redactor,
    sandbox,
    startEvents,
  });
}
