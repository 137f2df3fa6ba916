import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { StartRunRequest } from '../app/run-request.js';
import { WaveError } from '../core/errors/errors.js';
import { describeCause } from '../io-error.js';
import { pipelineInputHelp } from './pipeline-input-help.js';
import { outputModeOf } from './run-options.js';

/** The flags of how a run goes, shared by `wave run` and `wave compose`. */
export interface RunFlags {
  input?: string;
  inputFile?: string;
  manifest?: string;
  onFailure: 'halt' | 'continue';
  timeout?: number;
  output: 'auto' | 'text' | 'quiet' | 'json';
  json?: boolean;
  keepWorkspaces?: boolean;
  autoApprove?: boolean;
  approvedIn?: string;
  installSkills?: boolean;
}

/** Adds the input, manifest, failure, timeout, output and workspace flags to `command`. */
export function withRunFlags(command: Command): Command {
  return command
    .option('--input <text>', 'the input, available to prompts as {{ input }}')
    .option('--input-file <file>', 'read the input from a file')
    .option('-m, --manifest <file>', 'the manifest (default: wave.yaml here or in a parent folder, else a built-in one for command steps)')
    .addOption(new Option('--on-failure <mode>', 'halt: stop at the first failure; continue: run what does not depend on it').choices(['halt', 'continue']).default('halt'))
    .option('--timeout <minutes>', 'default step timeout in minutes', positiveNumber)
    .addOption(new Option('--output <mode>', 'how progress is shown').choices(['auto', 'text', 'quiet', 'json']).default('auto'))
    .option('--json', 'same as --output json: NDJSON events on stdout')
    .option('--keep-workspaces', 'keep step workspaces after a successful run')
    .option('--auto-approve', 'approval gates take their default choice instead of waiting for a person')
    .option(
      '--approved-in <environment>',
      "approval gates take their default choice, recorded as approved by the reviewers of this GitHub Environment (a compiled workflow's gate job)",
    )
    .option('--install-skills', "let the required skills' install and init commands run, inside the sandbox")
    .addHelpText('after', pipelineInputHelp);
}

/** The part of a run request the shared flags give, for a run started in `cwd`. */
export function runRequestOf(flags: RunFlags, cwd: string): Omit<StartRunRequest, 'pipeline'> {
  return {
    cwd,
    manifest: flags.manifest,
    readInput: () => (flags.inputFile ? readInputFile(resolve(cwd, flags.inputFile)) : flags.input),
    onFailure: flags.onFailure,
    timeoutMinutes: flags.timeout,
    keepWorkspaces: flags.keepWorkspaces,
    autoApprove: flags.autoApprove,
    ...(flags.approvedIn !== undefined ? { approvedIn: flags.approvedIn } : {}),
    installSkills: flags.installSkills,
    output: outputModeOf(flags),
  };
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
