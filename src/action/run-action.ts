import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as core from '@actions/core';
import { openRecordedRun } from '../app/cassette/recorded-run.js';
import { startRun } from '../app/run-sequence.js';
import { WaveError, type SourceLocation } from '../core/errors/errors.js';
import { runSecretValues } from '../engine/run/run-secrets.js';
import { describeCause } from '../io-error.js';
import { topologicalLayers } from '../core/dag.js';
import type { Plan } from '../plan/plan-types.js';
import { createGithubSink, type GithubSink } from '../report/github/github-sink.js';
import { formatGithubSummary } from '../report/github/github-summary.js';
import { readActionInputs, type ActionInputs } from './inputs.js';
import { installAgents } from './install-agents.js';
import { maskSecrets } from './mask.js';
import { conclusionOf, setRunOutputs, type Conclusion } from './outputs.js';
import { annotateProblems, failJob, fromRoot, reportError } from './report-problems.js';
import { catchStopSignals, type StopWatch } from './stop.js';
import { inputLocation } from './workflow-file.js';

/** The GitHub Action: runs a pipeline through the same session as `wave run`, reporting to the job; never throws. */
export async function runAction(stop: StopWatch = catchStopSignals()): Promise<void> {
  let conclusion: Conclusion = 'failure';
  let failOnError = true;
  // Whether an error or warning annotation already says why the run did not succeed.
  let annotated = true;
  try {
    const inputs = readActionInputs();
    failOnError = inputs.failOnError;
    ({ conclusion, annotated } = await runPipeline(inputs, stop));
  } catch (error) {
    if (error instanceof CancelledBeforeRun) {
      conclusion = 'cancelled';
      core.warning(error.message, { title: 'Wave: cancelled' });
    } else await reportError(error, repositoryRoot());
  }
  core.setOutput('conclusion', conclusion);
  // A rejection is a verdict, not a failure (Wave exits 0 for it): the job goes on, told so.
  if (conclusion === 'rejected') core.notice('A step found nothing to do, so the run ended rejected; the `conclusion` output is `rejected`.', { title: 'Wave: rejected' });
  else if (conclusion !== 'success' && failOnError) failJob(`Wave: the run ${conclusion === 'cancelled' ? 'was cancelled' : 'failed'}.`, annotated);
  stop.release();
}

/** The checkout: annotations link a file only by its path from there. */
function repositoryRoot(): string {
  return process.env.GITHUB_WORKSPACE ?? process.cwd();
}

/** A stop signal that came before the run existed: nothing to record, nothing ran. */
class CancelledBeforeRun extends Error {}

/** Runs the pipeline; `annotated` tells whether an error annotation (a failed step's) already says why it failed. */
async function runPipeline(inputs: ActionInputs, stop: StopWatch): Promise<{ conclusion: Conclusion; annotated: boolean }> {
  const stopIfAsked = (phase: string) => {
    if (stop.stoppedBy) throw new CancelledBeforeRun(`${stop.stoppedBy} arrived while ${phase}, before the run started: no step ran.`);
  };
  const root = repositoryRoot();
  const cwd = resolve(root, inputs.workingDirectory ?? '.');
  let sink: GithubSink | undefined;
  const recorded = inputs.replay === undefined ? undefined : await openRecordedRun(inputs.replay, cwd, inputs.manifest);
  const { record, dir, redactor } = await startRun({
    cwd,
    pipeline: inputs.pipeline,
    manifest: inputs.manifest,
    manifestRequired: true,
    // A replay takes the recorded input unless one is given: the same prompts, so the same recordings match.
    readInput: () => (inputs.inputFile ? readInputFile(resolve(cwd, inputs.inputFile)) : (inputs.input ?? recorded?.record.input)),
    ...(recorded ? { replayOf: recorded.dir } : {}),
    steps: inputs.steps,
    exclude: inputs.exclude,
    onFailure: inputs.onFailure,
    timeoutMinutes: inputs.timeoutMinutes,
    output: 'quiet',
    checkStop: stopIfAsked,
    // Settings nothing in the run uses: accepted, never silently.
    reportConfigWarnings: (warnings) => void annotateProblems('warning', warnings, root),
    withPlan: async (plan) => {
      // Before anything is printed: the runner hides these from the log from now on.
      maskSecrets(runSecretValues(plan, process.env));
      stopIfAsked('loading the pipeline');
      await installAgents(inputs.installAgents, stop.signal);
      stopIfAsked('installing the agent CLIs');
    },
    sinks: ({ plan, store, selected }) => [(sink = createGithubSink({ runDir: store.dir, stepLocations: stepLocations(plan, root), live: oneStepAtATime(plan, selected) }))],
    stoppedBy: () => stop.stoppedBy,
  });
  setRunOutputs(record, dir);
  await core.summary.addRaw(formatGithubSummary(record, { redactor, runDir: dir, resume: 'action' })).write();
  return { conclusion: conclusionOf(record), annotated: (sink?.annotatedErrors ?? 0) > 0 };
}

/** Whether no two steps can run at once (max_concurrency 1, or the selected steps form a chain), so a step's log group can stream live. */
function oneStepAtATime(plan: Plan, selected?: ReadonlySet<string>): boolean {
  if (plan.runtime.maxConcurrency === 1) return true;
  return topologicalLayers(plan.steps.filter((step) => !selected || selected.has(step.id))).every((layer) => layer.length <= 1);
}

function stepLocations(plan: Plan, repositoryRoot: string): Map<string, SourceLocation> {
  return new Map(plan.steps.map((step) => [step.id, { ...step.location, file: fromRoot(step.location.file, repositoryRoot) }]));
}

/** The text of the input-file input; a file that cannot be read is a wrong input, not a fault of the run. */
function readInputFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw new WaveError('invalid_argument', `input \`input-file\` ${fromRoot(path, repositoryRoot())}: ${describeCause(cause)}`, {
      hint: 'Point `input-file` at a readable file, or pass the text with `input`.',
      location: inputLocation('input-file'),
      cause,
    });
  }
}
