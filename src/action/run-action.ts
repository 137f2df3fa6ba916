import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import * as core from '@actions/core';
import { driveRun, readySandbox, runRedactor } from '../cli/run-session.js';
import { selection } from '../cli/run-options.js';
import { findManifest, loadManifest, loadPipeline, resolvePipelinePath } from '../config/load.js';
import { refuseDisabledPipeline } from '../config/disabled-pipeline.js';
import { WaveError, WaveErrors, type SourceLocation } from '../errors.js';
import { runSecretValues } from '../executor/run-secrets.js';
import { describeCause } from '../io-error.js';
import { buildPlan } from '../plan/plan.js';
import type { Plan } from '../plan/plan-types.js';
import { printAnnotations } from '../report/github-annotations.js';
import { createGithubSink } from '../report/github-sink.js';
import { formatGithubSummary } from '../report/github-summary.js';
import { newRunId } from '../state/run-id.js';
import { RunLock } from '../state/run-lock.js';
import { RunStore } from '../state/run-store.js';
import { newRunRecord } from '../state/new-run-record.js';
import { readActionInputs, type ActionInputs } from './inputs.js';
import { installAgents } from './install-agents.js';
import { maskSecrets } from './mask.js';
import { conclusionOf, setRunOutputs, type Conclusion } from './outputs.js';

/** The GitHub Action: runs a pipeline through the same session as `wave run`, reporting to the job; never throws. */
export async function runAction(): Promise<void> {
  let conclusion: Conclusion = 'failure';
  let failOnError = true;
  try {
    const inputs = readActionInputs();
    failOnError = inputs.failOnError;
    conclusion = await runPipeline(inputs);
  } catch (error) {
    reportError(error);
  }
  core.setOutput('conclusion', conclusion);
  if (conclusion !== 'success' && failOnError) core.setFailed(`Wave: the run ${conclusion === 'cancelled' ? 'was cancelled' : 'failed'}.`);
}

async function runPipeline(inputs: ActionInputs): Promise<Conclusion> {
  // Annotations link a file only by its path from the repository root.
  const repositoryRoot = process.env.GITHUB_WORKSPACE ?? process.cwd();
  const cwd = resolve(repositoryRoot, inputs.workingDirectory ?? '.');
  const manifest = await loadManifest(findManifest(cwd, inputs.manifest));
  const pipeline = await loadPipeline(resolvePipelinePath(inputs.pipeline, manifest.dir, cwd), manifest);
  refuseDisabledPipeline(pipeline);
  const input = inputs.inputFile ? readInputFile(resolve(cwd, inputs.inputFile)) : (inputs.input ?? pipeline.value.input?.default ?? '');
  const plan = buildPlan(manifest, pipeline, { input, timeoutMinutes: inputs.timeoutMinutes });
  // Before anything is printed: the runner hides these from the log from now on.
  maskSecrets(runSecretValues(plan, process.env));
  await installAgents(inputs.installAgents);
  const selected = selection(
    plan.steps.map((s) => s.id),
    inputs.steps,
    inputs.exclude,
  );
  const sandbox = await readySandbox(plan);
  const redactor = runRedactor(plan);
  const options = { steps: inputs.steps, exclude: inputs.exclude, onFailure: inputs.onFailure, timeoutMinutes: inputs.timeoutMinutes, keepWorkspaces: false };
  const store = RunStore.create(plan.runtime.runsRoot, newRunRecord(newRunId(plan.pipelineName), plan, options), redactor);
  const lock = await RunLock.acquire(store.dir, store.record.id, 'run');
  try {
    const sink = createGithubSink({ runDir: store.dir, stepLocations: stepLocations(plan, repositoryRoot) });
    await driveRun(plan, store, { output: 'quiet', onFailure: inputs.onFailure, selected, keepWorkspaces: false, redactor, sandbox, sinks: [sink] });
  } finally {
    lock.release();
  }
  setRunOutputs(store.record, store.dir);
  await core.summary.addRaw(formatGithubSummary(store.record, { redactor, runDir: store.dir })).write();
  return conclusionOf(store.record);
}

function stepLocations(plan: Plan, repositoryRoot: string): Map<string, SourceLocation> {
  return new Map(plan.steps.map((step) => [step.id, { ...step.location, file: fromRoot(step.location.file, repositoryRoot) }]));
}

function fromRoot(file: string, repositoryRoot: string): string {
  return isAbsolute(file) ? relative(repositoryRoot, file) : file;
}

/** Bad input (a flag, a manifest, a pipeline) as error annotations at its locations; anything else as one error. */
function reportError(error: unknown): void {
  const problems = error instanceof WaveErrors ? error.errors : error instanceof WaveError ? [error] : [];
  if (problems.length === 0) {
    core.error(error instanceof Error ? (error.stack ?? error.message) : String(error), { title: 'Wave: internal error' });
    return;
  }
  const root = process.env.GITHUB_WORKSPACE ?? process.cwd();
  printAnnotations(
    problems.map((p) => ({
      level: 'error',
      title: `Wave: ${p.code}`,
      message: p.hint ? `${p.message}\nHint: ${p.hint}` : p.message,
      file: p.location ? fromRoot(p.location.file, root) : undefined,
      line: p.location?.line,
      column: p.location?.column,
    })),
  );
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
