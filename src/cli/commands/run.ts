import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { loadPipeline, loadProjectManifest, resolvePipelinePath } from '../../config/load/load.js';
import { refuseDisabledPipeline } from '../../config/load/disabled-pipeline.js';
import { checkRunInput } from '../../config/load/run-input.js';
import { pipelineInputHelp } from '../pipeline-input-help.js';
import { WaveError } from '../../core/errors.js';
import { describeCause } from '../../io-error.js';
import { describePlan } from '../../plan/describe-plan.js';
import { buildPlan } from '../../plan/plan.js';
import { newRunId } from '../../state/run-id.js';
import { RunLock } from '../../state/run-lock.js';
import { RunStore } from '../../state/run-store.js';
import { newRunRecord } from '../../state/new-run-record.js';
import { worktreeWarnings } from '../../engine/workspace/worktree-preflight.js';
import { configWarningsText } from '../config-warnings.js';
import { driveRun, preflightRun, runRedactor } from '../run-session.js';
import { outputModeOf, selection, stepList } from '../run-options.js';
import { partSteps, leaveStepParts, replayPartEvents, runIdArgument, takeStepParts } from '../step-parts.js';
import type { StepPart } from '../../state/run-parts.js';

interface RunFlags {
  input?: string;
  inputFile?: string;
  manifest?: string;
  dryRun?: boolean;
  steps?: string[];
  exclude?: string[];
  onFailure: 'halt' | 'continue';
  timeout?: number;
  output: 'auto' | 'text' | 'quiet' | 'json';
  json?: boolean;
  keepWorkspaces?: boolean;
  runId?: string;
  withDeps?: boolean;
}

/** `wave run <pipeline>`: plan, execute and record a pipeline. */
export function registerRun(program: Command): void {
  program
    .command('run')
    .description('Run a pipeline (a path, or a name under pipelines/).')
    .argument('<pipeline>', 'pipeline file or name')
    .option('--input <text>', 'the input, available to prompts as {{ input }}')
    .option('--input-file <file>', 'read the input from a file')
    .option('-m, --manifest <file>', 'the manifest (default: wave.yaml here or in a parent folder, else a built-in one for command steps)')
    .option('--dry-run', 'print the plan and run nothing')
    .option('--steps <ids>', 'run only these steps (comma-separated)', stepList)
    .option('--exclude <ids>', 'do not run these steps (comma-separated)', stepList)
    .option('--with-deps', 'with --steps: also run the steps they depend on')
    .addOption(new Option('--on-failure <mode>', 'halt: stop at the first failure; continue: run what does not depend on it').choices(['halt', 'continue']).default('halt'))
    .option('--timeout <minutes>', 'default step timeout in minutes', positiveNumber)
    .addOption(new Option('--output <mode>', 'how progress is shown').choices(['auto', 'text', 'quiet', 'json']).default('auto'))
    .option('--json', 'same as --output json: NDJSON events on stdout')
    .option('--keep-workspaces', 'keep step workspaces after a successful run')
    .option('--run-id <id>', 'record the run under this id; step parts already in its folder (from other jobs) count as run', runIdArgument)
    .addHelpText('after', pipelineInputHelp)
    .action(async (pipelineArg: string, flags: RunFlags) => {
      const cwd = process.cwd();
      const manifest = await loadProjectManifest(cwd, flags.manifest);
      const pipeline = await loadPipeline(resolvePipelinePath(pipelineArg, manifest.dir, cwd), manifest);
      refuseDisabledPipeline(pipeline);
      const worktrees = { warnings: await worktreeWarnings(pipeline.value.steps, (path) => pipeline.locate(path), manifest.dir) };
      process.stderr.write(configWarningsText([manifest, pipeline, worktrees]));
      const input = flags.inputFile ? readInputFile(resolve(cwd, flags.inputFile)) : (flags.input ?? pipeline.value.input?.default ?? '');
      checkRunInput(pipeline, input);
      const plan = buildPlan(manifest, pipeline, { input, timeoutMinutes: flags.timeout });
      // Steps another job ran (compiled workflows) are there for the selected ones: their parts decide.
      const done = flags.runId ? partSteps(plan, flags.runId) : undefined;
      const selected = selection(plan.steps, flags, done);
      if (flags.dryRun) {
        // The plan holds what `${VAR}` took from the environment (commands, env, URLs): hidden like everything else.
        process.stdout.write(runRedactor(plan).redact(describePlan(plan, selected)));
        return;
      }
      const { sandbox, startEvents } = await preflightRun(plan);
      const redactor = runRedactor(plan);
      const record = newRunRecord(flags.runId ?? newRunId(plan.pipelineName), plan, {
        // With --with-deps the record keeps what was added, so a resume runs the same steps.
        steps: selected && flags.withDeps ? [...selected] : flags.steps,
        exclude: flags.exclude,
        onFailure: flags.onFailure,
        timeoutMinutes: flags.timeout,
        keepWorkspaces: flags.keepWorkspaces ?? false,
      });
      const parts = flags.runId ? takeStepParts(plan, record) : new Map<string, StepPart>();
      const store = RunStore.create(plan.runtime.runsRoot, record, redactor, { partsFolder: flags.runId !== undefined });
      replayPartEvents(store, parts);
      // Held while this process drives the run, so a `wave resume` of it is refused and `wave cancel` finds its owner.
      const lock = await RunLock.acquire(store.dir, store.record.id, 'run');
      try {
        process.exitCode = await driveRun(plan, store, {
          output: outputModeOf(flags),
          onFailure: flags.onFailure,
          selected,
          keepWorkspaces: flags.keepWorkspaces ?? false,
          redactor,
          sandbox,
          startEvents,
        });
      } finally {
        lock.release();
      }
      // A named run may be one job of a compiled workflow: what ran here is left as parts for the job that assembles it.
      if (flags.runId) leaveStepParts(store, plan, new Set(parts.keys()), selected);
    });
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!(n > 0)) throw new WaveError('invalid_argument', `--timeout expects a positive number of minutes, got \`${value}\``);
  return n;
}

/** The text of --input-file; a file that cannot be read is a wrong argument, not a fault of the run. */
function readInputFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw new WaveError('invalid_argument', `--input-file ${path}: ${describeCause(cause)}`, {
      hint: 'Point --input-file at a readable file, or pass the text with --input.',
      cause,
    });
  }
}
