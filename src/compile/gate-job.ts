import { WaveError } from '../core/errors/errors.js';
import { FAIL_TARGET } from '../config/schema/gate-schema.js';
import type { Pipeline } from '../config/schema/pipeline-schema.js';
import type { GateStep } from '../plan/plan-types.js';
import { slugPipelineName } from '../state/run-id.js';
import { JOB_SETUP_MINUTES } from './job-timeout.js';

// GitHub's longest Environment name.
const ENVIRONMENT_NAME_MAX = 255;

// The longest a job may run on a GitHub-hosted runner (the compiled jobs run on ubuntu-latest).
const HOSTED_JOB_MINUTES = 360;

/** The `gate.environment` of each step that sets one, by step id. */
export function gateEnvironmentsOf(pipeline: Pipeline): Map<string, string> {
  return new Map(pipeline.steps.flatMap((step) => (step.gate?.environment !== undefined ? [[step.id, step.gate.environment] as const] : [])));
}

/** The GitHub Environment an approval gate's job is bound to: the gate's `environment`, else `wave-<pipeline>-<step>` in lowercase letters, digits and `-`. */
export function gateEnvironmentName(pipelineName: string, stepId: string, custom: string | undefined): string {
  if (custom !== undefined) return custom;
  const step =
    stepId
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'gate';
  return `wave-${slugPipelineName(pipelineName)}-${step}`.slice(0, ENVIRONMENT_NAME_MAX);
}

/** Whether the gate's job waits for a reviewer of a GitHub Environment: an approval gate that `auto` does not resolve. */
export function needsEnvironment(step: GateStep): boolean {
  return step.gateType === 'approval' && !step.auto;
}

/**
 * Refuses, by name, a gate one job cannot express: pr_merge and ci_pass (GitHub's own events and required checks do
 * that), and an approval a reviewer's yes or no cannot carry: a choice that routes the run, choices without a default
 * (the approval takes it), a person's text.
 */
export function refuseUncompilableGate(step: GateStep): void {
  const refuse = (what: string, hint: string): never => {
    throw new WaveError('not_supported', `step \`${step.id}\` ${what}, which \`wave compile\` cannot turn into a job`, { location: step.location, hint });
  };
  if (step.gateType === 'pr_merge' || step.gateType === 'ci_pass')
    refuse(
      `is a ${step.gateType} gate`,
      step.gateType === 'pr_merge'
        ? "Start the workflow on GitHub's own event instead (`wave compile --on push` runs it once the pull request is merged), or run this pipeline with `wave run` or the Wave GitHub Action."
        : "Make the workflow wait for CI with GitHub's own required checks or `on: workflow_run`, or run this pipeline with `wave run` or the Wave GitHub Action.",
    );
  if (step.gateType === 'timer' && (step.timeoutMs ?? 0) / 60_000 > HOSTED_JOB_MINUTES - JOB_SETUP_MINUTES)
    refuse(
      `is a timer gate longer than a GitHub-hosted job may run (${HOSTED_JOB_MINUTES - JOB_SETUP_MINUTES} minutes and its setup)`,
      'Shorten its `timeout`, start the workflow later with `on: schedule`, or run this pipeline with `wave run`.',
    );
  if (!needsEnvironment(step)) return;
  const routed = step.choices.find((choice) => choice.target !== undefined && choice.target !== FAIL_TARGET);
  if (routed)
    refuse(
      `is an approval gate whose choice \`${routed.key}\` goes to \`${routed.target}\``,
      'A GitHub Environment approval only lets the job run or not; run this pipeline with `wave run` or the Wave GitHub Action, where the choice can route the run.',
    );
  if (step.choices.length && step.defaultChoice === undefined)
    refuse(
      'is an approval gate with choices and no default',
      "A GitHub Environment approval takes the gate's default choice: set `default`, or run this pipeline with `wave run` or the Wave GitHub Action.",
    );
  if (step.freeform)
    refuse(
      'is an approval gate with `freeform: true`',
      'A GitHub Environment approval carries no text to the run: remove `freeform`, or run this pipeline with `wave run` or the Wave GitHub Action.',
    );
}
