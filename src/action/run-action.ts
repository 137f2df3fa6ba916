import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import * as core from '@actions/core';
import { startRun } from '../app/start-run.js';
import { WaveError, WaveErrors, type SourceLocation } from '../core/errors.js';
import { runSecretValues } from '../engine/run/run-secrets.js';
import { describeCause } from '../io-error.js';
import { topologicalLayers } from '../core/dag.js';
import type { Plan } from '../plan/plan-types.js';
import { printAnnotations, type Annotation } from '../report/github/github-annotations.js';
import { createGithubSink } from '../report/github/github-sink.js';
import { formatGithubSummary } from '../report/github/github-summary.js';
import { readActionInputs, type ActionInputs } from './inputs.js';
import { installAgents } from './install-agents.js';
import { maskSecrets } from './mask.js';
import { conclusionOf, setRunOutputs, type Conclusion } from './outputs.js';
import { catchStopSignals, type StopWatch } from './stop.js';

/** The GitHub Action: runs a pipeline through the same session as `wave run`, reporting to the job; never throws. */
export async function runAction(stop: StopWatch = catchStopSignals()): Promise<void> {
  let conclusion: Conclusion = 'failure';
  let failOnError = true;
  try {
    const inputs = readActionInputs();
    failOnError = inputs.failOnError;
    conclusion = await runPipeline(inputs, stop);
  } catch (error) {
    if (error instanceof CancelledBeforeRun) {
      conclusion = 'cancelled';
      core.warning(error.message, { title: 'Wave: cancelled' });
    } else reportError(error);
  }
  core.setOutput('conclusion', conclusion);
  if (conclusion !== 'success' && failOnError) core.setFailed(`Wave: the run ${conclusion === 'cancelled' ? 'was cancelled' : 'failed'}.`);
  stop.release();
}

/** A stop signal that came before the run existed: nothing to record, nothing ran. */
class CancelledBeforeRun extends Error {}

async function runPipeline(inputs: ActionInputs, stop: StopWatch): Promise<Conclusion> {
  const stopIfAsked = (phase: string) => {
    if (stop.stoppedBy) throw new CancelledBeforeRun(`${stop.stoppedBy} arrived while ${phase}, before the run started: no step ran.`);
  };
  // Annotations link a file only by its path from the repository root.
  const repositoryRoot = process.env.GITHUB_WORKSPACE ?? process.cwd();
  const cwd = resolve(repositoryRoot, inputs.workingDirectory ?? '.');
  const { record, dir, redactor } = await startRun({
    cwd,
    pipeline: inputs.pipeline,
    manifest: inputs.manifest,
    manifestRequired: true,
    readInput: () => (inputs.inputFile ? readInputFile(resolve(cwd, inputs.inputFile)) : inputs.input),
    steps: inputs.steps,
    exclude: inputs.exclude,
    onFailure: inputs.onFailure,
    timeoutMinutes: inputs.timeoutMinutes,
    output: 'quiet',
    checkStop: stopIfAsked,
    // Settings nothing in the run uses: accepted, never silently.
    reportConfigWarnings: (warnings) => annotateProblems('warning', warnings, repositoryRoot),
    withPlan: async (plan) => {
      // Before anything is printed: the runner hides these from the log from now on.
      maskSecrets(runSecretValues(plan, process.env));
      stopIfAsked('loading the pipeline');
      await installAgents(inputs.installAgents, stop.signal);
      stopIfAsked('installing the agent CLIs');
    },
    sinks: ({ plan, store, selected }) => [createGithubSink({ runDir: store.dir, stepLocations: stepLocations(plan, repositoryRoot), live: oneStepAtATime(plan, selected) })],
    stoppedBy: () => stop.stoppedBy,
  });
  setRunOutputs(record, dir);
  await core.summary.addRaw(formatGithubSummary(record, { redactor, runDir: dir })).write();
  return conclusionOf(record);
}

/** Whether no two steps can run at once (max_concurrency 1, or the selected steps form a chain), so a step's log group can stream live. */
function oneStepAtATime(plan: Plan, selected?: ReadonlySet<string>): boolean {
  if (plan.runtime.maxConcurrency === 1) return true;
  return topologicalLayers(plan.steps.filter((step) => !selected || selected.has(step.id))).every((layer) => layer.length <= 1);
}

function stepLocations(plan: Plan, repositoryRoot: string): Map<string, SourceLocation> {
  return new Map(plan.steps.map((step) => [step.id, { ...step.location, file: fromRoot(step.location.file, repositoryRoot) }]));
}

function fromRoot(file: string, repositoryRoot: string): string {
  return isAbsolute(file) ? relative(repositoryRoot, file) : file;
}

/** Wave's problems as annotations of `level` at their locations (paths from the repository root), each with its hint. */
function annotateProblems(level: Annotation['level'], problems: readonly WaveError[], root: string): void {
  printAnnotations(
    problems.map((p) => ({
      level,
      title: `Wave: ${p.code}`,
      message: p.hint ? `${p.message}\nHint: ${p.hint}` : p.message,
      file: p.location ? fromRoot(p.location.file, root) : undefined,
      line: p.location?.line,
      column: p.location?.column,
    })),
  );
}

/** Bad input (a flag, a manifest, a pipeline) as error annotations at its locations; anything else as one error. */
function reportError(error: unknown): void {
  const problems = error instanceof WaveErrors ? error.errors : error instanceof WaveError ? [error] : [];
  if (problems.length === 0) {
    core.error(error instanceof Error ? (error.stack ?? error.message) : String(error), { title: 'Wave: internal error' });
    return;
  }
  annotateProblems('error', problems, process.env.GITHUB_WORKSPACE ?? process.cwd());
}

/** The text of the input-file input; a file that cannot be read is a wrong input, not a fault of the run. */
function readInputFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw new WaveError('invalid_argument', `input \`input-file\` ${path}: ${describeCause(cause)}`, {
      hint: 'Point `input-file` at a readable file, or pass the text with `input`.',
      location: { file: path },
      cause,
    });
  }
}
