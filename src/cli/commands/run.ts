import type { Command } from 'commander';
import { describeRun } from '../../app/prepare-run.js';
import type { StartRunRequest } from '../../app/run-request.js';
import { startRun } from '../../app/run-sequence.js';
import { stepList } from '../../core/step-list.js';
import { runIdArgument } from '../run-id-argument.js';
import { runRequestOf, withRunFlags, type RunFlags } from '../run-flags.js';
import { simulateRequestOf, type SimulateFlags } from '../simulate-flags.js';
import { replayRequestOf, withReplayFlags, type ReplayFlags } from '../replay-flags.js';

interface RunCommandFlags extends RunFlags, SimulateFlags, Omit<ReplayFlags, 'manifest'> {
  dryRun?: boolean;
  steps?: string[];
  exclude?: string[];
  runId?: string;
  withDeps?: boolean;
}

/** `wave run <pipeline>`: plan, execute and record a pipeline. */
export function registerRun(program: Command): void {
  const command = program
    .command('run')
    .description('Run a pipeline (a path, or a name under pipelines/).')
    .argument('<pipeline>', 'pipeline file or name')
    .option('--dry-run', 'print the plan and run nothing')
    .option('--steps <ids>', 'run only these steps (comma-separated)', stepList)
    .option('--exclude <ids>', 'do not run these steps (comma-separated)', stepList)
    .option('--with-deps', 'with --steps: also run the steps they depend on')
    .option('--run-id <id>', 'record the run under this id; step parts already in its folder (from other jobs) count as run', runIdArgument)
    .option(
      '--simulate',
      'run every step, but answer agent and model attempts with outputs generated from their contracts: no agent, model, key or token (command steps run for real; gates are approved)',
    )
    .option('--simulate-outputs <dir>', 'with --simulate: take files and answers from <dir>/<step id>/<output path> and <dir>/<step id>/answer.txt where present')
    .option('--replay <run>', 'serve every agent and model attempt from the recording of <run>: a run id, or a cassette file (see `wave replay`)');
  withReplayFlags(withRunFlags(command)).action(async (pipelineArg: string, flags: RunCommandFlags) => {
    const request: StartRunRequest = {
      ...runRequestOf(flags, process.cwd()),
      pipeline: pipelineArg,
      steps: flags.steps,
      exclude: flags.exclude,
      withDeps: flags.withDeps,
      runId: flags.runId,
      ...simulateRequestOf(flags, process.cwd()),
      ...(await replayRequestOf(flags, process.cwd())),
    };
    if (flags.dryRun) process.stdout.write(await describeRun(request));
    else process.exitCode = (await startRun(request)).exitCode;
  });
}
