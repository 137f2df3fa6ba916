import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { describeRun } from '../../app/prepare-run.js';
import type { StartRunRequest } from '../../app/run-request.js';
import { startRun } from '../../app/run-sequence.js';
import { WaveError } from '../../core/errors/errors.js';
import { stepList } from '../../core/step-list.js';
import { describeCause } from '../../io-error.js';
import { pipelineInputHelp } from '../pipeline-input-help.js';
import { runIdArgument } from '../run-id-argument.js';
import { outputModeOf } from '../run-options.js';

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
      const request: StartRunRequest = {
        cwd,
        pipeline: pipelineArg,
        manifest: flags.manifest,
        readInput: () => (flags.inputFile ? readInputFile(resolve(cwd, flags.inputFile)) : flags.input),
        steps: flags.steps,
        exclude: flags.exclude,
        withDeps: flags.withDeps,
        onFailure: flags.onFailure,
        timeoutMinutes: flags.timeout,
        keepWorkspaces: flags.keepWorkspaces,
        runId: flags.runId,
        output: outputModeOf(flags),
      };
      if (flags.dryRun) process.stdout.write(await describeRun(request));
      else process.exitCode = (await startRun(request)).exitCode;
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
